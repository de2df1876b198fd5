// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "tensor_values.h"

#include <android/NeuralNetworks.h>

#include <cstring>

#include "input_data.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

template <typename T>
std::vector<double> decode(std::span<const uint8_t> bytes, double scale, int32_t zeroPoint) {
  std::vector<double> values(bytes.size() / sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    values[i] =
        scale > 0 ? (static_cast<double>(value) - zeroPoint) * scale : static_cast<double>(value);
  }
  return values;
}

std::vector<double> decodeHalf(std::span<const uint8_t> bytes) {
  std::vector<double> values(bytes.size() / 2);
  for (size_t i = 0; i < values.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, bytes.data() + i * 2, 2);
    values[i] = halfToFloat(bits);
  }
  return values;
}

}  // namespace

Result<std::vector<double>> tensorValues(const TensorDesc& desc, std::span<const uint8_t> bytes) {
  const double scale = desc.scale;
  switch (desc.type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_FLOAT32: return decode<float>(bytes, 0, 0);
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_FLOAT16: return decodeHalf(bytes);
    case ANEURALNETWORKS_TENSOR_INT32:
    case ANEURALNETWORKS_INT32: return decode<int32_t>(bytes, scale, desc.zeroPoint);
    case ANEURALNETWORKS_UINT32: return decode<uint32_t>(bytes, 0, 0);
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: return decode<uint8_t>(bytes, scale, desc.zeroPoint);
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM: return decode<int8_t>(bytes, scale, desc.zeroPoint);
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: return decode<int16_t>(bytes, scale, desc.zeroPoint);
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
      return decode<uint16_t>(bytes, scale, desc.zeroPoint);
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_BOOL: return decode<uint8_t>(bytes, 0, 0);
    default:
      return toolError("output {}: cannot compare values of type {}", desc.name,
                       operandTypeName(desc.type));
  }
}

}  // namespace annrt::tools
