// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Feeds typed values into SHA-256 unambiguously: fixed-width little-endian
// integers, and byte strings and lists preceded by their length, so that
// two different sequences of fields never produce the same bytes.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/sha256.h"

namespace annrt::runtime {

class HashWriter {
 public:
  void u32(uint32_t v) { fixed(v, 4); }
  void u64(uint64_t v) { fixed(v, 8); }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void f32(float v) { u32(std::bit_cast<uint32_t>(v)); }
  void flag(bool v) { u32(v ? 1 : 0); }
  void bytes(std::span<const uint8_t> data) {
    u64(data.size());
    sha_.update(data);
  }
  void text(std::string_view s) { bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()}); }
  void u32s(const std::vector<uint32_t>& values) {
    u64(values.size());
    for (uint32_t v : values) u32(v);
  }
  Sha256::Digest finish() { return sha_.finish(); }

 private:
  void fixed(uint64_t v, int size) {
    uint8_t out[8];
    for (int i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
    sha_.update({out, static_cast<size_t>(size)});
  }

  Sha256 sha_;
};

}  // namespace annrt::runtime
