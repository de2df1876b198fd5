// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of the
// compilation cache's files: a warm start reads tens of MB of payload and
// checks it before use, so it runs on the CPU's CRC instructions when there
// are any (SSE4.2 on x86-64, the ARMv8 CRC32 extension on aarch64, both
// detected at run time) and on a slicing-by-8 table otherwise. It catches
// every burst of up to 32 flipped bits, so any one damaged byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace annrt::runtime {

// Extends `crc` (0 to start) over `data`; crc32c(crc32c(0, a), b) equals the
// CRC of a followed by b.
uint32_t crc32c(uint32_t crc, std::span<const uint8_t> data);

// The same with the portable table only (for tests and the speed figure).
uint32_t crc32cPortable(uint32_t crc, std::span<const uint8_t> data);

// Which implementation crc32c uses on this CPU: "sse4.2", "armv8-crc" or
// "table".
const char* crc32cImplementation();

}  // namespace annrt::runtime
