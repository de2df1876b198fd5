// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "tensor_desc.h"

#include <android/NeuralNetworks.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace annrt::tools {

bool TensorDesc::fullySpecified() const {
  return std::none_of(dims.begin(), dims.end(), [](uint32_t d) { return d == 0; });
}

size_t TensorDesc::elementCount() const {
  size_t count = 1;
  for (uint32_t d : dims) count *= d;
  return count;
}

size_t TensorDesc::byteSize() const {
  return elementCount() * elementSize(type);
}

size_t elementSize(int32_t operandType) {
  switch (operandType) {
    case ANEURALNETWORKS_FLOAT32:
    case ANEURALNETWORKS_INT32:
    case ANEURALNETWORKS_UINT32:
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_TENSOR_INT32: return 4;
    case ANEURALNETWORKS_FLOAT16:
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return 2;
    case ANEURALNETWORKS_BOOL:
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: return 1;
    default: return 0;
  }
}

std::string operandTypeName(int32_t operandType) {
  switch (operandType) {
    case ANEURALNETWORKS_FLOAT32: return "FLOAT32";
    case ANEURALNETWORKS_INT32: return "INT32";
    case ANEURALNETWORKS_UINT32: return "UINT32";
    case ANEURALNETWORKS_TENSOR_FLOAT32: return "TENSOR_FLOAT32";
    case ANEURALNETWORKS_TENSOR_INT32: return "TENSOR_INT32";
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: return "TENSOR_QUANT8_ASYMM";
    case ANEURALNETWORKS_BOOL: return "BOOL";
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: return "TENSOR_QUANT16_SYMM";
    case ANEURALNETWORKS_TENSOR_FLOAT16: return "TENSOR_FLOAT16";
    case ANEURALNETWORKS_TENSOR_BOOL8: return "TENSOR_BOOL8";
    case ANEURALNETWORKS_FLOAT16: return "FLOAT16";
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL: return "TENSOR_QUANT8_SYMM_PER_CHANNEL";
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return "TENSOR_QUANT16_ASYMM";
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM: return "TENSOR_QUANT8_SYMM";
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: return "TENSOR_QUANT8_ASYMM_SIGNED";
    default: return fmt::format("type {}", operandType);
  }
}

std::string formatDims(const std::vector<uint32_t>& dims) {
  return fmt::format("{}", fmt::join(dims, ","));
}

}  // namespace annrt::tools
