// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/cache_file.h"

#include <algorithm>
#include <cstring>

#include "runtime/crc32c.h"

#ifndef ANNRT_VERSION
#error "ANNRT_VERSION must be defined (src/CMakeLists.txt sets it from the project's version)"
#endif

namespace annrt::runtime {
namespace {

constexpr uint8_t kMagic[8] = {'A', 'N', 'N', 'R', 'T', 'C', 'C', 0};

// Field offsets and sizes (the table in cache_file.h).
constexpr size_t kFormatVersionAt = 8, kHeaderChecksumAt = 12, kPayloadOffsetAt = 16,
                 kPayloadChecksumAt = 20, kPayloadSizeAt = 24, kKeyAt = 32;
struct TextField {
  size_t at, size;
  const char* name;
};
constexpr TextField kAnnrtVersionField{64, 32, "annrt version"};
constexpr TextField kDeviceNameField{96, 64, "device name"};
constexpr TextField kDeviceVersionField{160, 64, "device version"};
constexpr size_t kReservedAt = 224;

void put(uint8_t* out, uint64_t value, size_t size) {
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t get(const uint8_t* in, size_t size) {
  uint64_t value = 0;
  for (size_t i = size; i > 0; --i) value = (value << 8) | in[i - 1];
  return value;
}

Result<void> putText(CacheHeaderBytes& header, const TextField& field, std::string_view text) {
  ANNRT_CHECK(text.size() < field.size && text.find('\0') == std::string_view::npos,
              "the {} '{}' does not fit a cache file's {}-byte field", field.name, text,
              field.size - 1);
  std::memcpy(header.data() + field.at, text.data(), text.size());
  return {};
}

// A NUL-terminated string whose padding is all zeros.
Result<std::string> getText(std::span<const uint8_t> header, const TextField& field) {
  const auto bytes = header.subspan(field.at, field.size);
  const auto nul = std::find(bytes.begin(), bytes.end(), uint8_t{0});
  ANNRT_CHECK(nul != bytes.end() && std::all_of(nul, bytes.end(), [](uint8_t b) { return b == 0; }),
              "the {} field is malformed", field.name);
  return std::string(bytes.begin(), nul);
}

constexpr char kHexDigits[] = "0123456789abcdef";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case is not a name annrt writes
}

}  // namespace

const char* annrtVersion() {
  return ANNRT_VERSION;
}

std::string toHex(const CacheKey& key) {
  std::string hex;
  hex.reserve(2 * key.size());
  for (uint8_t b : key) {
    hex += kHexDigits[b >> 4];
    hex += kHexDigits[b & 15];
  }
  return hex;
}

uint32_t cacheHeaderChecksum(std::span<const uint8_t, kCacheHeaderSize> header) {
  const uint8_t zero[4] = {};
  uint32_t crc = crc32c(0, header.first(kHeaderChecksumAt));
  crc = crc32c(crc, zero);
  return crc32c(crc, header.subspan(kHeaderChecksumAt + 4));
}

Result<CacheHeaderBytes> encodeCacheHeader(const CacheKey& key, std::string_view deviceName,
                                           std::string_view deviceVersion,
                                           std::span<const uint8_t> payload) {
  return encodeCacheHeader(key, deviceName, deviceVersion, payload.size(), crc32cSplit(payload));
}

Result<CacheHeaderBytes> encodeCacheHeader(const CacheKey& key, std::string_view deviceName,
                                           std::string_view deviceVersion, uint64_t payloadSize,
                                           uint32_t payloadChecksum) {
  CacheHeaderBytes header{};
  std::memcpy(header.data(), kMagic, sizeof(kMagic));
  put(&header[kFormatVersionAt], kCacheFormatVersion, 4);
  put(&header[kPayloadOffsetAt], kCacheHeaderSize, 4);
  put(&header[kPayloadChecksumAt], payloadChecksum, 4);
  put(&header[kPayloadSizeAt], payloadSize, 8);
  std::memcpy(&header[kKeyAt], key.data(), key.size());
  ANNRT_RETURN_IF_ERROR(putText(header, kAnnrtVersionField, annrtVersion()));
  ANNRT_RETURN_IF_ERROR(putText(header, kDeviceNameField, deviceName));
  ANNRT_RETURN_IF_ERROR(putText(header, kDeviceVersionField, deviceVersion));
  put(&header[kHeaderChecksumAt], cacheHeaderChecksum(header), 4);
  return header;
}

Result<CacheHeader> parseCacheHeader(std::span<const uint8_t> file) {
  ANNRT_CHECK(file.size() >= kCacheHeaderSize, "the file has {} bytes, shorter than a header",
              file.size());
  const auto bytes = file.first<kCacheHeaderSize>();
  ANNRT_CHECK(std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin()),
              "not a compilation cache file (bad magic)");
  const auto version = static_cast<uint32_t>(get(&bytes[kFormatVersionAt], 4));
  ANNRT_CHECK(version == kCacheFormatVersion, "format version {}, this annrt reads version {}",
              version, kCacheFormatVersion);
  ANNRT_CHECK(get(&bytes[kHeaderChecksumAt], 4) == cacheHeaderChecksum(bytes),
              "the header checksum does not match");
  ANNRT_CHECK(std::all_of(&bytes[kReservedAt], bytes.data() + bytes.size(),
                          [](uint8_t b) { return b == 0; }),
              "reserved header bytes are not zero");
  CacheHeader header;
  header.payloadOffset = get(&bytes[kPayloadOffsetAt], 4);
  header.payloadChecksum = static_cast<uint32_t>(get(&bytes[kPayloadChecksumAt], 4));
  header.payloadSize = get(&bytes[kPayloadSizeAt], 8);
  ANNRT_CHECK(header.payloadOffset == kCacheHeaderSize, "payload offset {}, expected {}",
              header.payloadOffset, kCacheHeaderSize);
  ANNRT_CHECK(header.payloadSize == file.size() - kCacheHeaderSize,
              "the header gives a {}-byte payload, the file holds {} bytes after the header",
              header.payloadSize, file.size() - kCacheHeaderSize);
  std::memcpy(header.key.data(), &bytes[kKeyAt], header.key.size());
  ANNRT_ASSIGN_OR_RETURN(header.annrtVersion, getText(bytes, kAnnrtVersionField));
  ANNRT_ASSIGN_OR_RETURN(header.deviceName, getText(bytes, kDeviceNameField));
  ANNRT_ASSIGN_OR_RETURN(header.deviceVersion, getText(bytes, kDeviceVersionField));
  return header;
}

Result<std::span<const uint8_t>> checkedPayload(std::span<const uint8_t> file,
                                                const CacheHeader& header) {
  // parseCacheHeader checked that the payload is exactly the rest of the file.
  const auto payload = file.subspan(header.payloadOffset, header.payloadSize);
  ANNRT_CHECK(crc32cSplit(payload) == header.payloadChecksum,
              "the payload checksum does not match (the file is damaged)");
  return payload;
}

std::string entryFileName(const CacheKey& key) {
  return toHex(key) + std::string(kCacheEntrySuffix);
}

std::optional<CacheKey> keyFromFileName(std::string_view name) {
  CacheKey key;
  if (name.size() != 2 * key.size() + kCacheEntrySuffix.size() ||
      !name.ends_with(kCacheEntrySuffix)) {
    return std::nullopt;
  }
  for (size_t i = 0; i < key.size(); ++i) {
    const int high = hexValue(name[2 * i]), low = hexValue(name[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    key[i] = static_cast<uint8_t>(high << 4 | low);
  }
  return key;
}

}  // namespace annrt::runtime
