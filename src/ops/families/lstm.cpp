// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The float LSTM operations: LSTM (one time step; 23 inputs, or 27 with layer
// normalization from feature level 3), UNIDIRECTIONAL_SEQUENCE_LSTM (a whole
// sequence, time- or batch-major, optional final state outputs) and
// BIDIRECTIONAL_SEQUENCE_LSTM (a forward and a backward cell, an auxiliary
// input linked in parallel or across, optionally merged outputs and final
// states). Optional tensors are omitted operands (NO_VALUE). Float32 and
// float16 (computed in float); the cell is util/lstm_cell.
#include <vector>

#include "ops/operation.h"
#include "ops/util/lstm_cell.h"
#include "ops/util/recurrent.h"

namespace annrt::ops::families::lstm {
namespace {

using ops::lstm::Config;
using ops::lstm::kNoOperand;
using ops::lstm::Params;
using ops::lstm::State;
using ops::lstm::TensorIndices;
using ops::lstm::Weights;
using recurrent::FloatInput;
using recurrent::SequenceLayout;

constexpr uint32_t kInput = 0;
constexpr uint32_t kActivation = 20, kCellClip = 21, kProjClip = 22;

// ---- LSTM ------------------------------------------------------------------

namespace single {

constexpr uint32_t kScratch = 0, kOutputState = 1, kCellState = 2, kOutput = 3;

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  ANNRT_CHECK(context.inputCount() == 23 || context.inputCount() == 27,
              "expected 23 or 27 inputs, got {}", context.inputCount());
  return recurrent::validateFloatSignature(
      context, type,
      context.inputCount() == 23 ? "TTTTTTTTTTTTTTTTTTTTIFF" : "TTTTTTTTTTTTTTTTTTTTIFFTTTT",
      "TTTT");
}

TensorIndices indices(const ExecutionContext& context) {
  return ops::lstm::standardIndices(context.inputCount() == 27 ? 23 : kNoOperand);
}

Result<Config> config(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(context, {kInput}));
  const Shape& input = context.inputShape(kInput);
  ANNRT_CHECK(rank(input) == 2, "input has rank {}, expected 2", rank(input));
  return ops::lstm::checkTensors(context, indices(context), input.dims[0], input.dims[1], false, 0);
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Config c, config(context));
  ANNRT_RETURN_IF_ERROR(ops::lstm::readParams(context, kActivation, kCellClip, kProjClip));
  ANNRT_RETURN_IF_ERROR(
      recurrent::setOutputDims(context, kScratch, {c.batch, c.cells * (c.cifg ? 3 : 4)}));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, kOutputState, {c.batch, c.outputSize}));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, kCellState, {c.batch, c.cells}));
  return recurrent::setOutputDims(context, kOutput, {c.batch, c.outputSize});
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Config c, config(context));
  ANNRT_ASSIGN_OR_RETURN(Params params,
                         ops::lstm::readParams(context, kActivation, kCellClip, kProjClip));
  const Weights weights(context, indices(context));
  const FloatInput input(context, kInput);
  State state(c, weights);
  std::vector<float> output(size_t{c.batch} * c.outputSize);
  std::vector<float> scratch(size_t{c.batch} * c.cells * (c.cifg ? 3 : 4));
  ops::lstm::runSequence(c, weights, params, SequenceLayout{1, c.batch, true}, input.data(),
                         nullptr, true, {output.data(), c.outputSize, 0}, state, scratch.data());
  recurrent::storeFloatOutput(context, kScratch, scratch.data());
  recurrent::storeFloatOutput(context, kOutputState, state.output.data());
  recurrent::storeFloatOutput(context, kCellState, state.cell.data());
  recurrent::storeFloatOutput(context, kOutput, output.data());
  return {};
}

}  // namespace single

// ---- UNIDIRECTIONAL_SEQUENCE_LSTM ---------------------------------------------

namespace unidirectional {

constexpr uint32_t kTimeMajor = 23, kLayerNorm = 24;
constexpr uint32_t kOutput = 0, kOutputState = 1, kCellState = 2;

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  ANNRT_CHECK(context.outputCount() == 1 || context.outputCount() == 3,
              "expected 1 or 3 outputs, got {}", context.outputCount());
  return recurrent::validateFloatSignature(context, type, "TTTTTTTTTTTTTTTTTTTTIFFBTTTT",
                                           context.outputCount() == 1 ? "T" : "TTT");
}

struct Plan {
  SequenceLayout layout;
  Config config;
};

Result<Plan> plan(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(context, {kInput, kTimeMajor}));
  Plan p;
  ANNRT_ASSIGN_OR_RETURN(p.layout, recurrent::sequenceLayout(context.inputShape(kInput),
                                                             context.scalar<bool>(kTimeMajor)));
  ANNRT_ASSIGN_OR_RETURN(
      p.config,
      ops::lstm::checkTensors(context, ops::lstm::standardIndices(kLayerNorm), p.layout.batch,
                              context.inputShape(kInput).dims[2], false, 0));
  return p;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Plan p, plan(context));
  ANNRT_RETURN_IF_ERROR(ops::lstm::readParams(context, kActivation, kCellClip, kProjClip));
  ANNRT_RETURN_IF_ERROR(
      recurrent::setOutputDims(context, kOutput, p.layout.dims(p.config.outputSize)));
  if (context.outputCount() == 3) {
    ANNRT_RETURN_IF_ERROR(
        recurrent::setOutputDims(context, kOutputState, {p.layout.batch, p.config.outputSize}));
    return recurrent::setOutputDims(context, kCellState, {p.layout.batch, p.config.cells});
  }
  return {};
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Plan p, plan(context));
  ANNRT_ASSIGN_OR_RETURN(Params params,
                         ops::lstm::readParams(context, kActivation, kCellClip, kProjClip));
  const Weights weights(context, ops::lstm::standardIndices(kLayerNorm));
  const FloatInput input(context, kInput);
  State state(p.config, weights);
  std::vector<float> output(p.layout.rows() * p.config.outputSize);
  ops::lstm::runSequence(p.config, weights, params, p.layout, input.data(), nullptr, true,
                         {output.data(), p.config.outputSize, 0}, state);
  recurrent::storeFloatOutput(context, kOutput, output.data());
  if (context.outputCount() == 3) {
    recurrent::storeFloatOutput(context, kOutputState, state.output.data());
    recurrent::storeFloatOutput(context, kCellState, state.cell.data());
  }
  return {};
}

}  // namespace unidirectional

// ---- BIDIRECTIONAL_SEQUENCE_LSTM ----------------------------------------------

namespace bidirectional {

constexpr uint32_t kAuxInput = 39, kBidiActivation = 48, kBidiCellClip = 49, kBidiProjClip = 50,
                   kMergeOutputs = 51, kTimeMajor = 52;

// Forward tensors are at 1..17, backward at 18..34; states at 35..38, aux
// weights at 40..47, layer norm weights at 53..60.
TensorIndices directionIndices(bool backward) {
  const uint32_t shift = backward ? 17 : 0;
  TensorIndices t = ops::lstm::standardIndices(kNoOperand);
  for (uint32_t g = 0; g < 4; ++g) {
    t.inputWeights[g] += shift;
    t.recurrentWeights[g] += shift;
    t.bias[g] += shift;
    if (t.peephole[g] != kNoOperand) t.peephole[g] += shift;
    t.auxWeights[g] = (backward ? 44 : 40) + g;
    t.layerNorm[g] = (backward ? 57 : 53) + g;
  }
  t.projection += shift;
  t.projectionBias += shift;
  t.outputStateIn = backward ? 37 : 35;
  t.cellStateIn = backward ? 38 : 36;
  return t;
}

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  static constexpr const char* kOutputs[] = {"", "T", "TT", "TTT", "TTTT", "TTTTT", "TTTTTT"};
  ANNRT_CHECK(context.outputCount() >= 1 && context.outputCount() <= 6,
              "expected 1 to 6 outputs, got {}", context.outputCount());
  return recurrent::validateFloatSignature(
      context, type, "TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTIFFBBTTTTTTTT",
      kOutputs[context.outputCount()]);
}

struct Plan {
  SequenceLayout layout;
  recurrent::BidirectionalOutputs outputs;
  recurrent::AuxInput aux;
  Config fw, bw;
};

Result<Plan> plan(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(context, {kInput, kMergeOutputs, kTimeMajor}));
  Plan p;
  ANNRT_ASSIGN_OR_RETURN(
      p.outputs, recurrent::bidirectionalOutputs(context, context.scalar<bool>(kMergeOutputs), 4));
  ANNRT_ASSIGN_OR_RETURN(p.layout, recurrent::sequenceLayout(context.inputShape(kInput),
                                                             context.scalar<bool>(kTimeMajor)));
  const TensorIndices fw = directionIndices(false), bw = directionIndices(true);
  ANNRT_ASSIGN_OR_RETURN(
      p.aux, recurrent::auxInput(context, kInput, kAuxInput, fw.auxWeights[ops::lstm::kForgetGate],
                                 bw.auxWeights[ops::lstm::kForgetGate]));
  const bool cross = p.aux.linking == recurrent::AuxLinking::CROSS;
  const uint32_t inputSize = context.inputShape(kInput).dims[2];
  const uint32_t bwInputSize =
      p.aux.linking == recurrent::AuxLinking::PARALLEL ? p.aux.size : inputSize;
  ANNRT_ASSIGN_OR_RETURN(
      p.fw, ops::lstm::checkTensors(context, fw, p.layout.batch, inputSize, cross, p.aux.size));
  ANNRT_ASSIGN_OR_RETURN(
      p.bw, ops::lstm::checkTensors(context, bw, p.layout.batch, bwInputSize, cross, p.aux.size));
  return p;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Plan p, plan(context));
  ANNRT_RETURN_IF_ERROR(
      ops::lstm::readParams(context, kBidiActivation, kBidiCellClip, kBidiProjClip));
  const uint32_t fwWidth = p.outputs.merge ? p.fw.outputSize + p.bw.outputSize : p.fw.outputSize;
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, 0, p.layout.dims(fwWidth)));
  if (!p.outputs.merge) {
    ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, 1, p.layout.dims(p.bw.outputSize)));
  }
  if (p.outputs.states) {
    const uint32_t first = p.outputs.firstState;
    const uint32_t batch = p.layout.batch;
    ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, first, {batch, p.fw.outputSize}));
    ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, first + 1, {batch, p.fw.cells}));
    ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, first + 2, {batch, p.bw.outputSize}));
    return recurrent::setOutputDims(context, first + 3, {batch, p.bw.cells});
  }
  return {};
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Plan p, plan(context));
  ANNRT_ASSIGN_OR_RETURN(
      Params params, ops::lstm::readParams(context, kBidiActivation, kBidiCellClip, kBidiProjClip));
  const Weights fwWeights(context, directionIndices(false));
  const Weights bwWeights(context, directionIndices(true));
  const FloatInput input(context, kInput), aux(context, kAuxInput);
  const bool parallel = p.aux.linking == recurrent::AuxLinking::PARALLEL;
  const float* auxData = p.aux.linking == recurrent::AuxLinking::CROSS ? aux.data() : nullptr;

  const size_t rows = p.layout.rows();
  const uint32_t fwStride = p.outputs.merge ? p.fw.outputSize + p.bw.outputSize : p.fw.outputSize;
  std::vector<float> fwOut(rows * fwStride);
  std::vector<float> bwOut(p.outputs.merge ? 0 : rows * p.bw.outputSize);
  const recurrent::SequenceOutput bwTarget =
      p.outputs.merge ? recurrent::SequenceOutput{fwOut.data(), fwStride, p.fw.outputSize}
                      : recurrent::SequenceOutput{bwOut.data(), p.bw.outputSize, 0};

  State fwState(p.fw, fwWeights), bwState(p.bw, bwWeights);
  ops::lstm::runSequence(p.fw, fwWeights, params, p.layout, input.data(), auxData, true,
                         {fwOut.data(), fwStride, 0}, fwState);
  ops::lstm::runSequence(p.bw, bwWeights, params, p.layout, parallel ? aux.data() : input.data(),
                         auxData, false, bwTarget, bwState);

  recurrent::storeFloatOutput(context, 0, fwOut.data());
  if (!p.outputs.merge) recurrent::storeFloatOutput(context, 1, bwOut.data());
  if (p.outputs.states) {
    const uint32_t first = p.outputs.firstState;
    recurrent::storeFloatOutput(context, first, fwState.output.data());
    recurrent::storeFloatOutput(context, first + 1, fwState.cell.data());
    recurrent::storeFloatOutput(context, first + 2, bwState.output.data());
    recurrent::storeFloatOutput(context, first + 3, bwState.cell.data());
  }
  return {};
}

}  // namespace bidirectional

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::LSTM,
     .name = "LSTM",
     .validate = single::validate,
     .prepare = single::prepare,
     .execute = single::execute,
     .allowOmittedOperand = true},
    {.type = OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM,
     .name = "UNIDIRECTIONAL_SEQUENCE_LSTM",
     .validate = unidirectional::validate,
     .prepare = unidirectional::prepare,
     .execute = unidirectional::execute,
     .allowOmittedOperand = true},
    {.type = OperationType::BIDIRECTIONAL_SEQUENCE_LSTM,
     .name = "BIDIRECTIONAL_SEQUENCE_LSTM",
     .validate = bidirectional::validate,
     .prepare = bidirectional::prepare,
     .execute = bidirectional::execute,
     .allowOmittedOperand = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::lstm
