// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/supported_operations_entry.h"

namespace annrt::runtime {
namespace {

constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = 8;  // version, operation count

void putU32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint32_t getU32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

std::vector<uint8_t> encodeSupportedOperations(const std::vector<bool>& flags) {
  std::vector<uint8_t> out;
  out.reserve(kHeaderBytes + flags.size());
  putU32(out, kFormatVersion);
  putU32(out, static_cast<uint32_t>(flags.size()));
  for (bool flag : flags) out.push_back(flag ? 1 : 0);
  return out;
}

Result<std::vector<bool>> decodeSupportedOperations(std::span<const uint8_t> payload,
                                                    size_t operationCount) {
  ANNRT_CHECK(payload.size() >= kHeaderBytes, "{} bytes, too short for the entry's header",
              payload.size());
  const uint32_t version = getU32(payload.data());
  ANNRT_CHECK(version == kFormatVersion, "format version {}, not {}", version, kFormatVersion);
  const uint32_t count = getU32(payload.data() + 4);
  ANNRT_CHECK(count == operationCount, "{} operations, but the model has {}", count,
              operationCount);
  ANNRT_CHECK(payload.size() - kHeaderBytes == count, "{} flag bytes for {} operations",
              payload.size() - kHeaderBytes, count);
  std::vector<bool> flags(count);
  for (size_t i = 0; i < count; ++i) {
    const uint8_t flag = payload[kHeaderBytes + i];
    ANNRT_CHECK(flag <= 1, "operation {}'s flag is {}, not 0 or 1", i, flag);
    flags[i] = flag == 1;
  }
  return flags;
}

}  // namespace annrt::runtime
