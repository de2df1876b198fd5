// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Feeds typed values into SHA-256 unambiguously: fixed-width little-endian
// integers, and byte strings and lists preceded by their length, so that
// two different sequences of fields never produce the same bytes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
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
    append(data);
  }
  void text(std::string_view s) { bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()}); }
  void u32s(const std::vector<uint32_t>& values) {
    u64(values.size());
    for (uint32_t v : values) u32(v);
  }
  Sha256::Digest finish() {
    flush();
    return sha_.finish();
  }

 private:
  // Fields are gathered here and handed to SHA-256 a buffer at a time: a
  // model's structure is thousands of 4-byte fields, and one update call
  // each was most of hashing a small model. The digest is the same.
  void fixed(uint64_t v, int size) {
    if (used_ + 8 > buffer_.size()) flush();
    for (int i = 0; i < size; ++i) buffer_[used_++] = static_cast<uint8_t>(v >> (8 * i));
  }
  void append(std::span<const uint8_t> data) {
    if (data.size() > buffer_.size() - used_) {
      flush();
      if (data.size() >= buffer_.size()) {
        sha_.update(data);
        return;
      }
    }
    if (!data.empty()) std::memcpy(buffer_.data() + used_, data.data(), data.size());
    used_ += data.size();
  }
  void flush() {
    sha_.update({buffer_.data(), used_});
    used_ = 0;
  }

  Sha256 sha_;
  std::array<uint8_t, 1024> buffer_{};
  size_t used_ = 0;
};

}  // namespace annrt::runtime
