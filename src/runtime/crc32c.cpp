// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/crc32c.h"

#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
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

uint64_t loadLittleEndian64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));  // not a loop of byte loads (hash128.cpp)
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

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

bool hasHardwareCrc() {
  return __builtin_cpu_supports("sse4.2");
}
constexpr const char* kHardwareName = "sse4.2";
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
constexpr const char* kHardwareName = "armv8-crc";
#endif

using CrcFunction = uint32_t (*)(uint32_t, const uint8_t*, size_t);

CrcFunction chosen() {
#if defined(__x86_64__) || defined(__aarch64__)
  static const CrcFunction function = hasHardwareCrc() ? hardwareCrc : tableCrc;
  return function;
#else
  return tableCrc;
#endif
}

}  // namespace

uint32_t crc32c(uint32_t crc, std::span<const uint8_t> data) {
  return ~chosen()(~crc, data.data(), data.size());
}

uint32_t crc32cPortable(uint32_t crc, std::span<const uint8_t> data) {
  return ~tableCrc(~crc, data.data(), data.size());
}

const char* crc32cImplementation() {
#if defined(__x86_64__) || defined(__aarch64__)
  if (chosen() == hardwareCrc) return kHardwareName;
#endif
  return "table";
}

}  // namespace annrt::runtime
