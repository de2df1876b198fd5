// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SELECT (level 3): output = condition ? input1 : input2 element-wise. The
// TENSOR_BOOL8 condition and both inputs have one shape (no broadcasting).
// Types: TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM,
// TENSOR_QUANT8_ASYMM_SIGNED (level 4); quantized inputs are requantized to
// the output's scale and zero point.
#include <cstdint>
#include <type_traits>

#include "ops/operation.h"
#include "ops/util/broadcast_kernel.h"
#include "ops/util/elementwise_quant.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::select {
namespace {

// Dims that are known in both shapes agree (unknown rank or dims pass).
Result<void> checkSameShape(const Shape& a, const Shape& b, const char* what) {
  if (a.dims.empty() || b.dims.empty()) return {};
  ANNRT_CHECK(a.dims.size() == b.dims.size(), "{} has shape {}, input0 has {}", what,
              toString(b.dims), toString(a.dims));
  for (size_t i = 0; i < a.dims.size(); ++i) {
    ANNRT_CHECK(a.dims[i] == 0 || b.dims[i] == 0 || a.dims[i] == b.dims[i],
                "{} has shape {}, input0 has {}", what, toString(b.dims), toString(a.dims));
  }
  return {};
}

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(1);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(
      type,
      {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
       OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
      "input1"));
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {OperandType::TENSOR_BOOL8, type, type}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  ANNRT_RETURN_IF_ERROR(checkSameShape(context.inputShape(0), context.inputShape(1), "input1"));
  return checkSameShape(context.inputShape(0), context.inputShape(2), "input2");
}

Result<void> prepare(ExecutionContext& context) {
  const Shape& condition = context.inputShape(0);
  for (uint32_t i = 1; i <= 2; ++i) {
    ANNRT_CHECK(context.inputShape(i).dims == condition.dims,
                "input{} has shape {}, the condition has {}", i,
                toString(context.inputShape(i).dims), toString(condition.dims));
  }
  Shape output = context.outputShape(0);
  output.dims = condition.dims;
  return context.setOutputShape(0, output);
}

template <typename T, typename Fn>
void selectKernel(ExecutionContext& context, Fn&& fn) {
  const std::vector<uint32_t>& dims = context.inputShape(0).dims;
  broadcastApply(dims, context.output<T>(0), fn,
                 BroadcastOperand<uint8_t>{dims, context.input<uint8_t>(0)},
                 BroadcastOperand<T>{dims, context.input<T>(1)},
                 BroadcastOperand<T>{dims, context.input<T>(2)});
}

Result<void> execute(ExecutionContext& context) {
  const OperandType type = context.inputType(1);
  visitElementType(type, [&]<typename T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
      const Shape& a = context.inputShape(1);
      const Shape& b = context.inputShape(2);
      const Shape& out = context.outputShape(0);
      selectKernel<T>(context, [&](uint8_t condition, T x, T y) {
        return condition != 0 ? requantize(x, a, out) : requantize(y, b, out);
      });
    } else {
      selectKernel<T>(context, [](uint8_t condition, T x, T y) { return condition != 0 ? x : y; });
    }
  });
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::SELECT,
     .name = "SELECT",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::select
