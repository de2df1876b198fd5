// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/fusion.h"

namespace annrt::cpu {
namespace {

bool isReshape(OperationType type) {
  return type == OperationType::RESHAPE || type == OperationType::SQUEEZE ||
         type == OperationType::EXPAND_DIMS;
}

bool isClamp(OperationType type) {
  return type == OperationType::RELU || type == OperationType::RELU1 ||
         type == OperationType::RELU6;
}

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

}  // namespace

Fusion fusionWithPrevious(const Model& model, const Operation& previous, const Operation& op) {
  if (isReshape(op.type)) return Fusion::INTO_PREVIOUS;
  if (isClamp(op.type) && takesClamp(previous.type) && feedsOnly(model, previous, op)) {
    return Fusion::INTO_PREVIOUS;
  }
  if ((op.type == OperationType::CONV_2D || op.type == OperationType::DEPTHWISE_CONV_2D) &&
      isSpatialZeroPad(model, previous) && feedsOnly(model, previous, op)) {
    return Fusion::PREVIOUS_INTO;
  }
  return Fusion::NONE;
}

}  // namespace annrt::cpu
