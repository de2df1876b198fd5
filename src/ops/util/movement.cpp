// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/movement.h"

#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops {

Result<void> validateSameQuantization(const Shape& input, const Shape& output) {
  if (!isQuant8Tensor(output.type)) return {};
  ANNRT_CHECK(input.scale == output.scale && input.zeroPoint == output.zeroPoint,
              "output scale {} and zero point {} differ from the input's {} and {}", output.scale,
              output.zeroPoint, input.scale, input.zeroPoint);
  return {};
}

Result<void> validateMovedTensor(const ValidationContext& context, uint32_t dataIndex,
                                 std::initializer_list<OperandType> types, uint32_t maxRank) {
  ANNRT_CHECK(dataIndex < context.inputCount(), "missing input {}", dataIndex);
  ANNRT_CHECK(context.outputCount() >= 1, "missing output");
  ANNRT_CHECK(!context.isOmittedInput(dataIndex), "input {} is omitted", dataIndex);
  const Shape& input = context.inputShape(dataIndex);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(input.type, types, "input"));
  if (maxRank != 0) ANNRT_RETURN_IF_ERROR(validateRankAtMost(input, maxRank, "input"));
  const Shape& output = context.outputShape(0);
  ANNRT_CHECK(output.type == input.type, "output type {} differs from input type {}",
              operandTypeName(output.type), operandTypeName(input.type));
  return validateSameQuantization(input, output);
}

Result<void> validateInputType(const ValidationContext& context, uint32_t index, OperandType type,
                               const char* what) {
  ANNRT_CHECK(index < context.inputCount(), "missing {} (input {})", what, index);
  ANNRT_CHECK(context.inputType(index) == type, "{} (input {}) has type {}, expected {}", what,
              index, operandTypeName(context.inputType(index)), operandTypeName(type));
  return {};
}

const int32_t* constantInt32(const ValidationContext& context, uint32_t index) {
  if (index >= context.inputCount() || context.inputType(index) != OperandType::INT32) {
    return nullptr;
  }
  return static_cast<const int32_t*>(context.constantInput(index));
}

Result<std::vector<int32_t>> int32Vector(const ExecutionContext& context, uint32_t index,
                                         int64_t length) {
  const Shape& shape = context.inputShape(index);
  ANNRT_CHECK(shape.type == OperandType::TENSOR_INT32, "input {} has type {}, not TENSOR_INT32",
              index, operandTypeName(shape.type));
  ANNRT_CHECK(rank(shape) == 1, "input {} has rank {}, expected 1", index, rank(shape));
  ANNRT_CHECK(length < 0 || shape.dims[0] == length, "input {} has {} values, expected {}", index,
              shape.dims[0], length);
  const int32_t* data = context.input<int32_t>(index);
  ANNRT_CHECK(data != nullptr || shape.dims[0] == 0, "input {} has no data", index);
  return std::vector<int32_t>(data, data + shape.dims[0]);
}

bool isNchw(const ExecutionContext& context, uint32_t index) {
  return index < context.inputCount() && !context.isOmittedInput(index) &&
         context.scalar<uint8_t>(index) != 0;
}

Result<void> validateLayoutInput(const ValidationContext& context, uint32_t index) {
  if (index >= context.inputCount() || context.isOmittedInput(index)) return {};
  ANNRT_CHECK(context.inputType(index) == OperandType::BOOL,
              "layout input {} has type {}, not BOOL", index,
              operandTypeName(context.inputType(index)));
  return {};
}

std::array<uint8_t, 4> quant8Element(const Shape& shape, int32_t value) {
  std::array<uint8_t, 4> bytes{};
  if (shape.type == OperandType::TENSOR_QUANT8_ASYMM) {
    bytes[0] = saturateCast<uint8_t>(value);
  } else if (shape.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    bytes[0] = static_cast<uint8_t>(saturateCast<int8_t>(value));
  }
  return bytes;
}

std::vector<size_t> rowMajorStrides(const std::vector<uint32_t>& dims) {
  std::vector<size_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

Result<uint32_t> checkedDim(uint64_t value) {
  ANNRT_CHECK(value <= UINT32_MAX, "output dimension {} does not fit in 32 bits", value);
  return static_cast<uint32_t>(value);
}

Result<void> setOutputDims(ExecutionContext& context, std::vector<uint32_t> dims, uint32_t index) {
  Shape output = context.outputShape(index);
  output.dims = std::move(dims);
  ANNRT_CHECK(elementCount(output) == 0 || byteSize(output) != 0, "output dims {} are too large",
              toString(output.dims));
  return context.setOutputShape(index, output);
}

}  // namespace annrt::ops
