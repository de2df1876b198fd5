// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/sha256.h"

#include <algorithm>
#include <cstring>

#include "runtime/sha256_blocks.h"

namespace annrt::runtime {
namespace {

// Section 5.3.3: the initial hash value.
constexpr std::array<uint32_t, 8> kInitial = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

}  // namespace

Sha256::Sha256() : state_(kInitial) {}

void Sha256::update(std::span<const uint8_t> data) {
  // An empty span may have a null pointer, which memcpy must not be given.
  if (data.empty()) return;
  totalBytes_ += data.size();
  size_t i = 0;
  if (buffered_ > 0) {
    const size_t take = std::min(data.size(), buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, data.data(), take);
    buffered_ += take;
    i = take;
    if (buffered_ < buffer_.size()) return;
    sha256Blocks(state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  const size_t blocks = (data.size() - i) / 64;
  sha256Blocks(state_.data(), data.data() + i, blocks);
  i += 64 * blocks;
  std::memcpy(buffer_.data(), data.data() + i, data.size() - i);
  buffered_ = data.size() - i;
}

Sha256::Digest Sha256::finish() {
  // Section 5.1.1: a 1 bit, zeros up to 56 bytes mod 64, the bit length.
  const uint64_t bits = totalBytes_ * 8;
  const uint8_t one = 0x80;
  update({&one, 1});
  const uint8_t zero = 0;
  while (buffered_ != 56) update({&zero, 1});
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  update(length);
  Digest digest;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
  }
  return digest;
}

}  // namespace annrt::runtime
