// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/bbox.h"

#include <cmath>
#include <limits>

#include "ops/util/elementwise_unary.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::bbox {
namespace {

// Every operand type a detection operation reads or writes as float.
template <typename Visitor>
Result<void> dispatchNumeric(OperandType type, Visitor&& visitor) {
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                             OperandType::TENSOR_QUANT16_ASYMM, OperandType::TENSOR_QUANT16_SYMM>(
      type, visitor);
}

template <typename T>
T fromFloat(float value, const Shape& shape) {
  if constexpr (kComputesInFloat<T>) {
    return static_cast<T>(value);
  } else {
    const float q = std::round(value / shape.scale + static_cast<float>(shape.zeroPoint));
    const float lo = static_cast<float>(std::numeric_limits<T>::min());
    const float hi = static_cast<float>(std::numeric_limits<T>::max());
    return static_cast<T>(std::isnan(q) ? hi : std::clamp(q, lo, hi));
  }
}

}  // namespace

OperandType floatScalarType(OperandType tensorType) {
  return tensorType == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

float floatScalar(const ExecutionContext& context, uint32_t index) {
  if (context.inputType(index) == OperandType::FLOAT16) {
    return static_cast<float>(context.scalar<Float16>(index));
  }
  return context.scalar<float>(index);
}

Result<std::vector<float>> inputAsFloat(const ExecutionContext& context, uint32_t index) {
  const Shape& shape = context.inputShape(index);
  std::vector<float> values(elementCount(shape));
  ANNRT_RETURN_IF_ERROR(dispatchNumeric(shape.type, [&](auto tag) -> Result<void> {
    using T = typename decltype(tag)::type;
    const T* data = context.input<T>(index);
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (kComputesInFloat<T>) {
        values[i] = static_cast<float>(data[i]);
      } else {
        values[i] = dequantize(data[i], shape.scale, shape.zeroPoint);
      }
    }
    return {};
  }));
  return values;
}

Result<void> storeFloat(std::span<const float> values, ExecutionContext& context, uint32_t index) {
  const Shape& shape = context.outputShape(index);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, values.size() == elementCount(shape),
                   "{} values for an output of shape {}", values.size(), toString(shape.dims));
  return dispatchNumeric(shape.type, [&](auto tag) -> Result<void> {
    using T = typename decltype(tag)::type;
    T* data = context.output<T>(index);
    for (size_t i = 0; i < values.size(); ++i) data[i] = fromFloat<T>(values[i], shape);
    return {};
  });
}

Result<void> validateBoxQuantization(const Shape& shape, const char* what) {
  if (!isQuantizedType(shape.type)) return {};
  ANNRT_CHECK(shape.scale == kBoxScale && shape.zeroPoint == 0,
              "{} must have scale 0.125 and zero point 0, got {} and {}", what, shape.scale,
              shape.zeroPoint);
  return {};
}

Result<void> validateSignature(const ValidationContext& context,
                               std::initializer_list<OperandType> inputs,
                               std::initializer_list<OperandType> outputs) {
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, inputs));
  return validateOutputTypes(context, outputs);
}

float intersectionOverUnion(const float* a, const float* b) {
  const float areaA = (a[2] - a[0]) * (a[3] - a[1]);
  const float areaB = (b[2] - b[0]) * (b[3] - b[1]);
  const float width = std::max(std::min(a[2], b[2]) - std::max(a[0], b[0]), 0.0f);
  const float height = std::max(std::min(a[3], b[3]) - std::max(a[1], b[1]), 0.0f);
  const float intersection = width * height;
  return intersection / (areaA + areaB - intersection);
}

Box transformBox(const float* box, const float* delta, float imageHeight, float imageWidth) {
  const float width = box[2] - box[0];
  const float height = box[3] - box[1];
  const float centerX = (box[0] + box[2]) / 2 + delta[0] * width;
  const float centerY = (box[1] + box[3]) / 2 + delta[1] * height;
  const float newWidth = std::exp(delta[2]) * width;
  const float newHeight = std::exp(delta[3]) * height;
  auto clip = [](float value, float limit) { return std::min(std::max(value, 0.0f), limit); };
  return {clip(centerX - newWidth / 2, imageWidth), clip(centerY - newHeight / 2, imageHeight),
          clip(centerX + newWidth / 2, imageWidth), clip(centerY + newHeight / 2, imageHeight)};
}

}  // namespace annrt::ops::bbox
