// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SVDF: a rank-decomposed fully connected layer over a window of past
// activations. Each of the num_units * rank filters projects the input with
// its feature weights into the newest slot of its memory, the memory is dotted
// with the filter's time weights, rank filters sum into each unit, bias and a
// fused activation follow, and the memory shifts left by one slot. Float32 and
// float16 (computed in float).
#include <algorithm>
#include <vector>

#include "ops/operation.h"
#include "ops/util/recurrent.h"

namespace annrt::ops::families::svdf {
namespace {

using recurrent::FloatInput;

constexpr uint32_t kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kStateIn = 4,
                   kRank = 5, kActivation = 6;
constexpr uint32_t kStateOut = 0, kOutput = 1;

struct Geometry {
  uint32_t batch = 0, inputSize = 0, filters = 0, units = 0, memory = 0, rank = 0;
};

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  return recurrent::validateFloatSignature(context, type, "TTTTTII", "TT");
}

Result<Geometry> geometry(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(
      context, {kInput, kWeightsFeature, kWeightsTime, kStateIn, kRank, kActivation}));
  const Shape& input = context.inputShape(kInput);
  const Shape& feature = context.inputShape(kWeightsFeature);
  const Shape& time = context.inputShape(kWeightsTime);
  ANNRT_CHECK(rank(input) == 2, "input has rank {}, expected 2", rank(input));
  ANNRT_CHECK(rank(feature) == 2, "weights_feature has rank {}, expected 2", rank(feature));
  ANNRT_CHECK(rank(time) == 2, "weights_time has rank {}, expected 2", rank(time));
  Geometry g;
  g.batch = input.dims[0];
  g.inputSize = input.dims[1];
  g.filters = feature.dims[0];
  g.memory = time.dims[1];
  ANNRT_CHECK(g.memory > 0, "weights_time {} has no memory", toString(time.dims));
  const int32_t rankValue = context.scalar<int32_t>(kRank);
  ANNRT_CHECK(rankValue > 0, "rank {} must be positive", rankValue);
  g.rank = static_cast<uint32_t>(rankValue);
  ANNRT_CHECK(g.filters % g.rank == 0, "{} filters do not split into rank {}", g.filters, g.rank);
  g.units = g.filters / g.rank;
  ANNRT_CHECK(feature.dims[1] == g.inputSize, "weights_feature {} does not match input {}",
              toString(feature.dims), toString(input.dims));
  ANNRT_CHECK(time.dims[0] == g.filters, "weights_time {} does not match {} filters",
              toString(time.dims), g.filters);
  if (!context.isOmittedInput(kBias)) {
    ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kBias, {g.units}, "bias"));
  }
  ANNRT_RETURN_IF_ERROR(
      recurrent::checkDims(context, kStateIn, {g.batch, g.memory * g.filters}, "state"));
  ANNRT_RETURN_IF_ERROR(recurrent::toActivation(context.scalar<int32_t>(kActivation), false));
  return g;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Geometry g, geometry(context));
  ANNRT_RETURN_IF_ERROR(
      recurrent::setOutputDims(context, kStateOut, {g.batch, g.memory * g.filters}));
  return recurrent::setOutputDims(context, kOutput, {g.batch, g.units});
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Geometry g, geometry(context));
  const auto activation = static_cast<recurrent::Activation>(context.scalar<int32_t>(kActivation));
  const FloatInput input(context, kInput), feature(context, kWeightsFeature),
      time(context, kWeightsTime), bias(context, kBias), stateIn(context, kStateIn);
  const size_t stateSize = size_t{g.memory} * g.filters;
  std::vector<float> state(stateIn.data(), stateIn.data() + g.batch * stateSize);
  std::vector<float> output(size_t{g.batch} * g.units);
  std::vector<float> filterOut(g.filters);
  for (uint32_t b = 0; b < g.batch; ++b) {
    float* memory = state.data() + b * stateSize;
    const float* x = input.data() + size_t{b} * g.inputSize;
    for (uint32_t f = 0; f < g.filters; ++f) {
      // The newest activation goes into the last slot of the filter's memory.
      float* slots = memory + size_t{f} * g.memory;
      const float* w = feature.data() + size_t{f} * g.inputSize;
      float dot = 0.0f;
      for (uint32_t i = 0; i < g.inputSize; ++i) dot += w[i] * x[i];
      slots[g.memory - 1] = 0.0f + dot;
      const float* wt = time.data() + size_t{f} * g.memory;
      float sum = 0.0f;
      for (uint32_t m = 0; m < g.memory; ++m) sum += wt[m] * slots[m];
      filterOut[f] = sum;
    }
    float* out = output.data() + size_t{b} * g.units;
    for (uint32_t u = 0; u < g.units; ++u) {
      out[u] = bias.present() ? bias.data()[u] : 0.0f;
      for (uint32_t r = 0; r < g.rank; ++r) out[u] += filterOut[size_t{u} * g.rank + r];
      out[u] = recurrent::applyActivation(activation, out[u]);
    }
    // Make room for the next step's activation.
    for (uint32_t f = 0; f < g.filters; ++f) {
      float* slots = memory + size_t{f} * g.memory;
      std::copy(slots + 1, slots + g.memory, slots);
      slots[g.memory - 1] = 0.0f;
    }
  }
  recurrent::storeFloatOutput(context, kStateOut, state.data());
  recurrent::storeFloatOutput(context, kOutput, output.data());
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::SVDF,
     .name = "SVDF",
     .validate = validate,
     .prepare = prepare,
     .execute = execute,
     .allowOmittedOperand = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::svdf
