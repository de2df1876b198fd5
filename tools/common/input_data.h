// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Input tensor contents: deterministic pseudo-random values in the ranges
// benchmark_model uses (float [-0.5, 0.5), int32 [0, 99], uint8 [0, 254],
// int8 [-127, 127], bool {0, 1}), or raw bytes read from a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "tensor_desc.h"

namespace annrt::tools {

// The same (desc, seed) always gives the same bytes. Errors for types the
// tools cannot fill.
Result<std::vector<uint8_t>> randomTensorData(const TensorDesc& desc, uint64_t seed);

// The whole file, which must be exactly desc.byteSize() bytes.
Result<std::vector<uint8_t>> readTensorFile(const std::string& path, const TensorDesc& desc);

// IEEE binary16 bits of `value` (round to nearest even).
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

}  // namespace annrt::tools
