// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The payload of a cache entry holding which operations of a model a device
// supports (SupportedOperations): a format version, the operation count and
// one byte (0 or 1) per operation. Read back from an untrusted file, so
// decoding checks every field against the model it is meant for.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"

namespace annrt::runtime {

std::vector<uint8_t> encodeSupportedOperations(const std::vector<bool>& flags);

// The flags, or an error saying what does not fit a model of
// `operationCount` operations.
Result<std::vector<bool>> decodeSupportedOperations(std::span<const uint8_t> payload,
                                                    size_t operationCount);

}  // namespace annrt::runtime
