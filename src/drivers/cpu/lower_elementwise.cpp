// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Broadcasting binary ops (ADD, MUL, SUB, DIV with their fused activation;
// MAXIMUM, MINIMUM) and unary activations and math ops.
#include <cmath>
#include <optional>

#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

bool hasFusedActivation(OperationType type) {
  return type == OperationType::ADD || type == OperationType::MUL ||
         type == OperationType::SUB || type == OperationType::DIV;
}

Result<void> defineBinary(LoweringContext& context, OperationType type, OutputRange range,
                          uint32_t a, uint32_t b, uint32_t out) {
  xnn_subgraph_t s = context.subgraph();
  switch (type) {
    case OperationType::ADD:
      return checkXnn(xnn_define_add2(s, range.min, range.max, a, b, out, 0), "xnn_define_add2");
    case OperationType::MUL:
      return checkXnn(xnn_define_multiply2(s, range.min, range.max, a, b, out, 0),
                      "xnn_define_multiply2");
    case OperationType::SUB:
      return checkXnn(xnn_define_subtract(s, range.min, range.max, a, b, out, 0),
                      "xnn_define_subtract");
    case OperationType::DIV:
      return checkXnn(xnn_define_divide(s, range.min, range.max, a, b, out, 0),
                      "xnn_define_divide");
    case OperationType::MAXIMUM:
      return checkXnn(xnn_define_maximum2(s, a, b, out, 0), "xnn_define_maximum2");
    default:
      return checkXnn(xnn_define_minimum2(s, a, b, out, 0), "xnn_define_minimum2");
  }
}

// The clamp range of RELU, RELU1 and RELU6.
std::optional<OutputRange> reluRange(OperationType type) {
  switch (type) {
    case OperationType::RELU: return OutputRange{.min = 0.0f};
    case OperationType::RELU1: return OutputRange{.min = -1.0f, .max = 1.0f};
    case OperationType::RELU6: return OutputRange{.min = 0.0f, .max = 6.0f};
    default: return std::nullopt;
  }
}

Result<void> defineUnary(LoweringContext& context, const Operation& op, uint32_t in,
                         uint32_t out) {
  xnn_subgraph_t s = context.subgraph();
  if (auto range = reluRange(op.type)) {
    return checkXnn(xnn_define_clamp(s, range->min, range->max, in, out, 0), "xnn_define_clamp");
  }
  switch (op.type) {
    case OperationType::LOGISTIC:
      return checkXnn(xnn_define_sigmoid(s, in, out, 0), "xnn_define_sigmoid");
    case OperationType::HARD_SWISH:
      return checkXnn(xnn_define_hardswish(s, in, out, 0), "xnn_define_hardswish");
    case OperationType::ELU: {
      ANNRT_ASSIGN_OR_RETURN(float alpha, context.floatScalar(op, 1));
      return checkXnn(xnn_define_elu(s, alpha, in, out, 0), "xnn_define_elu");
    }
    case OperationType::ABS: return checkXnn(xnn_define_abs(s, in, out, 0), "xnn_define_abs");
    case OperationType::FLOOR:
      return checkXnn(xnn_define_floor(s, in, out, 0), "xnn_define_floor");
    case OperationType::NEG:
      return checkXnn(xnn_define_negate(s, in, out, 0), "xnn_define_negate");
    default:
      return checkXnn(xnn_define_square_root(s, in, out, 0), "xnn_define_square_root");
  }
}

}  // namespace

Result<void> lowerBinary(LoweringContext& context, const Operation& op) {
  const bool fused = hasFusedActivation(op.type);
  ANNRT_CPU_REQUIRE(op.inputs.size() == (fused ? 3u : 2u), "unexpected input count {}",
                    op.inputs.size());
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0, 1}));
  OutputRange range;
  if (fused) {
    ANNRT_ASSIGN_OR_RETURN(range, fusedActivation(context, op, 2));
  }
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t a, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t b, context.inputValue(op, 1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return defineBinary(context, op.type, range, a, b, out);
}

Result<void> lowerUnary(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(context.input(op, 0).shape.dims == context.output(op, 0).shape.dims,
                    "output shape differs from the input's");
  if (op.type == OperationType::ELU) {
    ANNRT_RETURN_IF_ERROR(context.floatScalar(op, 1));
  } else {
    ANNRT_CPU_REQUIRE(op.inputs.size() == 1, "unexpected input count {}", op.inputs.size());
  }
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return defineUnary(context, op, in, out);
}

// XNNPACK's softmax works along the last axis with beta 1; another beta
// scales the input first.
Result<void> lowerSoftmax(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  ANNRT_ASSIGN_OR_RETURN(float beta, context.floatScalar(op, 1));
  ANNRT_CPU_REQUIRE(beta > 0.0f, "beta {} must be positive", beta);
  if (op.inputs.size() > 2) {
    ANNRT_ASSIGN_OR_RETURN(int32_t axis, context.intScalar(op, 2));
    const int32_t last = static_cast<int32_t>(rank(input)) - 1;
    ANNRT_CPU_REQUIRE(axis == -1 || axis == last, "softmax only along the last axis, not {}",
                      axis);
  }
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  if (beta != 1.0f) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t betaValue, context.staticValue({1}, {beta}));
    ANNRT_ASSIGN_OR_RETURN(uint32_t scaled, context.internalValue(input.dims));
    ANNRT_RETURN_IF_ERROR(checkXnn(
        xnn_define_multiply2(context.subgraph(), -INFINITY, INFINITY, in, betaValue, scaled, 0),
        "xnn_define_multiply2"));
    in = scaled;
  }
  return checkXnn(xnn_define_softmax(context.subgraph(), in, out, 0), "xnn_define_softmax");
}

}  // namespace annrt::cpu
