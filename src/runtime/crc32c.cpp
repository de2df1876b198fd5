// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/crc32c.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "runtime/little_endian.h"
#include "runtime/side_thread.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "common/cpu_features.h"
#elif defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace annrt::runtime {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // reflected Castagnoli

// tables[k][b]: the CRC of byte b followed by k zero bytes, so that eight
// bytes are folded with eight lookups and no dependency between them.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables makeTables() {
  Tables tables{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    tables[0][b] = crc;
  }
  for (size_t k = 1; k < 8; ++k) {
    for (size_t b = 0; b < 256; ++b) {
      const uint32_t prev = tables[k - 1][b];
      tables[k][b] = (prev >> 8) ^ tables[0][prev & 0xff];
    }
  }
  return tables;
}

constexpr Tables kTables = makeTables();

uint32_t tableCrc(uint32_t crc, const uint8_t* p, size_t n) {
  for (; n >= 8; n -= 8, p += 8) {
    const uint64_t v = loadLittleEndian64(p) ^ crc;
    crc = kTables[7][v & 0xff] ^ kTables[6][(v >> 8) & 0xff] ^ kTables[5][(v >> 16) & 0xff] ^
          kTables[4][(v >> 24) & 0xff] ^ kTables[3][(v >> 32) & 0xff] ^
          kTables[2][(v >> 40) & 0xff] ^ kTables[1][(v >> 48) & 0xff] ^ kTables[0][v >> 56];
  }
  for (; n > 0; --n, ++p) crc = (crc >> 8) ^ kTables[0][(crc ^ *p) & 0xff];
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t streamCrc(uint32_t crc, const uint8_t* p, size_t n) {
  uint64_t c = crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);  // x86-64 is little-endian
    c = _mm_crc32_u64(c, v);
  }
  auto c32 = static_cast<uint32_t>(c);
  for (; n > 0; --n, ++p) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}

// The CRC instruction takes three cycles and accepts one per cycle, so one
// dependent chain runs at a third of its rate: three chains go through the
// thirds of each block at once and are joined after it. The CRC register is
// linear: over A then B it is A's register advanced over |B| zero bytes,
// xor B's register from zero; advancing over kStreamBytes zeros is a 32x32
// bit matrix, kept as the images of the 32 unit registers.
constexpr size_t kStreamBytes = 4096;

class ZeroAdvance {
 public:
  ZeroAdvance() {
    static constexpr std::array<uint8_t, kStreamBytes> kZeros{};
    for (int bit = 0; bit < 32; ++bit) {
      images_[bit] = streamCrc(uint32_t{1} << bit, kZeros.data(), kZeros.size());
    }
  }
  uint32_t operator()(uint32_t crc) const {
    uint32_t result = 0;
    for (int bit = 0; bit < 32; ++bit) result ^= (crc >> bit & 1) ? images_[bit] : 0;
    return result;
  }

 private:
  std::array<uint32_t, 32> images_{};
};

__attribute__((target("sse4.2"))) uint32_t hardwareCrc(uint32_t crc, const uint8_t* p, size_t n) {
  static const ZeroAdvance advance;
  for (; n >= 3 * kStreamBytes; n -= 3 * kStreamBytes, p += 3 * kStreamBytes) {
    uint64_t c0 = crc, c1 = 0, c2 = 0;
    for (size_t i = 0; i < kStreamBytes; i += 8) {
      uint64_t v0, v1, v2;
      std::memcpy(&v0, p + i, 8);
      std::memcpy(&v1, p + kStreamBytes + i, 8);
      std::memcpy(&v2, p + 2 * kStreamBytes + i, 8);
      c0 = _mm_crc32_u64(c0, v0);
      c1 = _mm_crc32_u64(c1, v1);
      c2 = _mm_crc32_u64(c2, v2);
    }
    crc = advance(advance(static_cast<uint32_t>(c0)) ^ static_cast<uint32_t>(c1)) ^
          static_cast<uint32_t>(c2);
  }
  return streamCrc(crc, p, n);
}

// Carry-less multiplication folding (the method of Intel's "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ"). A 128-bit lane of
// the message, loaded little-endian, holds the coefficients of x^127 (bit 0)
// down to x^0 (bit 127) of its place in the message. Moving a lane D bits
// further on multiplies it by x^D modulo P: its low half L (x^127..x^64) and
// high half H (x^63..x^0) become L * (x^(D+64) mod P) + H * (x^D mod P), at
// most 95 bits, added (xor) into the lane found D bits further. A product of
// two such bit-reversed values comes out one degree low, hence the constants
// x^(D+63) and x^(D-1), bit-reversed into 64 bits. The last lane, congruent
// to the whole message modulo P, is reduced by the CRC instruction.
constexpr uint64_t kNormalPolynomial = 0x1EDC6F41;  // x^32 omitted

constexpr uint64_t xPowerModP(uint32_t n) {
  uint64_t r = 1;
  for (uint32_t i = 0; i < n; ++i) {
    r <<= 1;
    if (r & (uint64_t{1} << 32)) r ^= (uint64_t{1} << 32) | kNormalPolynomial;
  }
  return r;
}

constexpr uint64_t reversed64(uint64_t v) {
  uint64_t r = 0;
  for (int bit = 0; bit < 64; ++bit) r |= ((v >> bit) & 1) << (63 - bit);
  return r;
}

struct FoldConstants {
  uint64_t low;   // multiplies a lane's low half
  uint64_t high;  // multiplies its high half
};

constexpr FoldConstants foldBy(uint32_t bits) {
  return {reversed64(xPowerModP(bits + 63)), reversed64(xPowerModP(bits - 1))};
}

constexpr size_t kFoldBlockBytes = 256;  // four 64-byte registers a step

__attribute__((target("avx512f,vpclmulqdq"))) __m512i foldInto(__m512i lanes, __m512i constants,
                                                               __m512i into) {
  const __m512i low = _mm512_clmulepi64_epi128(lanes, constants, 0x00);
  const __m512i high = _mm512_clmulepi64_epi128(lanes, constants, 0x11);
  return _mm512_ternarylogic_epi64(low, high, into, 0x96);  // a ^ b ^ c
}

__attribute__((target("avx512f,vpclmulqdq"))) __m512i broadcastConstants(FoldConstants k) {
  const auto low = static_cast<int64_t>(k.low), high = static_cast<int64_t>(k.high);
  return _mm512_set_epi64(high, low, high, low, high, low, high, low);
}

// `lane` moved on by the fold `k` and added into `sum`.
__attribute__((target("pclmul"))) __m128i foldLane(__m128i lane, FoldConstants k, __m128i sum) {
  const __m128i constants =
      _mm_set_epi64x(static_cast<int64_t>(k.high), static_cast<int64_t>(k.low));
  sum = _mm_xor_si128(sum, _mm_clmulepi64_si128(lane, constants, 0x00));
  return _mm_xor_si128(sum, _mm_clmulepi64_si128(lane, constants, 0x11));
}

// The CRC of the message whose folded remainder is `lane`, by the CRC
// instruction.
__attribute__((target("sse4.2"))) uint32_t crcOfLane(__m128i lane) {
  const auto low = static_cast<uint64_t>(_mm_cvtsi128_si64(lane));
  const auto high = static_cast<uint64_t>(_mm_extract_epi64(lane, 1));
  return static_cast<uint32_t>(_mm_crc32_u64(_mm_crc32_u64(0, low), high));
}

// The four 128-bit lanes of `v` folded into its last one, reduced by the CRC
// instruction.
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.2"))) uint32_t reduceLanes(__m512i v) {
  static constexpr std::array<FoldConstants, 3> kLaneFolds = {foldBy(384), foldBy(256),
                                                              foldBy(128)};
  alignas(64) std::array<uint8_t, 64> bytes;
  _mm512_store_si512(bytes.data(), v);
  __m128i sum = _mm_load_si128(reinterpret_cast<const __m128i*>(bytes.data() + 48));
  for (size_t i = 0; i < kLaneFolds.size(); ++i) {
    const __m128i lane = _mm_load_si128(reinterpret_cast<const __m128i*>(bytes.data() + 16 * i));
    sum = foldLane(lane, kLaneFolds[i], sum);
  }
  return crcOfLane(sum);
}

__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.2"))) uint32_t foldingCrc(uint32_t crc,
                                                                                const uint8_t* p,
                                                                                size_t n) {
  if (n < kFoldBlockBytes) return streamCrc(crc, p, n);
  static constexpr FoldConstants kBy2048 = foldBy(2048), kBy512 = foldBy(512);
  const __m512i by2048 = broadcastConstants(kBy2048);
  const __m512i by512 = broadcastConstants(kBy512);
  constexpr size_t kSums = kFoldBlockBytes / 64;
  __m512i sums[kSums];
  for (size_t i = 0; i < kSums; ++i) sums[i] = _mm512_loadu_si512(p + 64 * i);
  // The running CRC enters as the message's first 32 bits.
  sums[0] = _mm512_xor_si512(sums[0],
                             _mm512_zextsi128_si512(_mm_cvtsi32_si128(static_cast<int32_t>(crc))));
  p += kFoldBlockBytes;
  n -= kFoldBlockBytes;
  for (; n >= kFoldBlockBytes; n -= kFoldBlockBytes, p += kFoldBlockBytes) {
    for (size_t i = 0; i < kSums; ++i) {
      sums[i] = foldInto(sums[i], by2048, _mm512_loadu_si512(p + 64 * i));
    }
  }
  __m512i sum =
      foldInto(foldInto(foldInto(sums[0], by512, sums[1]), by512, sums[2]), by512, sums[3]);
  for (; n >= 64; n -= 64, p += 64) sum = foldInto(sum, by512, _mm512_loadu_si512(p));
  return streamCrc(reduceLanes(sum), p, n);
}

// The same in AVX2's 32-byte registers (Zen 3 has VPCLMULQDQ but no
// AVX-512): eight registers of two lanes take the 256 bytes of a step.
__attribute__((target("avx2,vpclmulqdq"))) __m256i foldInto256(__m256i lanes, __m256i constants,
                                                               __m256i into) {
  const __m256i low = _mm256_clmulepi64_epi128(lanes, constants, 0x00);
  const __m256i high = _mm256_clmulepi64_epi128(lanes, constants, 0x11);
  return _mm256_xor_si256(_mm256_xor_si256(low, high), into);
}

__attribute__((target("avx2"))) __m256i load(const uint8_t* at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

__attribute__((target("avx2,vpclmulqdq"))) __m256i broadcastConstants256(FoldConstants k) {
  const auto low = static_cast<int64_t>(k.low), high = static_cast<int64_t>(k.high);
  return _mm256_set_epi64x(high, low, high, low);
}

// The first lane of `v` folded into the second, reduced by the CRC
// instruction.
__attribute__((target("avx2,vpclmulqdq,pclmul,sse4.2"))) uint32_t reduceLanes256(__m256i v) {
  return crcOfLane(
      foldLane(_mm256_castsi256_si128(v), foldBy(128), _mm256_extracti128_si256(v, 1)));
}

__attribute__((target("avx2,vpclmulqdq,pclmul,sse4.2"))) uint32_t foldingCrc256(uint32_t crc,
                                                                                const uint8_t* p,
                                                                                size_t n) {
  if (n < kFoldBlockBytes) return streamCrc(crc, p, n);
  const __m256i by2048 = broadcastConstants256(foldBy(2048));
  const __m256i by256 = broadcastConstants256(foldBy(256));
  constexpr size_t kSums = kFoldBlockBytes / 32;
  __m256i sums[kSums];
  for (size_t i = 0; i < kSums; ++i) sums[i] = load(p + 32 * i);
  sums[0] = _mm256_xor_si256(sums[0],
                             _mm256_zextsi128_si256(_mm_cvtsi32_si128(static_cast<int32_t>(crc))));
  p += kFoldBlockBytes;
  n -= kFoldBlockBytes;
  for (; n >= kFoldBlockBytes; n -= kFoldBlockBytes, p += kFoldBlockBytes) {
    for (size_t i = 0; i < kSums; ++i) sums[i] = foldInto256(sums[i], by2048, load(p + 32 * i));
  }
  __m256i sum = sums[0];
  for (size_t i = 1; i < kSums; ++i) sum = foldInto256(sum, by256, sums[i]);
  for (; n >= 32; n -= 32, p += 32) sum = foldInto256(sum, by256, load(p));
  return streamCrc(reduceLanes256(sum), p, n);
}

bool hasFoldingCrc() {
  const CpuFeatures& cpu = cpuFeatures();
  return cpu.avx512f && cpu.vpclmulqdq && cpu.pclmul && cpu.sse42;
}

bool hasFoldingCrc256() {
  const CpuFeatures& cpu = cpuFeatures();
  return cpu.avx2 && cpu.vpclmulqdq && cpu.pclmul && cpu.sse42;
}

bool hasHardwareCrc() {
  return cpuFeatures().sse42;
}
#elif defined(__aarch64__)
// CRC32 is optional in ARMv8.0 (mandatory from 8.1), so it is enabled for
// this function only and used when the kernel reports it. The compilers
// spell the attribute and the instructions' builtins differently, and
// Clang's arm_acle.h offers them only when the whole file targets CRC32.
#if defined(__clang__)
#define ANNRT_CRC_TARGET __attribute__((target("crc")))
#define ANNRT_CRC32C_64 __builtin_arm_crc32cd
#define ANNRT_CRC32C_8 __builtin_arm_crc32cb
#else
#define ANNRT_CRC_TARGET __attribute__((target("+crc")))
#define ANNRT_CRC32C_64 __builtin_aarch64_crc32cx
#define ANNRT_CRC32C_8 __builtin_aarch64_crc32cb
#endif
ANNRT_CRC_TARGET uint32_t hardwareCrc(uint32_t crc, const uint8_t* p, size_t n) {
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);  // little-endian on Linux aarch64
    crc = ANNRT_CRC32C_64(crc, v);
  }
  for (; n > 0; --n, ++p) crc = ANNRT_CRC32C_8(crc, *p);
  return crc;
}

bool hasHardwareCrc() {
  return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
}
#endif

using CrcFunction = uint32_t (*)(uint32_t, const uint8_t*, size_t);

CrcFunction kernelFunction(Crc32cKernel kernel) {
  switch (kernel) {
#if defined(__x86_64__) || defined(__aarch64__)
    case Crc32cKernel::CRC_INSTRUCTION: return hardwareCrc;
#endif
#if defined(__x86_64__)
    case Crc32cKernel::CARRYLESS_FOLDING_256: return foldingCrc256;
    case Crc32cKernel::CARRYLESS_FOLDING: return foldingCrc;
#endif
    default: return tableCrc;
  }
}

Crc32cKernel fastestKernel() {
  static const Crc32cKernel kernel = crc32cKernelsOnThisCpu().back();
  return kernel;
}

}  // namespace

std::vector<Crc32cKernel> crc32cKernelsOnThisCpu() {
  std::vector<Crc32cKernel> kernels = {Crc32cKernel::TABLE};
#if defined(__x86_64__) || defined(__aarch64__)
  if (hasHardwareCrc()) kernels.push_back(Crc32cKernel::CRC_INSTRUCTION);
#endif
#if defined(__x86_64__)
  if (hasFoldingCrc256()) kernels.push_back(Crc32cKernel::CARRYLESS_FOLDING_256);
  if (hasFoldingCrc()) kernels.push_back(Crc32cKernel::CARRYLESS_FOLDING);
#endif
  return kernels;
}

uint32_t crc32cWith(Crc32cKernel kernel, uint32_t crc, std::span<const uint8_t> data) {
  return ~kernelFunction(kernel)(~crc, data.data(), data.size());
}

uint32_t crc32c(uint32_t crc, std::span<const uint8_t> data) {
  return crc32cWith(fastestKernel(), crc, data);
}

namespace {

// a * b modulo P, both bit-reversed as the CRC holds them (x^0 in bit 31).
uint32_t multiplyModP(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t term = uint32_t{1} << 31; term != 0; term >>= 1) {
    if (a & term) product ^= b;
    b = (b & 1) ? (b >> 1) ^ kPolynomial : b >> 1;  // b * x
  }
  return product;
}

// x^(8 * bytes) modulo P, bit-reversed: what `bytes` more bytes multiply a
// CRC by.
uint32_t xPowerOfBytes(uint64_t bytes) {
  uint32_t result = uint32_t{1} << 31;       // x^0
  uint32_t power = uint32_t{1} << (31 - 8);  // x^8
  for (; bytes != 0; bytes >>= 1) {
    if (bytes & 1) result = multiplyModP(result, power);
    power = multiplyModP(power, power);
  }
  return result;
}

}  // namespace

uint32_t crc32cCombine(uint32_t crcA, uint32_t crcB, uint64_t lengthB) {
  return multiplyModP(xPowerOfBytes(lengthB), crcA) ^ crcB;
}

uint32_t crc32cSplit(std::span<const uint8_t> data) {
  if (data.size() < kSharedPassBytes) return crc32c(0, data);
  const size_t count = (data.size() + kSharedPieceBytes - 1) / kSharedPieceBytes;
  std::vector<uint32_t> crcs(count);
  runPiecesBeside(count, data.size(), [&](size_t i) {
    const size_t at = i * kSharedPieceBytes;
    crcs[i] = crc32c(0, data.subspan(at, std::min(kSharedPieceBytes, data.size() - at)));
  });
  // Every piece but the last is whole: one power of x moves a CRC past it.
  const uint32_t pastPiece = xPowerOfBytes(kSharedPieceBytes);
  uint32_t crc = crcs[0];
  for (size_t i = 1; i + 1 < count; ++i) crc = multiplyModP(pastPiece, crc) ^ crcs[i];
  return crc32cCombine(crc, crcs[count - 1], data.size() - (count - 1) * kSharedPieceBytes);
}

uint32_t crc32cPortable(uint32_t crc, std::span<const uint8_t> data) {
  return crc32cWith(Crc32cKernel::TABLE, crc, data);
}

const char* crc32cKernelName(Crc32cKernel kernel) {
  switch (kernel) {
    case Crc32cKernel::TABLE: return "table";
#if defined(__aarch64__)
    case Crc32cKernel::CRC_INSTRUCTION: return "armv8-crc";
#else
    case Crc32cKernel::CRC_INSTRUCTION: return "sse4.2";
#endif
    case Crc32cKernel::CARRYLESS_FOLDING_256: return "vpclmulqdq-avx2";
    case Crc32cKernel::CARRYLESS_FOLDING: return "vpclmulqdq-avx512";
  }
  return "unknown";
}

const char* crc32cImplementation() {
  return crc32cKernelName(fastestKernel());
}

}  // namespace annrt::runtime
