// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/device.h"

#include <new>

namespace annrt {

PerformanceInfo Capabilities::forOperandType(OperandType type) const {
  auto it = operandPerformance.find(type);
  return it != operandPerformance.end() ? it->second : defaultPerformance;
}

bool BytesCacheWriter::write(std::span<const uint8_t> data) {
  try {
    bytes.insert(bytes.end(), data.begin(), data.end());
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

Result<void> PreparedModel::serialize(CacheWriter& /*out*/) const {
  return makeError(ErrorCode::OP_FAILED, "this device does not serialize prepared models");
}

// NOLINTBEGIN(performance-unnecessary-value-param): the overrides keep the model.
Result<std::shared_ptr<PreparedModel>> Device::prepareModelFromCache(
    std::shared_ptr<const Model> /*model*/, const CachedBytes& /*cached*/,
    const PrepareOptions& /*options*/) {
  return makeError(ErrorCode::OP_FAILED, "device {} does not prepare models from a cache", name());
}
// NOLINTEND(performance-unnecessary-value-param)

}  // namespace annrt
