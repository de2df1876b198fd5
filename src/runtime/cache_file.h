// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The format of one compilation cache file (docs/caching.md): a 256-byte
// header of fixed-size little-endian fields, then the payload, which starts
// at the 64-byte aligned offset 256.
//
//   0  magic "ANNRTCC\0"          96  device name (64 bytes)
//   8  format version (u32)      160  device version (64 bytes)
//  12  header checksum (u32)     224  reserved, zero (32 bytes)
//  16  payload offset (u32)      256  payload
//  20  payload checksum (u32)
//  24  payload size (u64)
//  32  key (32 bytes)
//  64  annrt version (32 bytes)
//
// Strings are NUL-padded (at most field size - 1 bytes, zeros after the
// first NUL). Checksums are CRC-32C; the header's covers its 256 bytes with
// its own field zero. The file is exactly payload offset + payload size.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/result.h"
#include "runtime/compilation_cache.h"

namespace annrt::runtime {

inline constexpr uint32_t kCacheFormatVersion = 1;
inline constexpr size_t kCacheHeaderSize = 256;
// Entries are named <64 hex digits of the key>.annrtcc.
inline constexpr std::string_view kCacheEntrySuffix = ".annrtcc";

// annrt's version (the CMake project's), written into every file and key.
const char* annrtVersion();

struct CacheHeader {
  CacheKey key{};
  std::string annrtVersion, deviceName, deviceVersion;
  uint64_t payloadOffset = kCacheHeaderSize;
  uint64_t payloadSize = 0;
  uint32_t payloadChecksum = 0;
};

using CacheHeaderBytes = std::array<uint8_t, kCacheHeaderSize>;

// The header of an entry holding `payload`, with this annrt's version; an
// error when a name does not fit its field.
Result<CacheHeaderBytes> encodeCacheHeader(const CacheKey& key, std::string_view deviceName,
                                           std::string_view deviceVersion,
                                           std::span<const uint8_t> payload);
// The same for a payload of `payloadSize` bytes whose CRC-32C is
// `payloadChecksum` (a payload written as a stream).
Result<CacheHeaderBytes> encodeCacheHeader(const CacheKey& key, std::string_view deviceName,
                                           std::string_view deviceVersion, uint64_t payloadSize,
                                           uint32_t payloadChecksum);

// Checks everything the header says about itself and the file: magic,
// format version, header checksum, field contents, and that the file has
// exactly the payload's size. `file` is the whole file (at least the header).
Result<CacheHeader> parseCacheHeader(std::span<const uint8_t> file);

// The payload of `file` once its checksum matches the header's.
Result<std::span<const uint8_t>> checkedPayload(std::span<const uint8_t> file,
                                                const CacheHeader& header);

// The header checksum of `header` (its checksum field taken as zero).
uint32_t cacheHeaderChecksum(std::span<const uint8_t, kCacheHeaderSize> header);

std::string entryFileName(const CacheKey& key);
// The key an entry's file name stands for; nullopt for any other name.
std::optional<CacheKey> keyFromFileName(std::string_view name);

}  // namespace annrt::runtime
