// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/hash128.h"

#include <array>
#include <bit>
#include <cstring>

namespace annrt::runtime {
namespace {

// Odd constants with bits spread evenly (digits of pi, e and sqrt(2)).
constexpr uint64_t kA0 = 0x243f6a8885a308d3, kA1 = 0x13198a2e03707345;
constexpr uint64_t kB0 = 0xb7e151628aed2a6b, kB1 = 0x6a09e667f3bcc909;
constexpr uint64_t kStep = 0x9e3779b97f4a7c15;  // odd: multiplying by it is a bijection
constexpr size_t kChains = 4;                   // the main loop below spells them out

// Little-endian on every CPU. GCC compiled the byte-at-a-time form as a
// loop of byte loads and shifts (the hash ran at 3-7 GB/s instead of 20+).
uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

// The 128-bit product of a and b folded to 64 bits: every input bit reaches
// the middle of the product, and the fold brings the high half down.
__extension__ typedef unsigned __int128 Uint128;  // GCC and Clang, on 64-bit targets

uint64_t foldedMultiply(uint64_t a, uint64_t b) {
  const Uint128 product = static_cast<Uint128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

uint64_t rotl(uint64_t x, int n) {
  return (x << n) | (x >> (64 - n));
}

// Each block's digest is added to a bijective step of the state, so that
// no block can erase what came before; a block's digest degenerates only
// where one of its words equals a lane constant, and the two lanes pair
// the words the other way round so they do not degenerate together.
struct Lanes {
  uint64_t a, b;
  void absorb(uint64_t w0, uint64_t w1) {
    a = rotl(a, 29) * kStep + foldedMultiply(w0 ^ kA0, w1 ^ kA1);
    b = rotl(b, 37) * kStep + foldedMultiply(w1 ^ kB0, w0 ^ kB1);
  }
};

// A final avalanche (Stafford's variant 13 of the MurmurHash3 finalizer).
uint64_t finalize(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9;
  x ^= x >> 27;
  x *= 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

}  // namespace

Hash128 hash128(std::span<const uint8_t> data) {
  const uint64_t length = data.size();
  // Four chains, each taking every fourth 16-byte block: a chain waits on
  // its own multiplies only, so the CPU overlaps them (one chain ran at
  // 5.9 GB/s here). Each starts from its own state, so blocks swapped
  // between chains do not give the same digest.
  std::array<Lanes, kChains> chains;
  for (uint64_t c = 0; c < kChains; ++c) {
    chains[c] = {(kA0 ^ length) + c * kStep, (kB0 + length) ^ (c * kA1)};
  }
  const uint8_t* p = data.data();
  size_t n = data.size();
  Lanes c0 = chains[0], c1 = chains[1], c2 = chains[2], c3 = chains[3];  // kept in registers
  for (; n >= 16 * kChains; n -= 16 * kChains, p += 16 * kChains) {
    c0.absorb(load64(p), load64(p + 8));
    c1.absorb(load64(p + 16), load64(p + 24));
    c2.absorb(load64(p + 32), load64(p + 40));
    c3.absorb(load64(p + 48), load64(p + 56));
  }
  chains = {c0, c1, c2, c3};
  size_t chain = 0;
  for (; n >= 16; n -= 16, p += 16) chains[chain++].absorb(load64(p), load64(p + 8));
  if (n > 0) {
    uint8_t tail[16] = {};  // zero-padded; the length, absorbed below, tells the pads apart
    std::memcpy(tail, p, n);
    chains[chain].absorb(load64(tail), load64(tail + 8));
  }
  // The chains' states, in order, into one more.
  Lanes lanes{kA0 ^ length, kB0 + length};
  for (const Lanes& c : chains) lanes.absorb(c.a, c.b);
  lanes.absorb(length, ~length);
  const uint64_t a = finalize(lanes.a), b = finalize(lanes.b ^ rotl(lanes.a, 32));
  Hash128 digest;
  for (int i = 0; i < 8; ++i) {
    digest[i] = static_cast<uint8_t>(a >> (8 * i));
    digest[8 + i] = static_cast<uint8_t>(b >> (8 * i));
  }
  return digest;
}

}  // namespace annrt::runtime
