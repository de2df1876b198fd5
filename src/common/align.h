// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Rounding offsets and sizes up to an alignment, for every layout annrt writes
// (model values, plans sent to a driver host, cache files).
#pragma once

#include <cstdint>

namespace annrt {

// `alignment` need not be a power of two; callers pass a nonzero constant.
constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace annrt
