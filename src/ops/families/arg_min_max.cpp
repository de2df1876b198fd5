// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ARGMAX and ARGMIN (level 3; quant8 signed since level 4): the index of the
// largest / smallest value along one axis, as TENSOR_INT32 with that axis
// removed (a 1-D input gives [1]). Ties go to the lowest index.
#include <vector>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/pooling_common.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::arg_min_max {
namespace {

constexpr uint32_t kInput = 0;
constexpr uint32_t kAxis = 1;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kInput);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypesWithInt32, "input"));
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {type, OperandType::INT32}));
  return validateOutputTypes(context, {OperandType::TENSOR_INT32});
}

Result<uint32_t> axis(const ExecutionContext& context) {
  return resolveAxis(context.scalar<int32_t>(kAxis), rank(context.inputShape(kInput)));
}

Result<void> prepare(ExecutionContext& context) {
  const std::vector<uint32_t>& in = context.inputShape(kInput).dims;
  ANNRT_CHECK(!in.empty(), "input must have rank at least 1");
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axisIndex, axis(context));
  ANNRT_CHECK(in[axisIndex] > 0, "the reduced axis {} of {} is empty", axisIndex, toString(in));
  Shape output = context.outputShape(0);
  output.dims = in;
  output.dims.erase(output.dims.begin() + axisIndex);
  if (output.dims.empty()) output.dims.push_back(1);
  return context.setOutputShape(0, output);
}

template <bool kIsMax, typename T>
void argMinMax(const T* in, int32_t* out, const AxisSplit& split) {
  for (size_t outer = 0; outer < split.outer; ++outer) {
    for (size_t inner = 0; inner < split.inner; ++inner) {
      const T* slice = in + outer * split.axis * split.inner + inner;
      size_t best = 0;
      for (size_t i = 1; i < split.axis; ++i) {
        const T value = slice[i * split.inner];
        const T current = slice[best * split.inner];
        if (kIsMax ? value > current : value < current) best = i;
      }
      *out++ = static_cast<int32_t>(best);
    }
  }
}

template <bool kIsMax>
Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axisIndex, axis(context));
  const Shape& input = context.inputShape(kInput);
  const AxisSplit split = splitAtAxis(input.dims, axisIndex);
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      input.type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        argMinMax<kIsMax>(context.input<T>(kInput), context.output<int32_t>(0), split);
        return {};
      });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::ARGMAX,
     .name = "ARGMAX",
     .validate = validate,
     .prepare = prepare,
     .execute = execute<true>},
    {.type = OperationType::ARGMIN,
     .name = "ARGMIN",
     .validate = validate,
     .prepare = prepare,
     .execute = execute<false>},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::arg_min_max
