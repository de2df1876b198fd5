// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// TOPK_V2 (level 3; quant8 signed since level 4): the k largest values of each
// row (last dimension) in descending order, and their indices. Equal values
// are ordered as the reference orders them: the higher index first.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::topk_v2 {
namespace {

constexpr uint32_t kInput = 0;
constexpr uint32_t kK = 1;
constexpr uint32_t kValues = 0;
constexpr uint32_t kIndices = 1;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kInput);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypesWithInt32, "input"));
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {type, OperandType::INT32}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type, OperandType::TENSOR_INT32}));
  return validateSameQuantization(context.inputShape(kInput), context.outputShape(kValues));
}

Result<void> prepare(ExecutionContext& context) {
  const std::vector<uint32_t>& in = context.inputShape(kInput).dims;
  ANNRT_CHECK(!in.empty(), "input must have rank at least 1");
  const int32_t k = context.scalar<int32_t>(kK);
  ANNRT_CHECK(k > 0 && static_cast<uint32_t>(k) <= in.back(), "k = {} is not in [1, {}]", k,
              in.back());
  Shape values = context.outputShape(kValues);
  values.dims = in;
  values.dims.back() = static_cast<uint32_t>(k);
  ANNRT_RETURN_IF_ERROR(context.setOutputShape(kValues, values));
  Shape indices = context.outputShape(kIndices);
  indices.dims = values.dims;
  return context.setOutputShape(kIndices, indices);
}

template <typename T>
void topK(const T* in, size_t rows, uint32_t rowSize, uint32_t k, T* values, int32_t* indices) {
  std::vector<int32_t> order(rowSize);
  for (size_t row = 0; row < rows; ++row, in += rowSize) {
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) {
      return in[a] > in[b] || (in[a] == in[b] && a > b);
    });
    for (uint32_t i = 0; i < k; ++i) {
      *values++ = in[order[i]];
      *indices++ = order[i];
    }
  }
}

Result<void> execute(ExecutionContext& context) {
  const Shape& input = context.inputShape(kInput);
  const uint32_t rowSize = input.dims.back();
  const size_t rows = elementCount(input) / rowSize;
  const auto k = static_cast<uint32_t>(context.scalar<int32_t>(kK));
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      input.type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        topK(context.input<T>(kInput), rows, rowSize, k, context.output<T>(kValues),
             context.output<int32_t>(kIndices));
        return {};
      });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::TOPK_V2,
     .name = "TOPK_V2",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::topk_v2
