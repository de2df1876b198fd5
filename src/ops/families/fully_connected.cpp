// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// FULLY_CONNECTED: output[b, u] = act(sum_i input[b, i] * weights[u, i] +
// bias[u]). The input (rank 2 to 4) is flattened to [batch_size, input_size]
// where input_size is the weights' second dimension. Float32, float16 (level
// 3+), quant8 asymm, quant8 asymm signed (level 4+). It is a 1x1 convolution,
// so it runs on the shared convolution kernel.
#include "ops/operation.h"
#include "ops/util/convolution.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::fully_connected {
namespace {

constexpr uint32_t kActivation = 3;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 4, 4));
  ANNRT_RETURN_IF_ERROR(conv::validateTensors(context, std::nullopt));
  ANNRT_CHECK(context.inputType(kActivation) == OperandType::INT32,
              "activation has type {}, expected INT32",
              operandTypeName(context.inputType(kActivation)));
  const Shape& input = context.inputShape(conv::kInput);
  ANNRT_CHECK(rank(input) == 0 || (rank(input) >= 2 && rank(input) <= 4),
              "input has rank {}, expected 2 to 4", rank(input));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(conv::kFilter), 2, "weights"));
  return validateRank(context.inputShape(conv::kBias), 1, "bias");
}

// The op as a 1x1 convolution of a [batch_size, 1, 1, input_size] image.
Result<conv::Geometry> geometry(const ExecutionContext& context) {
  const Shape& input = context.inputShape(conv::kInput);
  const Shape& weights = context.inputShape(conv::kFilter);
  ANNRT_CHECK(rank(input) >= 2 && rank(input) <= 4, "input has rank {}, expected 2 to 4",
              rank(input));
  ANNRT_CHECK(rank(weights) == 2, "weights have rank {}, expected 2", rank(weights));
  const uint32_t units = weights.dims[0];
  const uint32_t inputSize = weights.dims[1];
  ANNRT_CHECK(units > 0 && inputSize > 0, "weights shape {} has an empty dimension",
              toString(weights.dims));
  const size_t elements = elementCount(input);
  ANNRT_CHECK(elements % inputSize == 0, "input {} does not split into rows of {}",
              toString(input.dims), inputSize);
  conv::Geometry g;
  const auto batches = static_cast<uint32_t>(elements / inputSize);
  g.input = {batches, 1, 1, inputSize};
  g.output = {batches, 1, 1, units};
  g.ocStride = inputSize;
  g.tapStride = inputSize;
  return g;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(conv::Geometry g, geometry(context));
  ANNRT_RETURN_IF_ERROR(toFusedActivation(context.scalar<int32_t>(kActivation)));
  ANNRT_RETURN_IF_ERROR(conv::checkBiasAndQuantization(context, g.output.channels));
  Shape output = context.outputShape(0);
  output.dims = {g.output.batches, g.output.channels};
  return context.setOutputShape(0, output);
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(conv::Geometry g, geometry(context));
  ANNRT_ASSIGN_OR_RETURN(FusedActivation activation,
                         toFusedActivation(context.scalar<int32_t>(kActivation)));
  return conv::run(context, g, activation, false);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::FULLY_CONNECTED,
     .name = "FULLY_CONNECTED",
     .validate = validate,
     .prepare = prepare,
     .execute = execute,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::fully_connected
