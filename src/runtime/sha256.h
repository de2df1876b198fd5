// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SHA-256 (FIPS 180-4), for the compilation cache's keys: a cryptographic
// hash, so that two different inputs naming one cache entry is not a
// practical concern. Inputs are small (the structure of a model, digests of
// its constants); large data goes through hash128.h first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace annrt::runtime {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void update(std::span<const uint8_t> data);
  void update(std::string_view text) {
    update({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  }
  // Pads, and returns the digest; the object must not be updated afterwards.
  Digest finish();

 private:
  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t totalBytes_ = 0;
};

}  // namespace annrt::runtime
