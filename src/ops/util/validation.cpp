// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/validation.h"

namespace annrt::ops {
namespace {

Result<void> validateTypes(uint32_t count, std::initializer_list<OperandType> types,
                           const char* what, auto typeAt) {
  ANNRT_CHECK(count == types.size(), "expected {} {}s, got {}", types.size(), what, count);
  uint32_t index = 0;
  for (OperandType expected : types) {
    const OperandType actual = typeAt(index);
    ANNRT_CHECK(actual == expected, "{} {} has type {}, expected {}", what, index,
                operandTypeName(actual), operandTypeName(expected));
    ++index;
  }
  return {};
}

}  // namespace

Result<void> validateInputTypes(const ValidationContext& context,
                                std::initializer_list<OperandType> types) {
  return validateTypes(context.inputCount(), types, "input",
                       [&](uint32_t i) { return context.inputType(i); });
}

Result<void> validateOutputTypes(const ValidationContext& context,
                                 std::initializer_list<OperandType> types) {
  return validateTypes(context.outputCount(), types, "output",
                       [&](uint32_t i) { return context.outputType(i); });
}

Result<void> validateInputCount(const ValidationContext& context, uint32_t min, uint32_t max) {
  ANNRT_CHECK(context.inputCount() >= min && context.inputCount() <= max,
              "expected {} to {} inputs, got {}", min, max, context.inputCount());
  return {};
}

Result<void> validateOutputCount(const ValidationContext& context, uint32_t count) {
  ANNRT_CHECK(context.outputCount() == count, "expected {} outputs, got {}", count,
              context.outputCount());
  return {};
}

Result<void> validateTypeIn(OperandType type, std::initializer_list<OperandType> allowed,
                            const char* what) {
  for (OperandType candidate : allowed) {
    if (candidate == type) return {};
  }
  return makeError(ErrorCode::BAD_DATA, "unsupported {} type {}", what, operandTypeName(type));
}

Result<void> validateRankAtMost(const Shape& shape, uint32_t maxRank, const char* what) {
  ANNRT_CHECK(rank(shape) <= maxRank, "{} has rank {}, at most {} is supported", what, rank(shape),
              maxRank);
  return {};
}

Result<void> validateRank(const Shape& shape, uint32_t expected, const char* what) {
  ANNRT_CHECK(rank(shape) == 0 || rank(shape) == expected, "{} has rank {}, expected {}", what,
              rank(shape), expected);
  return {};
}

bool isFloatTensor(OperandType type) {
  return type == OperandType::TENSOR_FLOAT32 || type == OperandType::TENSOR_FLOAT16;
}

bool isQuant8Tensor(OperandType type) {
  return type == OperandType::TENSOR_QUANT8_ASYMM ||
         type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

}  // namespace annrt::ops
