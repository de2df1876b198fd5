// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Output tensor bytes as real numbers, for comparing two runs: floats as is,
// quantized types dequantized ((q - zeroPoint) * scale, when scale > 0),
// integers and booleans as their values.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"
#include "tensor_desc.h"

namespace annrt::tools {

Result<std::vector<double>> tensorValues(const TensorDesc& desc, std::span<const uint8_t> bytes);

}  // namespace annrt::tools
