// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of the
// compilation cache's files: a warm start reads tens of MB of payload and
// checks it before use, so it runs on the fastest instructions the CPU has
// (detected at run time). It catches every burst of up to 32 flipped bits,
// so any one damaged byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace annrt::runtime {

// Extends `crc` (0 to start) over `data`; crc32c(crc32c(0, a), b) equals the
// CRC of a followed by b. Runs the fastest kernel this CPU has.
uint32_t crc32c(uint32_t crc, std::span<const uint8_t> data);

// The CRC of a followed by b, from crc32c(0, a), crc32c(0, b) and b's length.
uint32_t crc32cCombine(uint32_t crcA, uint32_t crcB, uint64_t lengthB);

// crc32c(0, data), shared with a thread of its own from kSharedPassBytes
// (side_thread.h).
uint32_t crc32cSplit(std::span<const uint8_t> data);

// The ways of computing it: a slicing-by-8 table (everywhere), the CPU's CRC
// instruction in three streams (SSE4.2, ARMv8 CRC32), and carry-less
// multiplication folding 256 bytes a step, in 32-byte registers (AVX2 with
// VPCLMULQDQ; measured faster than the streams on Zen 3) or 64-byte ones
// (AVX-512 with VPCLMULQDQ; faster on Zen 5), docs/caching.md.
enum class Crc32cKernel { TABLE, CRC_INSTRUCTION, CARRYLESS_FOLDING_256, CARRYLESS_FOLDING };

// The kernels this CPU can run, slowest first (TABLE always).
std::vector<Crc32cKernel> crc32cKernelsOnThisCpu();
// crc32c with `kernel`, which must be one of crc32cKernelsOnThisCpu().
uint32_t crc32cWith(Crc32cKernel kernel, uint32_t crc, std::span<const uint8_t> data);
// "table", "sse4.2", "armv8-crc", "vpclmulqdq-avx2" or "vpclmulqdq-avx512".
const char* crc32cKernelName(Crc32cKernel kernel);

// The same with the portable table only.
uint32_t crc32cPortable(uint32_t crc, std::span<const uint8_t> data);

// The name of the kernel crc32c uses on this CPU.
const char* crc32cImplementation();

}  // namespace annrt::runtime
