// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/hash128.h"

#include <array>
#include <bit>
#include <cstring>

#include "runtime/little_endian.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "common/cpu_features.h"
#endif

namespace annrt::runtime {
namespace {

constexpr size_t kLanes = 8;
constexpr size_t kStripeBytes = 64;
constexpr size_t kStripesPerBlock = 16;
constexpr size_t kBlockBytes = kStripeBytes * kStripesPerBlock;
// Odd and below 2^32, so that multiplying by it is a bijection of 64-bit
// words that 32-bit vector multiplies can do (2^32 / golden ratio).
constexpr uint64_t kScramble = 0x9e3779b1;

// splitmix64: the keys are its outputs from a fixed seed (the first digits
// of pi), not numbers chosen by hand.
constexpr uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

struct Keys {
  // Stripe s of a block XORs lane i's word with stripe[s + i].
  std::array<uint64_t, kStripesPerBlock + kLanes - 1> stripe{};
  std::array<uint64_t, kLanes> scramble{};
  std::array<uint64_t, kLanes> start{};
  std::array<uint64_t, 2 * kLanes> fold{};
};

constexpr Keys makeKeys() {
  Keys keys;
  uint64_t state = 0x243f6a8885a308d3;
  for (uint64_t& key : keys.stripe) key = splitmix(state);
  for (uint64_t& key : keys.scramble) key = splitmix(state);
  for (uint64_t& key : keys.start) key = splitmix(state);
  for (uint64_t& key : keys.fold) key = splitmix(state);
  return keys;
}

constexpr Keys kKeys = makeKeys();

using Accumulators = std::array<uint64_t, kLanes>;

// Lane `mine` takes word w: its halves' product (after the key), and the
// lane it is paired with takes w itself.
inline void absorbWord(uint64_t& mine, uint64_t& paired, uint64_t w, uint64_t key) {
  const uint64_t v = w ^ key;
  paired += w;
  mine += (v & 0xffffffff) * (v >> 32);
}

// Stripes [0, stripes) of `p`, the first with stripe keys from `key`; the
// accumulators in locals (GCC kept an array of them in memory, at half the
// speed).
void absorbStripes(Accumulators& acc, const uint8_t* p, size_t stripes, const uint64_t* key) {
  uint64_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  uint64_t a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
  for (size_t s = 0; s < stripes; ++s, p += kStripeBytes, ++key) {
    absorbWord(a0, a1, loadLittleEndian64(p), key[0]);
    absorbWord(a1, a0, loadLittleEndian64(p + 8), key[1]);
    absorbWord(a2, a3, loadLittleEndian64(p + 16), key[2]);
    absorbWord(a3, a2, loadLittleEndian64(p + 24), key[3]);
    absorbWord(a4, a5, loadLittleEndian64(p + 32), key[4]);
    absorbWord(a5, a4, loadLittleEndian64(p + 40), key[5]);
    absorbWord(a6, a7, loadLittleEndian64(p + 48), key[6]);
    absorbWord(a7, a6, loadLittleEndian64(p + 56), key[7]);
  }
  acc = {a0, a1, a2, a3, a4, a5, a6, a7};
}

// A bijection of each accumulator: a xor-shift, a key, an odd multiplier.
void scramble(Accumulators& acc) {
  for (size_t i = 0; i < kLanes; ++i) {
    uint64_t a = acc[i];
    a ^= a >> 47;
    a ^= kKeys.scramble[i];
    acc[i] = a * kScramble;
  }
}

void absorbBlocksPortable(Accumulators& acc, const uint8_t* p, size_t blocks) {
  for (size_t b = 0; b < blocks; ++b, p += kBlockBytes) {
    absorbStripes(acc, p, kStripesPerBlock, kKeys.stripe.data());
    scramble(acc);
  }
}

#if defined(__x86_64__)
#define ANNRT_AVX2 __attribute__((target("avx2")))

// Lanes [4h, 4h + 4) of a stripe: the same arithmetic four lanes at a time.
// Swapping the 64-bit halves of each 128-bit half pairs lane i with i ^ 1.
ANNRT_AVX2 __m256i absorbQuarter(__m256i acc, const uint8_t* p, const uint64_t* key) {
  const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i v = _mm256_xor_si256(w, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key)));
  const __m256i product = _mm256_mul_epu32(v, _mm256_srli_epi64(v, 32));
  return _mm256_add_epi64(acc, _mm256_add_epi64(product, _mm256_shuffle_epi32(w, 0x4e)));
}

ANNRT_AVX2 __m256i scrambleQuarter(__m256i acc, const uint64_t* key) {
  const __m256i multiplier = _mm256_set1_epi64x(kScramble);
  __m256i a = _mm256_xor_si256(acc, _mm256_srli_epi64(acc, 47));
  a = _mm256_xor_si256(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key)));
  // a * kScramble modulo 2^64, from the products of its 32-bit halves.
  const __m256i low = _mm256_mul_epu32(a, multiplier);
  const __m256i high = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), multiplier);
  return _mm256_add_epi64(low, _mm256_slli_epi64(high, 32));
}

ANNRT_AVX2 void absorbBlocksAvx2(Accumulators& acc, const uint8_t* p, size_t blocks) {
  __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc.data()));
  __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc.data() + 4));
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t s = 0; s < kStripesPerBlock; ++s, p += kStripeBytes) {
      a0 = absorbQuarter(a0, p, kKeys.stripe.data() + s);
      a1 = absorbQuarter(a1, p + 32, kKeys.stripe.data() + s + 4);
    }
    a0 = scrambleQuarter(a0, kKeys.scramble.data());
    a1 = scrambleQuarter(a1, kKeys.scramble.data() + 4);
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc.data()), a0);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc.data() + 4), a1);
}
#endif

using BlocksFunction = void (*)(Accumulators&, const uint8_t*, size_t);

BlocksFunction blocksFunction(Hash128Kernel kernel) {
#if defined(__x86_64__)
  if (kernel == Hash128Kernel::AVX2) return absorbBlocksAvx2;
#endif
  (void)kernel;
  return absorbBlocksPortable;
}

// The 128-bit product of a and b folded to 64 bits.
__extension__ typedef unsigned __int128 Uint128;  // GCC and Clang, on 64-bit targets

uint64_t foldedMultiply(uint64_t a, uint64_t b) {
  const Uint128 product = static_cast<Uint128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

// A final avalanche (Stafford's variant 13 of the MurmurHash3 finalizer).
uint64_t avalanche(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9;
  x ^= x >> 27;
  x *= 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

// Each half takes every accumulator, paired differently (lanes 2i and
// 2i + 1 for one, i and i + 4 for the other), so that a pair degenerating
// (a lane equal to its key) does not take both halves with it.
Hash128 fold(const Accumulators& acc, uint64_t length) {
  uint64_t low = length * 0x9e3779b97f4a7c15, high = ~length;
  for (size_t i = 0; i < kLanes / 2; ++i) {
    low += foldedMultiply(acc[2 * i] ^ kKeys.fold[2 * i], acc[2 * i + 1] ^ kKeys.fold[2 * i + 1]);
    high +=
        foldedMultiply(acc[i] ^ kKeys.fold[kLanes + i], acc[i + 4] ^ kKeys.fold[kLanes + i + 4]);
  }
  const uint64_t a = avalanche(low);
  const uint64_t b = avalanche(high ^ std::rotl(a, 32));
  Hash128 digest;
  for (int i = 0; i < 8; ++i) {
    digest[i] = static_cast<uint8_t>(a >> (8 * i));
    digest[8 + i] = static_cast<uint8_t>(b >> (8 * i));
  }
  return digest;
}

Hash128Kernel fastestKernel() {
  static const Hash128Kernel kernel = hash128KernelsOnThisCpu().back();
  return kernel;
}

}  // namespace

std::vector<Hash128Kernel> hash128KernelsOnThisCpu() {
  std::vector<Hash128Kernel> kernels = {Hash128Kernel::PORTABLE};
#if defined(__x86_64__)
  if (cpuFeatures().avx2) kernels.push_back(Hash128Kernel::AVX2);
#endif
  return kernels;
}

const char* hash128KernelName(Hash128Kernel kernel) {
  return kernel == Hash128Kernel::AVX2 ? "avx2" : "portable";
}

Hash128 hash128With(Hash128Kernel kernel, std::span<const uint8_t> data) {
  Accumulators acc = kKeys.start;
  const size_t blocks = data.size() / kBlockBytes;
  if (blocks != 0) blocksFunction(kernel)(acc, data.data(), blocks);
  // The last block's whole stripes, then its part stripe zero-padded (the
  // length, folded in last, tells the pads apart); no scramble after them,
  // the fold mixes.
  const std::span<const uint8_t> last = data.subspan(blocks * kBlockBytes);
  const size_t stripes = last.size() / kStripeBytes;
  if (stripes != 0) absorbStripes(acc, last.data(), stripes, kKeys.stripe.data());
  const std::span<const uint8_t> part = last.subspan(stripes * kStripeBytes);
  if (!part.empty()) {
    uint8_t tail[kStripeBytes] = {};
    std::memcpy(tail, part.data(), part.size());
    absorbStripes(acc, tail, 1, kKeys.stripe.data() + stripes);
  }
  return fold(acc, data.size());
}

Hash128 hash128(std::span<const uint8_t> data) {
  return hash128With(fastestKernel(), data);
}

}  // namespace annrt::runtime
