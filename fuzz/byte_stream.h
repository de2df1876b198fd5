// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The fuzzers' input format: little-endian fields read from the front of the
// input, zeros once it is used up (so every byte string decodes to
// something), and the writer that makes seeds in the same format.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace annrt::fuzz {

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  template <typename T>
  T read() {
    T value{};
    const size_t n = std::min(sizeof(T), bytes_.size() - position_);
    std::memcpy(&value, bytes_.data() + position_, n);
    position_ += n;
    return value;
  }
  // Up to `count` bytes (fewer at the end of the input).
  std::span<const uint8_t> take(size_t count) {
    const size_t n = std::min(count, bytes_.size() - position_);
    const auto taken = bytes_.subspan(position_, n);
    position_ += n;
    return taken;
  }
  bool empty() const { return position_ == bytes_.size(); }

 private:
  std::span<const uint8_t> bytes_;
  size_t position_ = 0;
};

class ByteWriter {
 public:
  template <typename T>
  void write(T value) {
    const auto* p = reinterpret_cast<const uint8_t*>(&value);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void append(std::span<const uint8_t> data) {
    bytes.insert(bytes.end(), data.begin(), data.end());
  }

  std::vector<uint8_t> bytes;
};

}  // namespace annrt::fuzz
