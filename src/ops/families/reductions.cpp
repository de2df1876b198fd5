// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// REDUCE_SUM, REDUCE_PROD (float), REDUCE_MAX, REDUCE_MIN (float and quant8;
// quant8 signed since level 4), REDUCE_ALL, REDUCE_ANY (bool8), all level 3:
// fold the axes given by a 1-D TENSOR_INT32 input, keeping them as size 1 when
// the BOOL keep_dims input is true. Max/min of quantized data work on the raw
// values: the output shares the input's scale and zero point.
#include <algorithm>
#include <limits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/reduction.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::reductions {
namespace {

enum class Reducer { SUM, PROD, MAX, MIN, ALL, ANY };

constexpr uint32_t kInput = 0;
constexpr uint32_t kKeepDims = 2;
constexpr uint32_t kMaxRank = 4;  // at validation and again at run time, as AOSP's Reduce.cpp

template <Reducer kReducer>
Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kInput);
  if constexpr (kReducer == Reducer::SUM || kReducer == Reducer::PROD) {
    ANNRT_RETURN_IF_ERROR(
        validateTypeIn(type, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16}, "input"));
  } else if constexpr (kReducer == Reducer::MAX || kReducer == Reducer::MIN) {
    ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypes, "input"));
  } else {
    ANNRT_RETURN_IF_ERROR(validateTypeIn(type, {OperandType::TENSOR_BOOL8}, "input"));
  }
  ANNRT_RETURN_IF_ERROR(
      validateInputTypes(context, {type, OperandType::TENSOR_INT32, OperandType::BOOL}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(1), 1, "axes"));
  return validateRankAtMost(context.inputShape(kInput), kMaxRank, "input");
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const ReductionPlan plan, reductionPlanFromInputs(context, kMaxRank));
  return setReducedOutputShape(context, plan, context.scalar<uint8_t>(kKeepDims) != 0);
}

// The identity element and the fold of one reducer, on an accumulator of type
// Acc (float for float types, so that float16 rounds once at the end).
template <Reducer kReducer, typename Acc>
struct Fold {
  static Acc identity() {
    switch (kReducer) {
      case Reducer::SUM: return Acc{0};
      case Reducer::PROD: return Acc{1};
      case Reducer::MAX: return std::numeric_limits<Acc>::lowest();
      case Reducer::MIN: return std::numeric_limits<Acc>::max();
      case Reducer::ALL: return Acc{1};
      case Reducer::ANY: return Acc{0};
    }
    return Acc{0};
  }

  static Acc apply(Acc acc, Acc v) {
    switch (kReducer) {
      case Reducer::SUM: return acc + v;
      // A zero factor wins even against infinity (0 * inf would be NaN).
      case Reducer::PROD: return acc == Acc{0} || v == Acc{0} ? Acc{0} : acc * v;
      case Reducer::MAX: return std::max(acc, v);
      case Reducer::MIN: return std::min(acc, v);
      case Reducer::ALL: return static_cast<Acc>(acc != 0 && v != 0);
      case Reducer::ANY: return static_cast<Acc>(acc != 0 || v != 0);
    }
    return acc;
  }
};

template <Reducer kReducer, typename T>
void reduce(const ReductionPlan& plan, const T* in, T* out) {
  using Acc = std::conditional_t<kComputesInFloat<T>, float, T>;
  using F = Fold<kReducer, Acc>;
  std::vector<Acc> acc(plan.outputCount, F::identity());
  reduceInto(plan, in, acc.data(), [](Acc a, T v) { return F::apply(a, static_cast<Acc>(v)); });
  std::transform(acc.begin(), acc.end(), out, [](Acc a) { return static_cast<T>(a); });
}

template <Reducer kReducer>
Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const ReductionPlan plan, reductionPlanFromInputs(context, kMaxRank));
  const OperandType type = context.inputType(kInput);
  if (type == OperandType::TENSOR_BOOL8) {
    reduce<kReducer>(plan, context.input<uint8_t>(kInput), context.output<uint8_t>(0));
    return {};
  }
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        reduce<kReducer>(plan, context.input<T>(kInput), context.output<T>(0));
        return {};
      });
}

template <Reducer kReducer>
constexpr OperationRegistration registration(OperationType type, const char* name) {
  return {.type = type,
          .name = name,
          .validate = validate<kReducer>,
          .prepare = prepare,
          .execute = execute<kReducer>};
}

constexpr OperationRegistration kOperations[] = {
    registration<Reducer::ALL>(OperationType::REDUCE_ALL, "REDUCE_ALL"),
    registration<Reducer::ANY>(OperationType::REDUCE_ANY, "REDUCE_ANY"),
    registration<Reducer::MAX>(OperationType::REDUCE_MAX, "REDUCE_MAX"),
    registration<Reducer::MIN>(OperationType::REDUCE_MIN, "REDUCE_MIN"),
    registration<Reducer::PROD>(OperationType::REDUCE_PROD, "REDUCE_PROD"),
    registration<Reducer::SUM>(OperationType::REDUCE_SUM, "REDUCE_SUM"),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::reductions
