// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Broadcasting binary ops (ADD, MUL, SUB, DIV with their fused activation;
// MAXIMUM, MINIMUM), unary activations and math ops, and SOFTMAX.
//
// Quantized ADD, SUB and MUL use XNNPACK's quantized kernels (unless their
// scale ratios or fused activation are outside what those take), RELU* a
// quantized clamp and LOGISTIC its quantized sigmoid. Quantized ops XNNPACK
// has no quantized kernel for (MAXIMUM, MINIMUM, TANH, HARD_SWISH, SOFTMAX)
// are computed in float32 between exact dequantize and one quantize node.
// (XNNPACK's operator API has quantized tanh and uint8 softmax kernels, but
// its 2022-02 subgraph API, which keeps a partition in one runtime, does not.)
#include <cmath>
#include <optional>
#include <string>

#include "common/log.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

bool hasFusedActivation(OperationType type) {
  return type == OperationType::ADD || type == OperationType::MUL || type == OperationType::SUB ||
         type == OperationType::DIV;
}

// Binary ops with a quantized XNNPACK kernel.
bool hasQuantizedKernel(OperationType type) {
  return type == OperationType::ADD || type == OperationType::MUL || type == OperationType::SUB;
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
    default: return checkXnn(xnn_define_minimum2(s, a, b, out, 0), "xnn_define_minimum2");
  }
}

// The scale ratios XNNPACK's quantized kernels take (measured on the
// installed build, which refuses others when the runtime is created): each
// input scale / output scale in [2^-10, 2^8) for ADD and SUB, the product of
// the input scales / output scale in [2^-16, 2^8) for MUL.
Result<void> checkQuantizedBinary(const LoweringContext& context, const Operation& op,
                                  const OutputRange& range) {
  const float a = context.input(op, 0).shape.scale, b = context.input(op, 1).shape.scale;
  const Shape& output = context.output(op, 0).shape;
  if (op.type == OperationType::MUL) {
    const float ratio = a * b / output.scale;
    ANNRT_CPU_REQUIRE(ratio >= 0x1.0p-16f && ratio < 0x1.0p+8f,
                      "input scales {} x {} / output scale {} is outside XNNPACK's [2^-16, 2^8)", a,
                      b, output.scale);
  } else {
    for (float scale : {a, b}) {
      const float ratio = scale / output.scale;
      ANNRT_CPU_REQUIRE(ratio >= 0x1.0p-10f && ratio < 0x1.0p+8f,
                        "input scale {} / output scale {} is outside XNNPACK's [2^-10, 2^8)", scale,
                        output.scale);
    }
  }
  return checkQuantizedRange(range, output);
}

bool isFloatOnly(OperationType type) {
  return type == OperationType::ELU || type == OperationType::ABS || type == OperationType::FLOOR ||
         type == OperationType::NEG || type == OperationType::SQRT;
}

// tanh(x) = 2 * sigmoid(2x) - 1; XNNPACK's float sigmoid is accurate to a
// few ulp, so this stays within NNAPI's float32 tolerance (absolute 1e-5
// near 0, where the subtraction cancels).
Result<void> defineFloatTanh(LoweringContext& context, const std::vector<uint32_t>& dims,
                             uint32_t in, uint32_t out) {
  xnn_subgraph_t s = context.subgraph();
  ANNRT_ASSIGN_OR_RETURN(uint32_t two, context.staticValue({1}, {2.0f}));
  ANNRT_ASSIGN_OR_RETURN(uint32_t minusOne, context.staticValue({1}, {-1.0f}));
  ANNRT_ASSIGN_OR_RETURN(uint32_t doubled, context.internalValue(dims));
  ANNRT_ASSIGN_OR_RETURN(uint32_t sigmoid, context.internalValue(dims));
  ANNRT_ASSIGN_OR_RETURN(uint32_t scaled, context.internalValue(dims));
  ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_multiply2(s, -INFINITY, INFINITY, in, two, doubled, 0),
                                 "xnn_define_multiply2"));
  ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_sigmoid(s, doubled, sigmoid, 0), "xnn_define_sigmoid"));
  ANNRT_RETURN_IF_ERROR(
      checkXnn(xnn_define_multiply2(s, -INFINITY, INFINITY, sigmoid, two, scaled, 0),
               "xnn_define_multiply2"));
  return checkXnn(xnn_define_add2(s, -INFINITY, INFINITY, scaled, minusOne, out, 0),
                  "xnn_define_add2");
}

Result<void> defineUnary(LoweringContext& context, const Operation& op, uint32_t in, uint32_t out) {
  xnn_subgraph_t s = context.subgraph();
  if (auto range = reluRange(op.type)) {
    return checkXnn(xnn_define_clamp(s, range->min, range->max, in, out, 0), "xnn_define_clamp");
  }
  switch (op.type) {
    case OperationType::LOGISTIC:
      return checkXnn(xnn_define_sigmoid(s, in, out, 0), "xnn_define_sigmoid");
    case OperationType::HARD_SWISH:
      return checkXnn(xnn_define_hardswish(s, in, out, 0), "xnn_define_hardswish");
    case OperationType::TANH:
      return defineFloatTanh(context, context.output(op, 0).shape.dims, in, out);
    case OperationType::ELU: {
      ANNRT_ASSIGN_OR_RETURN(float alpha, context.floatScalar(op, 1));
      return checkXnn(xnn_define_elu(s, alpha, in, out, 0), "xnn_define_elu");
    }
    case OperationType::ABS: return checkXnn(xnn_define_abs(s, in, out, 0), "xnn_define_abs");
    case OperationType::FLOOR: return checkXnn(xnn_define_floor(s, in, out, 0), "xnn_define_floor");
    case OperationType::NEG: return checkXnn(xnn_define_negate(s, in, out, 0), "xnn_define_negate");
    default: return checkXnn(xnn_define_square_root(s, in, out, 0), "xnn_define_square_root");
  }
}

}  // namespace

Result<void> lowerBinary(LoweringContext& context, const Operation& op) {
  const bool fused = hasFusedActivation(op.type);
  ANNRT_CPU_REQUIRE(op.inputs.size() == (fused ? 3u : 2u), "unexpected input count {}",
                    op.inputs.size());
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0, 1}));
  OutputRange range;
  if (fused) {
    ANNRT_ASSIGN_OR_RETURN(range, fusedActivation(context, op, 2));
  }
  const bool quantized = context.quantized(op);
  ANNRT_CPU_REQUIRE(!quantized || op.type != OperationType::DIV, "DIV is only lowered for float32");
  // Quantized ops XNNPACK's kernels cannot take as they are run in float32.
  std::string floatReason;
  if (quantized && !hasQuantizedKernel(op.type)) {
    floatReason = "XNNPACK has no quantized kernel";
  } else if (quantized) {
    Result<void> native = checkQuantizedBinary(context, op, range);
    if (!native.ok()) floatReason = native.error().message;
  }
  const bool native = floatReason.empty();
  if (context.checking()) return {};
  if (!native) {
    ANNRT_VLOG(DRIVER, "annrt-cpu: computing a quantized {} in float32: {}",
               operationTypeName(op.type), floatReason);
  }
  if (native) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t a, context.inputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(uint32_t b, context.inputValue(op, 1));
    ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
    return defineBinary(context, op.type, range, a, b, out);
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t a, context.floatInputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t b, context.floatInputValue(op, 1));
  return context.withFloatOutput(
      op, 0, [&](uint32_t out) { return defineBinary(context, op.type, range, a, b, out); });
}

Result<void> lowerUnary(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(input.dims == output.dims, "output shape differs from the input's");
  if (op.type == OperationType::ELU) {
    ANNRT_RETURN_IF_ERROR(context.floatScalar(op, 1));
  } else {
    ANNRT_CPU_REQUIRE(op.inputs.size() == 1, "unexpected input count {}", op.inputs.size());
  }
  const bool quantized = context.quantized(op);
  ANNRT_CPU_REQUIRE(!quantized || !isFloatOnly(op.type), "{} is only lowered for float32",
                    operationTypeName(op.type));
  auto relu = reluRange(op.type);
  if (quantized && relu) {
    // XNNPACK clamps raw quantized values.
    ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
    ANNRT_RETURN_IF_ERROR(checkQuantizedRange(*relu, output));
  }
  if (quantized && op.type == OperationType::LOGISTIC) {
    // XNNPACK's quantized sigmoid requires NNAPI's fixed output quantization.
    const int32_t zero = output.type == OperandType::TENSOR_QUANT8_ASYMM ? 0 : -128;
    ANNRT_CPU_REQUIRE(output.scale == 1.0f / 256.0f && output.zeroPoint == zero,
                      "LOGISTIC output quantization ({}, {}) is not (1/256, {})", output.scale,
                      output.zeroPoint, zero);
  }
  if (context.checking()) return {};
  if (!quantized || relu || op.type == OperationType::LOGISTIC) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
    return defineUnary(context, op, in, out);
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0,
                                 [&](uint32_t out) { return defineUnary(context, op, in, out); });
}

// XNNPACK's softmax works along the last axis with beta 1; another beta
// scales the input first.
Result<void> lowerSoftmax(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  ANNRT_ASSIGN_OR_RETURN(float beta, context.floatScalar(op, 1));
  ANNRT_CPU_REQUIRE(beta > 0.0f, "beta {} must be positive", beta);
  if (op.inputs.size() > 2) {
    ANNRT_ASSIGN_OR_RETURN(int32_t axis, context.intScalar(op, 2));
    const int32_t last = static_cast<int32_t>(rank(input)) - 1;
    ANNRT_CPU_REQUIRE(axis == -1 || axis == last, "softmax only along the last axis, not {}", axis);
  }
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0, [&](uint32_t out) -> Result<void> {
    uint32_t x = in;
    if (beta != 1.0f) {
      ANNRT_ASSIGN_OR_RETURN(uint32_t betaValue, context.staticValue({1}, {beta}));
      ANNRT_ASSIGN_OR_RETURN(x, context.internalValue(input.dims));
      ANNRT_RETURN_IF_ERROR(checkXnn(
          xnn_define_multiply2(context.subgraph(), -INFINITY, INFINITY, in, betaValue, x, 0),
          "xnn_define_multiply2"));
    }
    return checkXnn(xnn_define_softmax(context.subgraph(), x, out, 0), "xnn_define_softmax");
  });
}

// PRELU with a constant alpha that varies at most along the last (channel)
// axis is XNNPACK's PReLU with a per-channel slope. XNNPACK has no quantized
// PReLU: quantized inputs and alpha are dequantized (alpha here, once).
Result<void> lowerPrelu(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 2, "unexpected input count {}", op.inputs.size());
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0, 1}));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, 1));
  const Shape& input = context.input(op, 0).shape;
  const Shape& alpha = context.input(op, 1).shape;
  ANNRT_CPU_REQUIRE(context.output(op, 0).shape.dims == input.dims,
                    "output shape differs from the input's");
  const uint32_t channels = input.dims.back();
  ANNRT_CPU_REQUIRE(rank(alpha) >= 1 && rank(alpha) <= rank(input), "alpha {} vs input {}",
                    toString(alpha.dims), toString(input.dims));
  for (uint32_t d = 0; d + 1 < rank(alpha); ++d) {
    ANNRT_CPU_REQUIRE(alpha.dims[d] == 1, "alpha {} varies along more than the channels",
                      toString(alpha.dims));
  }
  ANNRT_CPU_REQUIRE(alpha.dims.back() == channels || alpha.dims.back() == 1,
                    "alpha {} does not broadcast to {} channels", toString(alpha.dims), channels);
  if (context.checking()) return {};
  const uint8_t* data = context.tensorData(op.inputs[1]);
  ANNRT_CPU_REQUIRE(data != nullptr, "alpha has no data");
  const std::vector<float> real = dequantize(alpha, data);
  std::vector<float> slope(channels);
  for (uint32_t c = 0; c < channels; ++c) slope[c] = real[alpha.dims.back() == 1 ? 0 : c];
  ANNRT_ASSIGN_OR_RETURN(uint32_t slopeValue, context.staticValue({channels}, std::move(slope)));
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0, [&](uint32_t out) {
    return checkXnn(xnn_define_prelu(context.subgraph(), in, slopeValue, out, 0),
                    "xnn_define_prelu");
  });
}

}  // namespace annrt::cpu
