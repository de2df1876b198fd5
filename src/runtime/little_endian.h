// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Reading 64-bit little-endian words from bytes, as the cache's checksum and
// hash do, the same on every CPU.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace annrt::runtime {

// A memcpy, not a loop of byte loads and shifts: GCC compiled the
// byte-at-a-time form as such a loop, several times slower.
inline uint64_t loadLittleEndian64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

}  // namespace annrt::runtime
