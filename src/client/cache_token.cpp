// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "client/cache_token.h"

namespace annrt::client {
namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t lane(std::string_view token, uint64_t laneIndex) {
  uint64_t hash = kFnvOffset ^ splitMix64(laneIndex);
  for (unsigned char c : token) {
    hash ^= c;
    hash *= kFnvPrime;
  }
  return splitMix64(hash ^ token.size());
}

}  // namespace

CacheToken hashCacheToken(std::string_view token) {
  CacheToken bytes{};
  for (size_t l = 0; l < bytes.size() / 8; ++l) {
    const uint64_t value = lane(token, l);
    for (size_t b = 0; b < 8; ++b) bytes[l * 8 + b] = static_cast<uint8_t>(value >> (8 * b));
  }
  return bytes;
}

}  // namespace annrt::client
