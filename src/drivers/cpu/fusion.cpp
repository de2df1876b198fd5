// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/fusion.h"

#include <algorithm>
#include <optional>

#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
bool isReshape(OperationType type) {
  return type == OperationType::RESHAPE || type == OperationType::SQUEEZE ||
         type == OperationType::EXPAND_DIMS;
}

namespace {

// Nodes XNNPACK gives an output range, which a following clamp narrows.
bool takesClamp(OperationType type) {
  switch (type) {
    case OperationType::CONV_2D:
    case OperationType::DEPTHWISE_CONV_2D:
    case OperationType::GROUPED_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D:
    case OperationType::FULLY_CONNECTED:
    case OperationType::AVERAGE_POOL_2D:
    case OperationType::MAX_POOL_2D:
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV: return true;
    default: return false;
  }
}

// `previous` writes a temporary that only `op` reads, as its first input.
bool feedsOnly(const Model& model, const Operation& previous, const Operation& op) {
  if (previous.outputs.size() != 1 || op.inputs.empty() || op.inputs[0] != previous.outputs[0]) {
    return false;
  }
  const Operand& between = model.main.operands[previous.outputs[0]];
  return between.lifetime == Lifetime::TEMPORARY_VARIABLE && between.consumers == 1;
}

// A float32 PAD of zeros growing only height and width ([N, H, W, C] in and
// out with the same N and C).
bool isSpatialZeroPad(const Model& model, const Operation& pad) {
  if (pad.type != OperationType::PAD) return false;
  const Shape& in = model.main.operands[pad.inputs[0]].shape;
  const Shape& out = model.main.operands[pad.outputs[0]].shape;
  return in.type == OperandType::TENSOR_FLOAT32 && in.dims.size() == 4 && out.dims.size() == 4 &&
         in.dims[0] == out.dims[0] && in.dims[3] == out.dims[3];
}

// A foldable float16 CAST whose float32 tensor is not a model output (an
// output is written by a node of its own).
bool isFoldedHalfCast(const Model& model, const Operation& op) {
  const std::vector<uint32_t>& outputs = model.main.outputIndexes;
  return isFoldableHalfCast(model, op) &&
         std::find(outputs.begin(), outputs.end(), op.outputs[0]) == outputs.end();
}

// A convolution annrt-cpu's kernels may apply an activation after.
bool takesActivation(const Model& model, const Operation& op) {
  switch (op.type) {
    case OperationType::CONV_2D:
    case OperationType::DEPTHWISE_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D: return true;
    default: return isTransposeConvBias(model, op);
  }
}

// An operation whose native kernel may add a tensor to its output as it
// writes it (NativeKernel::foldAdd): a convolution, a resize or a MUL.
bool takesAddend(const Model& model, const Operation& op) {
  return takesActivation(model, op) || op.type == OperationType::RESIZE_BILINEAR ||
         op.type == OperationType::MUL;
}

// A float32 HARD_SWISH or LOGISTIC of what `previous`, a convolution, alone
// reads.
bool foldsAsActivation(const Model& model, const Operation& previous, const Operation& op) {
  return nativeActivation(op.type) != nullptr && takesActivation(model, previous) &&
         feedsOnly(model, previous, op) && op.outputs.size() == 1 &&
         model.main.operands[op.inputs[0]].shape.type == OperandType::TENSOR_FLOAT32;
}

// The input of `add`, an ADD, other than `output` (which it reads once), or
// nullopt where it reads `output` twice or not at all.
std::optional<uint32_t> otherInput(const Operation& add, uint32_t output) {
  const bool first = add.inputs[0] == output, second = add.inputs[1] == output;
  if (first == second) return std::nullopt;
  return add.inputs[first ? 1 : 0];
}

bool isFloatOfDims(const Operand& operand, const std::vector<uint32_t>& dims) {
  return operand.shape.type == OperandType::TENSOR_FLOAT32 && operand.shape.dims == dims &&
         std::find(dims.begin(), dims.end(), 0u) == dims.end();
}

// Whether `operand` is float32 [N, H, W, C] with the N, H and W of `dims`
// and at most its C channels (the input of a PAD along the channels folded
// into an ADD of `dims`).
bool isNarrowerInChannels(const Operand& operand, const std::vector<uint32_t>& dims) {
  const std::vector<uint32_t>& own = operand.shape.dims;
  return operand.shape.type == OperandType::TENSOR_FLOAT32 && own.size() == 4 && dims.size() == 4 &&
         std::equal(own.begin(), own.begin() + 3, dims.begin()) && own[3] > 0 && own[3] <= dims[3];
}

// A float32 ADD, without broadcast and with a constant fused activation, of
// what `previous` alone writes for it and a tensor of the same shape that
// the graph computes (not a constant) before operation `before` (`writer`:
// each operand's writing operation, kNoNode for none); or, with `pad`, a
// PAD along the channels of such a tensor folded into the ADD.
bool foldsAsAddend(const Model& model, const Operation& previous, const Operation& op,
                   uint32_t before, const std::vector<uint32_t>& writer, const Operation* pad) {
  if (op.type != OperationType::ADD || op.inputs.size() != 3 || op.outputs.size() != 1 ||
      previous.outputs.size() != 1) {
    return false;
  }
  const std::vector<Operand>& operands = model.main.operands;
  const uint32_t middle = previous.outputs[0];
  const std::optional<uint32_t> other = otherInput(op, middle);
  if (!other || operands[middle].lifetime != Lifetime::TEMPORARY_VARIABLE ||
      operands[middle].consumers != 1) {
    return false;
  }
  if (pad != nullptr &&
      (pad->inputs.empty() || pad->outputs.size() != 1 || pad->outputs[0] != *other)) {
    return false;
  }
  const uint32_t addend = pad != nullptr ? pad->inputs[0] : *other;
  const Lifetime activation = operands[op.inputs[2]].lifetime;
  const Lifetime lifetime = operands[addend].lifetime;
  const std::vector<uint32_t>& dims = operands[op.outputs[0]].shape.dims;
  const bool shaped = pad != nullptr ? isNarrowerInChannels(operands[addend], dims)
                                     : isFloatOfDims(operands[addend], dims);
  return (activation == Lifetime::CONSTANT_COPY || activation == Lifetime::CONSTANT_REFERENCE) &&
         (lifetime == Lifetime::TEMPORARY_VARIABLE || lifetime == Lifetime::SUBGRAPH_INPUT ||
          lifetime == Lifetime::SUBGRAPH_OUTPUT) &&
         (writer[addend] == FusionPlan::kNoNode || writer[addend] < before) && shaped &&
         isFloatOfDims(operands[middle], dims) && isFloatOfDims(operands[op.outputs[0]], dims);
}

// A float32 ADD, without broadcast and with a constant fused activation, of
// two tensors the graph computes (not constants), whose output only `op`,
// an AVERAGE_POOL_2D or MEAN, reads.
bool foldsIntoAverage(const Model& model, const Operation& add, const Operation& op) {
  if (add.type != OperationType::ADD || add.inputs.size() != 3 || add.outputs.size() != 1 ||
      (op.type != OperationType::AVERAGE_POOL_2D && op.type != OperationType::MEAN) ||
      !feedsOnly(model, add, op)) {
    return false;
  }
  const std::vector<Operand>& operands = model.main.operands;
  const std::vector<uint32_t>& dims = operands[add.outputs[0]].shape.dims;
  auto computed = [&](uint32_t operand) {
    const Lifetime lifetime = operands[operand].lifetime;
    return (lifetime == Lifetime::TEMPORARY_VARIABLE || lifetime == Lifetime::SUBGRAPH_INPUT ||
            lifetime == Lifetime::SUBGRAPH_OUTPUT) &&
           isFloatOfDims(operands[operand], dims);
  };
  const Lifetime activation = operands[add.inputs[2]].lifetime;
  return (activation == Lifetime::CONSTANT_COPY || activation == Lifetime::CONSTANT_REFERENCE) &&
         computed(add.inputs[0]) && computed(add.inputs[1]) &&
         isFloatOfDims(operands[add.outputs[0]], dims);
}

// The operation writing each operand of `model` (kNoNode: none).
std::vector<uint32_t> writers(const Model& model) {
  std::vector<uint32_t> writer(model.main.operands.size(), FusionPlan::kNoNode);
  const std::vector<Operation>& operations = model.main.operations;
  for (uint32_t i = 0; i < operations.size(); ++i) {
    for (uint32_t output : operations[i].outputs) writer[output] = i;
  }
  return writer;
}

}  // namespace

FusionPlan::FusionPlan(const Model& model) {
  const std::vector<Operation>& operations = model.main.operations;
  operations_.resize(operations.size());
  for (uint32_t i = 0; i < operations.size(); ++i) {
    const Operation& op = operations[i];
    if (isFoldedHalfCast(model, op)) {
      operations_[i] = {FusionRole::HALF_CAST, i};
      continue;
    }
    operations_[i] = {FusionRole::NODE, i};
    if (!staged_.empty()) {
      // XNNPACK fuses neighbours in execution order, folded casts aside.
      const uint32_t p = staged_.back();
      const Operation& previous = operations[p];
      if (isReshape(op.type)) {
        operations_[i] = {FusionRole::RESHAPE, operations_[p].node};
      } else if (reluRange(op.type) && takesClamp(previous.type) &&
                 feedsOnly(model, previous, op)) {
        operations_[i] = {FusionRole::CLAMP, operations_[p].node};
      } else if ((op.type == OperationType::CONV_2D ||
                  op.type == OperationType::DEPTHWISE_CONV_2D) &&
                 isSpatialZeroPad(model, previous) && feedsOnly(model, previous, op)) {
        operations_[p] = {FusionRole::PAD, i};
      }
    }
    staged_.push_back(i);
  }
}

void FusionPlan::foldIntoNative(const Model& model, const std::vector<bool>& native) {
  const std::vector<Operation>& operations = model.main.operations;
  const bool activations = nativeFormUse(NativeForm::FOLDED_ACTIVATION) != NativeUse::NO;
  const bool adds = nativeFormUse(NativeForm::FOLDED_ADD) != NativeUse::NO;
  const bool sums = nativeFormUse(NativeForm::FOLDED_SUM) != NativeUse::NO;
  const std::vector<uint32_t> writer = adds ? writers(model) : std::vector<uint32_t>{};
  std::vector<bool> runsNative = native;  // with the activations and ADDs folded in
  for (size_t i = 0; i < staged_.size(); ++i) {
    const uint32_t op = staged_[i];
    Folding& folding = operations_[op];
    if (i > 0 && folding.role == FusionRole::NODE) {
      const uint32_t previous = staged_[i - 1];
      if (activations && native[previous] && node(previous) == previous &&
          foldsAsActivation(model, operations[previous], operations[op])) {
        folding = {FusionRole::ACTIVATION, previous};
        runsNative[op] = true;
        continue;
      }
      // A PAD folded into the ADD goes with it.
      const bool padded = i > 1 && role(previous) == FusionRole::PAD && node(previous) == op;
      const uint32_t writesSummand = padded ? staged_[i - 2] : previous;
      const uint32_t producer = node(writesSummand);  // of the output `op` reads
      if (adds && native[producer] && takesAddend(model, operations[producer]) &&
          foldsAsAddend(model, operations[writesSummand], operations[op], producer, writer,
                        padded ? &operations[previous] : nullptr)) {
        folding = {FusionRole::ADDEND, producer};
        if (padded) operations_[previous].node = producer;
        runsNative[op] = true;
        continue;
      }
      if (sums && native[op] && role(previous) == FusionRole::NODE && !joinsPrevious(i - 1) &&
          foldsIntoAverage(model, operations[previous], operations[op])) {
        operations_[previous] = {FusionRole::AVERAGED_ADD, op};
        runsNative[previous] = true;
      }
    }
    if (folding.role == FusionRole::CLAMP && role(folding.node) == FusionRole::ADDEND) {
      folding.node = node(folding.node);  // clamps the folded ADD's sums
    }
    if (folding.role == FusionRole::RESHAPE) {
      // Its node may have changed: a reshape before it became one.
      const uint32_t previous = staged_[i - 1];
      folding = runsNative[previous] ? Folding{FusionRole::NODE, op}
                                     : Folding{FusionRole::RESHAPE, operations_[previous].node};
    }
    if (model.main.operations[op].type == OperationType::PAD && native[op] &&
        i + 1 < staged_.size() && native[staged_[i + 1]]) {
      folding = {FusionRole::PAD, staged_[i + 1]};
    }
  }
}

bool FusionPlan::onlyAClampFollows(size_t i, bool reshapesMayFollow) const {
  if (!joinsPrevious(i + 1)) return true;
  const FusionRole next = role(staged_[i + 1]);
  return next == FusionRole::CLAMP || (reshapesMayFollow && next == FusionRole::RESHAPE);
}

bool FusionPlan::nativeRunsWhole(size_t i, bool reshapesMayFollow) const {
  return !joinsPrevious(i) && onlyAClampFollows(i, reshapesMayFollow);
}

std::optional<uint32_t> FusionPlan::nativePad(const Model& model, size_t i) const {
  if (i == 0 || !onlyAClampFollows(i, false)) return std::nullopt;
  const uint32_t previous = staged_[i - 1];
  if (model.main.operations[previous].type != OperationType::PAD) return std::nullopt;
  const bool intoConvolution = role(previous) == FusionRole::PAD;
  const bool intoAdd = model.main.operations[staged_[i]].type == OperationType::ADD;
  if (!intoConvolution && !intoAdd) return std::nullopt;
  return previous;
}

FusionPlan FusionPlan::slice(const std::vector<uint32_t>& operations) const {
  FusionPlan plan;
  for (uint32_t k = 0; k < operations.size(); ++k) {
    Folding folding = operations_[operations[k]];
    auto node = std::lower_bound(operations.begin(), operations.end(), folding.node);
    folding.node = node == operations.end() || *node != folding.node
                       ? kNoNode
                       : static_cast<uint32_t>(node - operations.begin());
    plan.operations_.push_back(folding);
    if (folding.role != FusionRole::HALF_CAST) plan.staged_.push_back(k);
  }
  return plan;
}

}  // namespace annrt::cpu
