// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// MEAN (level 2; float16 since level 3, quant8 signed since level 4): the
// average over the axes given by a 1-D TENSOR_INT32 input (negative and
// repeated axes allowed), keeping reduced axes as size 1 when the INT32
// keep_dims input is positive. Quantized data is averaged on the raw values
// with truncating integer division, as the reference does when input and
// output share quantization; otherwise the average is requantized.
#include <algorithm>
#include <vector>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/quantization.h"
#include "ops/util/reduction.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::mean {
namespace {

constexpr uint32_t kInput = 0;
constexpr uint32_t kKeepDims = 2;
// Known ranks are at most 4 (validate, as AOSP's SimpleMath.cpp); an input of
// unknown rank runs at any rank, as AOSP's MEAN (see reductionPlanFromInputs).
constexpr uint32_t kMaxKnownRank = 4;
constexpr uint32_t kRunTimeMaxRank = 0;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kInput);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypes, "input"));
  ANNRT_RETURN_IF_ERROR(
      validateInputTypes(context, {type, OperandType::TENSOR_INT32, OperandType::INT32}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(1), 1, "axes"));
  return validateRankAtMost(context.inputShape(kInput), kMaxKnownRank, "input");
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const ReductionPlan plan,
                         reductionPlanFromInputs(context, kRunTimeMaxRank));
  return setReducedOutputShape(context, plan, context.scalar<int32_t>(kKeepDims) > 0);
}

// Float16 data is summed in float and rounded once.
template <typename T>
void meanFloat(const ReductionPlan& plan, const T* in, T* out) {
  std::vector<float> sums(plan.outputCount, 0.0f);
  reduceInto(plan, in, sums.data(), [](float acc, T v) { return acc + static_cast<float>(v); });
  for (size_t i = 0; i < plan.outputCount; ++i) {
    out[i] = static_cast<T>(sums[i] / static_cast<float>(plan.reducedCount));
  }
}

template <typename T>
void meanQuant(const ReductionPlan& plan, const T* in, T* out, const Shape& input,
               const Shape& output) {
  std::vector<int64_t> sums(plan.outputCount, 0);
  reduceInto(plan, in, sums.data(), [](int64_t acc, T v) { return acc + v; });
  const auto count = static_cast<int64_t>(plan.reducedCount);
  if (input.scale == output.scale && input.zeroPoint == output.zeroPoint) {
    for (size_t i = 0; i < plan.outputCount; ++i) out[i] = saturateCast<T>(sums[i] / count);
    return;
  }
  // real mean = inScale * (sum / count - inZp); requantized to the output.
  const QuantizedMultiplier m = quantizeMultiplier(static_cast<double>(input.scale) /
                                                   (static_cast<double>(output.scale) * count));
  for (size_t i = 0; i < plan.outputCount; ++i) {
    const int64_t centered =
        std::clamp<int64_t>(sums[i] - count * input.zeroPoint, INT32_MIN, INT32_MAX);
    out[i] = saturateCast<T>(output.zeroPoint +
                             multiplyByQuantizedMultiplier(static_cast<int32_t>(centered), m));
  }
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const ReductionPlan plan,
                         reductionPlanFromInputs(context, kRunTimeMaxRank));
  const Shape& input = context.inputShape(kInput);
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      input.type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        if constexpr (kComputesInFloat<T>) {
          meanFloat(plan, context.input<T>(kInput), context.output<T>(0));
        } else {
          meanQuant(plan, context.input<T>(kInput), context.output<T>(0), input,
                    context.outputShape(0));
        }
        return {};
      });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::MEAN,
     .name = "MEAN",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::mean
