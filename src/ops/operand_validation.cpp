// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/operand_validation.h"

#include <limits>

#include "common/model_limits.h"

namespace annrt::ops {
namespace {

Result<void> checkNoQuantParams(const Shape& t, const char* name) {
  ANNRT_CHECK(t.scale == 0.0f && t.zeroPoint == 0,
              "{} operand must have scale 0 and zeroPoint 0, got {} and {}", name, t.scale,
              t.zeroPoint);
  return {};
}

Result<void> checkQuantParams(const Shape& t, const char* name, int32_t minZeroPoint,
                              int32_t maxZeroPoint) {
  // As AOSP: only scale > 0 (+inf passes, NaN does not).
  ANNRT_CHECK(t.scale > 0.0f, "{} operand needs a positive scale, got {}", name, t.scale);
  ANNRT_CHECK(t.zeroPoint >= minZeroPoint && t.zeroPoint <= maxZeroPoint,
              "{} operand zeroPoint {} outside [{}, {}]", name, t.zeroPoint, minZeroPoint,
              maxZeroPoint);
  return {};
}

Result<void> checkParams(const Shape& t) {
  const char* name = operandTypeName(t.type);
  switch (t.type) {
    case OperandType::TENSOR_QUANT8_ASYMM: return checkQuantParams(t, name, 0, 255);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return checkQuantParams(t, name, -128, 127);
    case OperandType::TENSOR_QUANT8_SYMM: return checkQuantParams(t, name, 0, 0);
    case OperandType::TENSOR_QUANT16_ASYMM: return checkQuantParams(t, name, 0, 65535);
    case OperandType::TENSOR_QUANT16_SYMM: return checkQuantParams(t, name, 0, 0);
    // Bias tensors carry input*filter scale, other int32 tensors none; AOSP
    // checks neither here, and a negative scale only at finish. OEM operands
    // are opaque.
    case OperandType::TENSOR_INT32:
    case OperandType::OEM_SCALAR:
    case OperandType::TENSOR_OEM_BYTE: return {};
    default: return checkNoQuantParams(t, name);
  }
}

// As AOSP: the known dimensions times the element size must fit in 32 bits
// (unknown dimensions are left out, so a partial shape can still overflow).
Result<void> checkByteSizeFits(const Shape& shape) {
  uint64_t bytes = elementSize(shape.type);
  for (uint32_t d : shape.dims) {
    if (d == 0) continue;
    bytes *= d;
    ANNRT_CHECK(bytes <= std::numeric_limits<uint32_t>::max(),
                "{} operand of dimensions {} exceeds 2^32 - 1 bytes", operandTypeName(shape.type),
                toString(shape.dims));
  }
  return {};
}

}  // namespace

Result<Shape> validateOperandType(const ANeuralNetworksOperandType& t, bool allowExtension) {
  ANNRT_CHECK((t.dimensionCount == 0) == (t.dimensions == nullptr),
              "dimensionCount {} is inconsistent with dimensions {}", t.dimensionCount,
              static_cast<const void*>(t.dimensions));
  ANNRT_CHECK(t.dimensionCount <= limits::kMaxRank, "rank {} is over annrt's limit of {}",
              t.dimensionCount, limits::kMaxRank);
  Shape shape;
  shape.type = static_cast<OperandType>(t.type);
  shape.scale = t.scale;
  shape.zeroPoint = t.zeroPoint;
  shape.dims.assign(t.dimensions, t.dimensions + t.dimensionCount);
  ANNRT_RETURN_IF_ERROR(validateOperandShape(shape, allowExtension));
  return shape;
}

Result<void> validateOperandShape(const Shape& shape, bool allowExtension) {
  const auto code = static_cast<int32_t>(shape.type);
  const bool extension = isExtensionCode(code);
  ANNRT_CHECK(
      isKnownOperandType(code) || code == 10000 || code == 10001 || (extension && allowExtension),
      "unknown operand type {}", code);
  ANNRT_CHECK(shape.dims.size() <= limits::kMaxRank, "rank {} is over annrt's limit of {}",
              shape.dims.size(), limits::kMaxRank);
  if (extension) return {};
  if (!isTensorType(shape.type)) {
    ANNRT_CHECK(shape.dims.empty(), "scalar {} operand must have no dimensions, got {}",
                operandTypeName(shape.type), shape.dims.size());
  }
  ANNRT_RETURN_IF_ERROR(checkByteSizeFits(shape));
  return checkParams(shape);
}

Result<void> validateChannelQuant(const Shape& shape, const ChannelQuant& quant) {
  ANNRT_CHECK(shape.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL,
              "per-channel parameters on a {} operand", operandTypeName(shape.type));
  ANNRT_CHECK(quant.channelDim < shape.dims.size(), "channelDim {} is not below rank {}",
              quant.channelDim, shape.dims.size());
  const uint32_t channels = shape.dims[quant.channelDim];
  ANNRT_CHECK(channels != 0, "channel dimension {} is unspecified", quant.channelDim);
  ANNRT_CHECK(quant.scales.size() == channels, "{} scales given for {} channels",
              quant.scales.size(), channels);
  // AOSP only requires scale > 0: +inf passes, NaN does not.
  for (float scale : quant.scales) {
    ANNRT_CHECK(scale > 0.0f, "per-channel scale {} must be positive", scale);
  }
  return {};
}

}  // namespace annrt::ops
