// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Written from the published description of FarmHash's "na" 64-bit hash,
// which Fingerprint64 is defined to be. Lengths up to 64 bytes take one of
// three short paths; longer input is consumed in 64-byte blocks with a
// 56-byte state, then the last (possibly overlapping) 64 bytes finish it.
#include "ops/util/fingerprint64.h"

#include <bit>
#include <cstring>
#include <utility>

namespace annrt::ops {
namespace {

constexpr uint64_t kPrime0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t kPrime1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t kPrime2 = 0x9ae16a3b2f90404fULL;

static_assert(std::endian::native == std::endian::little,
              "Fingerprint64 reads words little-endian; add byte swaps for this target");

uint64_t load64(const uint8_t* p) {
  uint64_t value;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

uint64_t load32(const uint8_t* p) {
  uint32_t value;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

uint64_t rotr(uint64_t value, int shift) {
  return std::rotr(value, shift);
}

uint64_t shiftMix(uint64_t value) {
  return value ^ (value >> 47);
}

// Folds two words into one with multiplier `mul`.
uint64_t mix(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = shiftMix((u ^ v) * mul);
  uint64_t b = shiftMix((v ^ a) * mul);
  return b * mul;
}

uint64_t lengthMultiplier(size_t length) {
  return kPrime2 + length * 2;
}

uint64_t hashUpTo16(const uint8_t* s, size_t length) {
  if (length >= 8) {
    const uint64_t mul = lengthMultiplier(length);
    const uint64_t a = load64(s) + kPrime2;
    const uint64_t b = load64(s + length - 8);
    return mix(rotr(b, 37) * mul + a, (rotr(a, 25) + b) * mul, mul);
  }
  if (length >= 4) {
    const uint64_t a = load32(s);
    return mix(length + (a << 3), load32(s + length - 4), lengthMultiplier(length));
  }
  if (length > 0) {
    const uint32_t y = s[0] + (uint32_t{s[length >> 1]} << 8);
    const uint32_t z = static_cast<uint32_t>(length) + (uint32_t{s[length - 1]} << 2);
    return shiftMix(y * kPrime2 ^ z * kPrime0) * kPrime2;
  }
  return kPrime2;
}

uint64_t hash17To32(const uint8_t* s, size_t length) {
  const uint64_t mul = lengthMultiplier(length);
  const uint64_t a = load64(s) * kPrime1;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + length - 8) * mul;
  const uint64_t d = load64(s + length - 16) * kPrime2;
  return mix(rotr(a + b, 43) + rotr(c, 30) + d, a + rotr(b + kPrime2, 18) + c, mul);
}

uint64_t hash33To64(const uint8_t* s, size_t length) {
  const uint64_t mul = lengthMultiplier(length);
  const uint64_t a = load64(s) * kPrime2;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + length - 8) * mul;
  const uint64_t d = load64(s + length - 16) * kPrime2;
  const uint64_t y = rotr(a + b, 43) + rotr(c, 30) + d;
  const uint64_t z = mix(y, a + rotr(b + kPrime2, 18) + c, mul);
  const uint64_t e = load64(s + 16) * mul;
  const uint64_t f = load64(s + 24);
  const uint64_t g = (y + load64(s + length - 32)) * mul;
  const uint64_t h = (z + load64(s + length - 24)) * mul;
  return mix(rotr(e + f, 43) + rotr(g, 30) + h, e + rotr(f + a, 18) + g, mul);
}

using WordPair = std::pair<uint64_t, uint64_t>;

// A weak hash of the 32 bytes at `s`, seeded by `a` and `b`.
WordPair hash32WithSeeds(const uint8_t* s, uint64_t a, uint64_t b) {
  const uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16), z = load64(s + 24);
  a += w;
  b = rotr(b + a + z, 21);
  const uint64_t c = a;
  a += x + y;
  b += rotr(a, 44);
  return {a + z, b + c};
}

// The running state of the long-input path.
struct LongState {
  uint64_t x, y, z;
  WordPair v{0, 0}, w{0, 0};

  // Absorbs one 64-byte block; `mul` and `weight` differ for the last block.
  void absorb(const uint8_t* s, uint64_t mul, uint64_t weight) {
    x = rotr(x + y + v.first + load64(s + 8), 37) * mul;
    y = rotr(y + v.second + load64(s + 48), 42) * mul;
    x ^= w.second * weight;
    y += v.first * weight + load64(s + 40);
    z = rotr(z + w.first, 33) * mul;
    v = hash32WithSeeds(s, v.second * mul, x + w.first);
    w = hash32WithSeeds(s + 32, z + w.second, y + load64(s + 16));
    std::swap(z, x);
  }
};

uint64_t hashLong(const uint8_t* s, size_t length) {
  constexpr uint64_t kSeed = 81;
  LongState state{kSeed, kSeed * kPrime1 + 113, 0};
  state.z = shiftMix(state.y * kPrime2 + 113) * kPrime2;
  state.x = state.x * kPrime2 + load64(s);
  // Every full block but the one holding the final byte; the tail is then
  // hashed as the last 64 bytes, overlapping the previous block if needed.
  const uint8_t* end = s + ((length - 1) / 64) * 64;
  const uint8_t* last64 = s + length - 64;
  for (; s != end; s += 64) state.absorb(s, kPrime1, 1);
  const uint64_t mul = kPrime1 + ((state.z & 0xff) << 1);
  state.w.first += (length - 1) & 63;
  state.v.first += state.w.first;
  state.w.first += state.v.first;
  state.absorb(last64, mul, 9);
  return mix(mix(state.v.first, state.w.first, mul) + shiftMix(state.y) * kPrime0 + state.z,
             mix(state.v.second, state.w.second, mul) + state.x, mul);
}

}  // namespace

uint64_t fingerprint64(std::span<const uint8_t> bytes) {
  const uint8_t* s = bytes.data();
  const size_t length = bytes.size();
  if (length <= 16) return hashUpTo16(s, length);
  if (length <= 32) return hash17To32(s, length);
  if (length <= 64) return hash33To64(s, length);
  return hashLong(s, length);
}

}  // namespace annrt::ops
