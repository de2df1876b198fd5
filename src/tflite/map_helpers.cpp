// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/map_helpers.h"

namespace annrt::tflite {

Result<ActivationPlan> planActivation(Converter& c, fb::ActivationFunctionType activation,
                                      bool takesFuseCode) {
  ActivationPlan plan;
  ANNRT_ASSIGN_OR_RETURN(plan.output, c.output(0));
  int32_t fuse = ANEURALNETWORKS_FUSED_NONE;
  std::optional<OperationType> separate;
  switch (activation) {
    case fb::ActivationFunctionType::NONE: break;
    case fb::ActivationFunctionType::RELU:
      fuse = ANEURALNETWORKS_FUSED_RELU;
      separate = OperationType::RELU;
      break;
    case fb::ActivationFunctionType::RELU_N1_TO_1:
      fuse = ANEURALNETWORKS_FUSED_RELU1;
      separate = OperationType::RELU1;
      break;
    case fb::ActivationFunctionType::RELU6:
      fuse = ANEURALNETWORKS_FUSED_RELU6;
      separate = OperationType::RELU6;
      break;
    case fb::ActivationFunctionType::TANH:
      separate = OperationType::TANH;
      takesFuseCode = false;
      break;
    default: return c.opError("fused activation {} is not supported", static_cast<int>(activation));
  }
  plan.result = plan.output;
  if (separate && !takesFuseCode) {
    ANNRT_ASSIGN_OR_RETURN(Shape shape, c.operandShape(c.outputTensor(0)));
    ANNRT_ASSIGN_OR_RETURN(plan.result, c.temporary(shape));
    plan.after = separate;
    fuse = ANEURALNETWORKS_FUSED_NONE;
  }
  ANNRT_ASSIGN_OR_RETURN(plan.fuse, c.writer().addInt32(fuse));
  return plan;
}

Result<void> finishActivation(Converter& c, const ActivationPlan& plan) {
  if (!plan.after) return {};
  return c.emit(*plan.after, {plan.result}, {plan.output});
}

int32_t paddingCode(fb::Padding padding) {
  return padding == fb::Padding::SAME ? ANEURALNETWORKS_PADDING_SAME
                                      : ANEURALNETWORKS_PADDING_VALID;
}

Result<uint32_t> biasOrZeros(Converter& c, size_t index, size_t inputIndex, size_t filterIndex,
                             uint32_t units) {
  if (c.hasInput(index)) return c.input(index);
  ANNRT_ASSIGN_OR_RETURN(Shape input, c.operandShape(c.inputTensor(inputIndex)));
  ANNRT_ASSIGN_OR_RETURN(Shape filter, c.operandShape(c.inputTensor(filterIndex)));
  Shape bias = makeShape(OperandType::TENSOR_FLOAT32, {units});
  size_t elementBytes = 4;
  if (input.type == OperandType::TENSOR_FLOAT16) {
    bias.type = OperandType::TENSOR_FLOAT16;
    elementBytes = 2;
  } else if (input.type != OperandType::TENSOR_FLOAT32) {
    bias.type = OperandType::TENSOR_INT32;
    bias.scale = filter.channelQuant ? 0.0f : input.scale * filter.scale;
  }
  return c.writer().addOwnedConstant(bias, std::vector<uint8_t>(units * elementBytes, 0));
}

Result<std::vector<uint32_t>> allInputs(Converter& c, size_t first) {
  std::vector<uint32_t> operands;
  for (size_t i = first; i < c.inputCount(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t operand, c.input(i));
    operands.push_back(operand);
  }
  return operands;
}

Result<std::vector<uint32_t>> allOutputs(Converter& c) {
  std::vector<uint32_t> operands;
  for (size_t i = 0; i < c.outputCount(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t operand, c.output(i));
    operands.push_back(operand);
  }
  return operands;
}

Result<int32_t> normalizeAxis(const Converter& c, int32_t axis, size_t rank) {
  const auto r = static_cast<int32_t>(rank);
  if (axis < -r || axis >= r) return c.opError("axis {} is out of range for rank {}", axis, rank);
  return axis < 0 ? axis + r : axis;
}

}  // namespace annrt::tflite
