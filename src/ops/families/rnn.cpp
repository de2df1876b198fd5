// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The basic recurrent cell h = act(W x + R h_prev + b), on its own (RNN), over
// a sequence (UNIDIRECTIONAL_SEQUENCE_RNN) and over a sequence in both
// directions (BIDIRECTIONAL_SEQUENCE_RNN, with an auxiliary input either fed
// to the backward cell in place of the input or through auxiliary weights to
// both cells). Float32 and float16 (computed in float); all three share
// recurrent::runRnn.
#include <vector>

#include "ops/operation.h"
#include "ops/util/recurrent.h"

namespace annrt::ops::families::rnn {
namespace {

using recurrent::FloatInput;
using recurrent::SequenceLayout;

// The weights, recurrent weights and bias at `first`, first + 1, first + 2,
// checked against each other and against an input of `inputSize`.
Result<uint32_t> checkCellTensors(const ExecutionContext& context, uint32_t first,
                                  uint32_t inputSize) {
  const Shape& weights = context.inputShape(first);
  ANNRT_CHECK(rank(weights) == 2, "weights have rank {}, expected 2", rank(weights));
  const uint32_t units = weights.dims[0];
  ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, first, {units, inputSize}, "weights"));
  ANNRT_RETURN_IF_ERROR(
      recurrent::checkDims(context, first + 1, {units, units}, "recurrent weights"));
  ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, first + 2, {units}, "bias"));
  return units;
}

recurrent::RnnCell makeCell(const FloatInput& weights, const FloatInput& recurrentWeights,
                            const FloatInput& bias, uint32_t units, uint32_t inputSize,
                            int32_t activationCode) {
  recurrent::RnnCell cell;
  cell.weights = weights.data();
  cell.recurrent = recurrentWeights.data();
  cell.bias = bias.data();
  cell.units = units;
  cell.inputSize = inputSize;
  cell.activation = static_cast<recurrent::Activation>(activationCode);
  return cell;
}

// ---- RNN -------------------------------------------------------------------

namespace single {

constexpr uint32_t kInput = 0, kWeights = 1, kHiddenIn = 4, kActivation = 5;
constexpr uint32_t kHiddenOut = 0, kOutput = 1;

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  return recurrent::validateFloatSignature(context, type, "TTTTTI", "TT");
}

Result<void> prepare(ExecutionContext& context) {
  const Shape& input = context.inputShape(kInput);
  ANNRT_CHECK(rank(input) == 2, "input has rank {}, expected 2", rank(input));
  ANNRT_RETURN_IF_ERROR(recurrent::toActivation(context.scalar<int32_t>(kActivation), false));
  const uint32_t batch = input.dims[0];
  ANNRT_ASSIGN_OR_RETURN(uint32_t units, checkCellTensors(context, kWeights, input.dims[1]));
  ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kHiddenIn, {batch, units}, "hidden state"));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, kHiddenOut, {batch, units}));
  return recurrent::setOutputDims(context, kOutput, {batch, units});
}

Result<void> execute(ExecutionContext& context) {
  const Shape& input = context.inputShape(kInput);
  const SequenceLayout layout{1, input.dims[0], true};
  const uint32_t units = context.inputShape(kWeights).dims[0];
  const FloatInput x(context, kInput), w(context, kWeights), r(context, kWeights + 1),
      b(context, kWeights + 2), h(context, kHiddenIn);
  const recurrent::RnnCell cell =
      makeCell(w, r, b, units, input.dims[1], context.scalar<int32_t>(kActivation));
  std::vector<float> hidden(h.data(), h.data() + size_t{layout.batch} * units);
  std::vector<float> output(hidden.size());
  recurrent::runRnn(cell, layout, x.data(), nullptr, true, {output.data(), units, 0},
                    hidden.data());
  recurrent::storeFloatOutput(context, kHiddenOut, hidden.data());
  recurrent::storeFloatOutput(context, kOutput, output.data());
  return {};
}

}  // namespace single

// ---- UNIDIRECTIONAL_SEQUENCE_RNN ---------------------------------------------

namespace unidirectional {

constexpr uint32_t kInput = 0, kWeights = 1, kHiddenIn = 4, kActivation = 5, kTimeMajor = 6;
constexpr uint32_t kOutput = 0, kHiddenOut = 1;

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  return recurrent::validateFloatSignature(context, type, "TTTTTII",
                                           context.outputCount() == 2 ? "TT" : "T");
}

Result<SequenceLayout> layoutOf(const ExecutionContext& context) {
  return recurrent::sequenceLayout(context.inputShape(kInput),
                                   context.scalar<int32_t>(kTimeMajor) != 0);
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(SequenceLayout layout, layoutOf(context));
  ANNRT_RETURN_IF_ERROR(recurrent::toActivation(context.scalar<int32_t>(kActivation), false));
  ANNRT_ASSIGN_OR_RETURN(uint32_t units,
                         checkCellTensors(context, kWeights, context.inputShape(kInput).dims[2]));
  ANNRT_RETURN_IF_ERROR(
      recurrent::checkDims(context, kHiddenIn, {layout.batch, units}, "hidden state"));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, kOutput, layout.dims(units)));
  if (context.outputCount() == 2) {
    return recurrent::setOutputDims(context, kHiddenOut, {layout.batch, units});
  }
  return {};
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(SequenceLayout layout, layoutOf(context));
  const uint32_t units = context.inputShape(kWeights).dims[0];
  const FloatInput x(context, kInput), w(context, kWeights), r(context, kWeights + 1),
      b(context, kWeights + 2), h(context, kHiddenIn);
  const recurrent::RnnCell cell = makeCell(w, r, b, units, context.inputShape(kInput).dims[2],
                                           context.scalar<int32_t>(kActivation));
  std::vector<float> hidden(h.data(), h.data() + size_t{layout.batch} * units);
  std::vector<float> output(layout.rows() * units);
  recurrent::runRnn(cell, layout, x.data(), nullptr, true, {output.data(), units, 0},
                    hidden.data());
  recurrent::storeFloatOutput(context, kOutput, output.data());
  if (context.outputCount() == 2) recurrent::storeFloatOutput(context, kHiddenOut, hidden.data());
  return {};
}

}  // namespace unidirectional

// ---- BIDIRECTIONAL_SEQUENCE_RNN ----------------------------------------------

namespace bidirectional {

constexpr uint32_t kInput = 0, kFwWeights = 1, kFwHidden = 4, kBwWeights = 5, kBwHidden = 8,
                   kAuxInput = 9, kFwAuxWeights = 10, kBwAuxWeights = 11, kActivation = 12,
                   kTimeMajor = 13, kMergeOutputs = 14;

Result<void> validate(const ValidationContext& context) {
  ANNRT_ASSIGN_OR_RETURN(OperandType type, recurrent::floatTensorType(context));
  static constexpr const char* kOutputs[] = {"", "T", "TT", "TTT", "TTTT"};
  ANNRT_CHECK(context.outputCount() >= 1 && context.outputCount() <= 4,
              "expected 1 to 4 outputs, got {}", context.outputCount());
  return recurrent::validateFloatSignature(context, type, "TTTTTTTTTTTTIBB",
                                           kOutputs[context.outputCount()]);
}

// How the operation is wired, as far as prepare and execute both need it.
struct Plan {
  SequenceLayout layout;
  recurrent::BidirectionalOutputs outputs;
  recurrent::AuxInput aux;
  uint32_t inputSize = 0, bwInputSize = 0, fwUnits = 0, bwUnits = 0;
};

Result<Plan> plan(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(
      context,
      {kInput, kFwWeights, kFwWeights + 1, kFwWeights + 2, kFwHidden, kBwWeights, kBwWeights + 1,
       kBwWeights + 2, kBwHidden, kActivation, kTimeMajor, kMergeOutputs}));
  Plan p;
  ANNRT_ASSIGN_OR_RETURN(
      p.outputs, recurrent::bidirectionalOutputs(context, context.scalar<bool>(kMergeOutputs), 2));
  ANNRT_RETURN_IF_ERROR(recurrent::toActivation(context.scalar<int32_t>(kActivation), false));
  ANNRT_ASSIGN_OR_RETURN(p.layout, recurrent::sequenceLayout(context.inputShape(kInput),
                                                             context.scalar<bool>(kTimeMajor)));
  ANNRT_ASSIGN_OR_RETURN(
      p.aux, recurrent::auxInput(context, kInput, kAuxInput, kFwAuxWeights, kBwAuxWeights));
  p.inputSize = context.inputShape(kInput).dims[2];
  p.bwInputSize = p.aux.linking == recurrent::AuxLinking::PARALLEL ? p.aux.size : p.inputSize;
  ANNRT_ASSIGN_OR_RETURN(p.fwUnits, checkCellTensors(context, kFwWeights, p.inputSize));
  ANNRT_ASSIGN_OR_RETURN(p.bwUnits, checkCellTensors(context, kBwWeights, p.bwInputSize));
  ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kFwHidden, {p.layout.batch, p.fwUnits},
                                             "forward hidden state"));
  ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kBwHidden, {p.layout.batch, p.bwUnits},
                                             "backward hidden state"));
  if (p.aux.linking == recurrent::AuxLinking::CROSS) {
    ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kFwAuxWeights, {p.fwUnits, p.aux.size},
                                               "forward aux weights"));
    ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kBwAuxWeights, {p.bwUnits, p.aux.size},
                                               "backward aux weights"));
  }
  return p;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Plan p, plan(context));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(
      context, 0, p.layout.dims(p.outputs.merge ? p.fwUnits + p.bwUnits : p.fwUnits)));
  if (!p.outputs.merge)
    ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, 1, p.layout.dims(p.bwUnits)));
  if (p.outputs.states) {
    const uint32_t first = p.outputs.firstState;
    ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, first, {p.layout.batch, p.fwUnits}));
    return recurrent::setOutputDims(context, first + 1, {p.layout.batch, p.bwUnits});
  }
  return {};
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Plan p, plan(context));
  const int32_t activation = context.scalar<int32_t>(kActivation);
  const FloatInput x(context, kInput), aux(context, kAuxInput);
  const FloatInput fwW(context, kFwWeights), fwR(context, kFwWeights + 1),
      fwB(context, kFwWeights + 2), fwH(context, kFwHidden), fwAux(context, kFwAuxWeights);
  const FloatInput bwW(context, kBwWeights), bwR(context, kBwWeights + 1),
      bwB(context, kBwWeights + 2), bwH(context, kBwHidden), bwAux(context, kBwAuxWeights);

  recurrent::RnnCell fw = makeCell(fwW, fwR, fwB, p.fwUnits, p.inputSize, activation);
  recurrent::RnnCell bw = makeCell(bwW, bwR, bwB, p.bwUnits, p.bwInputSize, activation);
  const float* auxData = nullptr;
  if (p.aux.linking == recurrent::AuxLinking::CROSS) {
    fw.auxWeights = fwAux.data();
    bw.auxWeights = bwAux.data();
    fw.auxInputSize = bw.auxInputSize = p.aux.size;
    auxData = aux.data();
  }
  const float* bwInput = p.aux.linking == recurrent::AuxLinking::PARALLEL ? aux.data() : x.data();

  const size_t rows = p.layout.rows();
  const uint32_t fwStride = p.outputs.merge ? p.fwUnits + p.bwUnits : p.fwUnits;
  std::vector<float> fwOut(rows * fwStride);
  std::vector<float> bwOut(p.outputs.merge ? 0 : rows * p.bwUnits);
  const recurrent::SequenceOutput bwTarget =
      p.outputs.merge ? recurrent::SequenceOutput{fwOut.data(), fwStride, p.fwUnits}
                      : recurrent::SequenceOutput{bwOut.data(), p.bwUnits, 0};
  std::vector<float> fwHidden(fwH.data(), fwH.data() + size_t{p.layout.batch} * p.fwUnits);
  std::vector<float> bwHidden(bwH.data(), bwH.data() + size_t{p.layout.batch} * p.bwUnits);
  recurrent::runRnn(fw, p.layout, x.data(), auxData, true, {fwOut.data(), fwStride, 0},
                    fwHidden.data());
  recurrent::runRnn(bw, p.layout, bwInput, auxData, false, bwTarget, bwHidden.data());

  recurrent::storeFloatOutput(context, 0, fwOut.data());
  if (!p.outputs.merge) recurrent::storeFloatOutput(context, 1, bwOut.data());
  if (p.outputs.states) {
    recurrent::storeFloatOutput(context, p.outputs.firstState, fwHidden.data());
    recurrent::storeFloatOutput(context, p.outputs.firstState + 1, bwHidden.data());
  }
  return {};
}

}  // namespace bidirectional

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::RNN,
     .name = "RNN",
     .validate = single::validate,
     .prepare = single::prepare,
     .execute = single::execute},
    {.type = OperationType::UNIDIRECTIONAL_SEQUENCE_RNN,
     .name = "UNIDIRECTIONAL_SEQUENCE_RNN",
     .validate = unidirectional::validate,
     .prepare = unidirectional::prepare,
     .execute = unidirectional::execute},
    {.type = OperationType::BIDIRECTIONAL_SEQUENCE_RNN,
     .name = "BIDIRECTIONAL_SEQUENCE_RNN",
     .validate = bidirectional::validate,
     .prepare = bidirectional::prepare,
     .execute = bidirectional::execute,
     .allowOmittedOperand = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::rnn
