// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Element-wise operators: the ones NNAPI has verbatim, ADD/SUB/MUL/DIV with
// their fused activation, and LEAKY_RELU/SQUARED_DIFFERENCE composed from
// NNAPI operations.
#include <cstring>

#include "tflite/map_helpers.h"

namespace annrt::tflite::mappers {
namespace {

// The fused activation of ADD/SUB/MUL/DIV (their option tables share a layout).
const fb::ActivationOptions* arithmeticOptions(const OperatorView& op) {
  const fb::Operator& raw = *op.raw;
  if (auto* o = raw.builtin_options_as_AddOptions()) return o;
  if (auto* o = raw.builtin_options_as_SubOptions()) return o;
  if (auto* o = raw.builtin_options_as_MulOptions()) return o;
  return raw.builtin_options_as_DivOptions();
}

}  // namespace

Result<void> direct(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> inputs, allInputs(c));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> outputs, allOutputs(c));
  return c.emit(m.nnapi, inputs, outputs);
}

Result<void> binaryFused(Converter& c, const OpMapping& m) {
  const fb::ActivationOptions* options = arithmeticOptions(c.op());
  const auto activation =
      options ? options->fused_activation_function() : fb::ActivationFunctionType::NONE;
  ANNRT_ASSIGN_OR_RETURN(uint32_t a, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t b, c.input(1));
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan, planActivation(c, activation));
  ANNRT_RETURN_IF_ERROR(c.emit(m.nnapi, {a, b, plan.fuse}, {plan.result}));
  return finishActivation(c, plan);
}

// LEAKY_RELU(x) = PRELU(x, alpha) with a one-element alpha broadcast.
Result<void> leakyRelu(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* options,
                         requireOptions(c, c.op().raw->builtin_options_as_LeakyReluOptions()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(Shape shape, c.operandShape(c.inputTensor(0)));
  if (shape.type != OperandType::TENSOR_FLOAT32) {
    return c.opError("only float32 LEAKY_RELU is supported");
  }
  const float alpha = options->alpha();
  std::vector<uint8_t> bytes(sizeof(float));
  std::memcpy(bytes.data(), &alpha, sizeof(float));
  ANNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand,
                         c.writer().addOwnedConstant(makeShape(shape.type, {1}), std::move(bytes)));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::PRELU, {input, alphaOperand}, {output});
}

// SQUARED_DIFFERENCE(a, b) = (a - b) * (a - b).
Result<void> squaredDifference(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t a, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t b, c.input(1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  ANNRT_ASSIGN_OR_RETURN(Shape shape, c.operandShape(c.outputTensor(0)));
  if (shape.type != OperandType::TENSOR_FLOAT32) {
    return c.opError("only float32 SQUARED_DIFFERENCE is supported");
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t difference, c.temporary(shape));
  ANNRT_ASSIGN_OR_RETURN(uint32_t none, c.writer().addInt32(ANEURALNETWORKS_FUSED_NONE));
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::SUB, {a, b, none}, {difference}));
  return c.emit(OperationType::MUL, {difference, difference, none}, {output});
}

}  // namespace annrt::tflite::mappers
