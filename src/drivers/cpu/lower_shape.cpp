// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Shape and data-movement ops with static shapes: RESHAPE, SQUEEZE and
// EXPAND_DIMS (to the output's known dims), PAD and PAD_V2 (constant
// paddings), RESIZE_BILINEAR and DEPTH_TO_SPACE (NHWC), CONCATENATION, and
// the conversions QUANTIZE and DEQUANTIZE. Quantized data moves on raw values
// where NNAPI keeps the quantization (reshapes, padding, resizing).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

std::vector<size_t> toSizes(const std::vector<uint32_t>& dims) {
  return {dims.begin(), dims.end()};
}

}  // namespace

Result<void> lowerReshape(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(elementCount(input) == elementCount(output),
                    "output {} has another element count than input {}", toString(output.dims),
                    toString(input.dims));
  // The output's dims are used; the shape/axis parameters must be constants
  // so that they cannot disagree with them at execution time.
  for (uint32_t i = 1; i < op.inputs.size(); ++i) {
    if (!context.isOmitted(op, i)) ANNRT_RETURN_IF_ERROR(context.checkConstant(op, i));
  }
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  const std::vector<size_t> shape = toSizes(output.dims);
  return checkXnn(
      xnn_define_static_reshape(context.subgraph(), shape.size(), shape.data(), in, out, 0),
      "xnn_define_static_reshape");
}

// The real value PAD_V2 pads with (PAD pads with 0, the zero point). XNNPACK
// quantizes it with the output's scale and zero point; a quantized pad value
// is an INT32 already on that scale, which survives the round trip exactly.
Result<float> padValue(const LoweringContext& context, const Operation& op) {
  if (op.type != OperationType::PAD_V2) return 0.0f;
  const Shape& output = context.output(op, 0).shape;
  if (!isQuantized8(output.type)) return context.floatScalar(op, 2);
  ANNRT_ASSIGN_OR_RETURN(int32_t q, context.intScalar(op, 2));
  const bool isSigned = output.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  ANNRT_CPU_REQUIRE(q >= (isSigned ? -128 : 0) && q <= (isSigned ? 127 : 255),
                    "pad value {} is outside the output type's range", q);
  return static_cast<float>(q - output.zeroPoint) * output.scale;
}

Result<void> lowerPad(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> paddings, context.intTensor(op, 1));
  ANNRT_CPU_REQUIRE(paddings.size() == size_t{2} * rank(input), "paddings do not match rank {}",
                    rank(input));
  ANNRT_ASSIGN_OR_RETURN(float value, padValue(context, op));
  std::vector<size_t> before(rank(input)), after(rank(input));
  for (size_t axis = 0; axis < rank(input); ++axis) {
    ANNRT_CPU_REQUIRE(paddings[2 * axis] >= 0 && paddings[2 * axis + 1] >= 0, "negative paddings");
    before[axis] = static_cast<size_t>(paddings[2 * axis]);
    after[axis] = static_cast<size_t>(paddings[2 * axis + 1]);
    ANNRT_CPU_REQUIRE(output.dims[axis] == input.dims[axis] + before[axis] + after[axis],
                      "output {} does not match the paddings", toString(output.dims));
  }
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_static_constant_pad(context.subgraph(), before.data(), after.data(),
                                                 value, in, out, 0),
                  "xnn_define_static_constant_pad");
}

namespace {

// XNNPACK sizes the output from the output operand alone, so the size or
// scale scalars must agree with it (and give a non-empty image), as the
// reference device requires.
Result<void> checkResizeSize(const LoweringContext& context, const Operation& op,
                             const Shape& input, const Shape& output) {
  int64_t width = 0, height = 0;
  if (context.input(op, 1).shape.type == OperandType::INT32) {
    ANNRT_ASSIGN_OR_RETURN(int32_t w, context.intScalar(op, 1));
    ANNRT_ASSIGN_OR_RETURN(int32_t h, context.intScalar(op, 2));
    width = w;
    height = h;
  } else {
    ANNRT_ASSIGN_OR_RETURN(float w, context.floatScalar(op, 1));
    ANNRT_ASSIGN_OR_RETURN(float h, context.floatScalar(op, 2));
    width = static_cast<int64_t>(std::floor(static_cast<double>(input.dims[2]) * w));
    height = static_cast<int64_t>(std::floor(static_cast<double>(input.dims[1]) * h));
  }
  ANNRT_CPU_REQUIRE(width > 0 && height > 0, "output size {}x{} is empty", width, height);
  ANNRT_CPU_REQUIRE(output.dims[1] == height && output.dims[2] == width,
                    "output {} does not match the requested size {}x{}", toString(output.dims),
                    height, width);
  return {};
}

}  // namespace

// Inputs: image, width (or scale), height (or scale), [layout, align corners,
// half-pixel centers]. The output's dims give the size either way.
Result<ResizeFlags> readResize(const LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(output) == 4, "input and output must have rank 4");
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, 3));
  ResizeFlags flags;
  if (op.inputs.size() > 4) {
    ANNRT_ASSIGN_OR_RETURN(flags.alignCorners, context.boolScalar(op, 4));
  }
  if (op.inputs.size() > 5) {
    ANNRT_ASSIGN_OR_RETURN(flags.halfPixelCenters, context.boolScalar(op, 5));
  }
  ANNRT_CPU_REQUIRE(!(flags.alignCorners && flags.halfPixelCenters),
                    "align_corners with half_pixel_centers");
  ANNRT_CPU_REQUIRE(output.dims[0] == input.dims[0] && output.dims[3] == input.dims[3],
                    "output {} does not match input {}", toString(output.dims),
                    toString(input.dims));
  ANNRT_RETURN_IF_ERROR(checkResizeSize(context, op, input, output));
  return flags;
}

Result<void> lowerResize(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(ResizeFlags resize, readResize(context, op));
  if (context.checking()) return {};
  const Shape& output = context.output(op, 0).shape;
  const uint32_t flags = resize.alignCorners       ? XNN_FLAG_ALIGN_CORNERS
                         : resize.halfPixelCenters ? 0
                                                   : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_static_resize_bilinear_2d(context.subgraph(), output.dims[1],
                                                       output.dims[2], in, out, flags),
                  "xnn_define_static_resize_bilinear_2d");
}

// XNNPACK's depth-to-space moves 32-bit elements only, so quantized data goes
// through float32 (dequantizing and requantizing on one scale is exact).
Result<void> lowerDepthToSpace(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, 2));
  ANNRT_ASSIGN_OR_RETURN(int32_t block, context.intScalar(op, 1));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(block > 1 && rank(input) == 4 && rank(output) == 4,
                    "block size {} > 1 and rank-4 tensors needed", block);
  const uint32_t b = static_cast<uint32_t>(block);
  ANNRT_CPU_REQUIRE(input.dims[3] % (b * b) == 0 && output.dims[1] == input.dims[1] * b &&
                        output.dims[2] == input.dims[2] * b,
                    "output {} does not match input {} and block {}", toString(output.dims),
                    toString(input.dims), b);
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0, [&](uint32_t out) {
    return checkXnn(xnn_define_depth_to_space(context.subgraph(), in, out, b, 0),
                    "xnn_define_depth_to_space");
  });
}

namespace {

// Pads an input of a concatenation to the output's shape, at its place along
// the axis; the padding is the real value 0 (its zero point).
Result<uint32_t> padToOutput(LoweringContext& context, const Operation& op, uint32_t i,
                             uint32_t axis, uint32_t offset) {
  const Shape& input = context.input(op, i).shape;
  const Shape& output = context.output(op, 0).shape;
  std::vector<size_t> before(rank(output), 0), after(rank(output), 0);
  before[axis] = offset;
  after[axis] = output.dims[axis] - offset - input.dims[axis];
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, i));
  ANNRT_ASSIGN_OR_RETURN(uint32_t padded, context.internalValueLike(output.dims, op.inputs[i]));
  ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_static_constant_pad(context.subgraph(), before.data(),
                                                                after.data(), 0.0f, in, padded, 0),
                                 "xnn_define_static_constant_pad"));
  return padded;
}

// A copy of op input 0 into output 0 (the same shape), requantizing through
// float32 when the quantizations differ.
Result<void> defineCopy(LoweringContext& context, const Operation& op) {
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  const std::vector<size_t> dims(output.dims.begin(), output.dims.end());
  auto reshape = [&](uint32_t in, uint32_t out) {
    return checkXnn(
        xnn_define_static_reshape(context.subgraph(), dims.size(), dims.data(), in, out, 0),
        "xnn_define_static_reshape");
  };
  if (input.scale == output.scale && input.zeroPoint == output.zeroPoint) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
    return reshape(in, out);
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0, [&](uint32_t out) { return reshape(in, out); });
}

}  // namespace

Result<uint32_t> readConcatenation(const LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() >= 2, "CONCATENATION needs inputs and an axis");
  const uint32_t count = static_cast<uint32_t>(op.inputs.size()) - 1;
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  for (uint32_t i = 0; i < count; ++i) ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {i}));
  const Shape& output = context.output(op, 0).shape;
  ANNRT_ASSIGN_OR_RETURN(int32_t axisValue, context.intScalar(op, count));
  const int32_t outRank = static_cast<int32_t>(rank(output));
  ANNRT_CPU_REQUIRE(axisValue >= -outRank && axisValue < outRank, "axis {} out of range",
                    axisValue);
  const uint32_t axis = static_cast<uint32_t>(axisValue < 0 ? axisValue + outRank : axisValue);
  uint32_t total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const Shape& input = context.input(op, i).shape;
    ANNRT_CPU_REQUIRE(rank(input) == rank(output), "input {} has rank {}, output {}", i,
                      rank(input), rank(output));
    for (uint32_t d = 0; d < rank(output); ++d) {
      ANNRT_CPU_REQUIRE(d == axis || input.dims[d] == output.dims[d],
                        "input {} {} does not match output {} off axis {}", i, toString(input.dims),
                        toString(output.dims), axis);
    }
    total += input.dims[axis];
  }
  ANNRT_CPU_REQUIRE(total == output.dims[axis], "inputs add up to {} along axis {}, output has {}",
                    total, axis, output.dims[axis]);
  return axis;
}

// The 2022-02 XNNPACK subgraph API has no concatenation (nor a copy with
// strides), so each input is padded with zeros to the output's shape at its
// offset and the padded tensors are added. Adding zeros is exact in float32;
// quantized, the padding holds each input's zero point (contributing exactly
// 0) and XNNPACK's add requantizes each input to the output's scale as NNAPI
// does, exactly when the scales are equal. It costs a few memory-bound passes
// but keeps the partition in one XNNPACK runtime.
Result<void> lowerConcatenation(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axis, readConcatenation(context, op));
  const uint32_t count = static_cast<uint32_t>(op.inputs.size()) - 1;
  std::vector<uint32_t> tensors(count);
  for (uint32_t i = 0; i < count; ++i) tensors[i] = i;
  const Shape& output = context.output(op, 0).shape;
  for (uint32_t i : tensors) {
    const Shape& input = context.input(op, i).shape;
    if (isQuantized8(output.type) && count > 1) {
      const float ratio = input.scale / output.scale;
      ANNRT_CPU_REQUIRE(ratio >= 0x1.0p-10f && ratio < 0x1.0p+8f,
                        "input {} scale {} / output scale {} is outside XNNPACK's add range "
                        "[2^-10, 2^8)",
                        i, input.scale, output.scale);
    }
  }
  if (context.checking()) return {};
  if (count == 1) return defineCopy(context, op);
  uint32_t offset = 0;
  uint32_t sum = XNN_INVALID_VALUE_ID;
  for (uint32_t i : tensors) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t padded, padToOutput(context, op, i, axis, offset));
    offset += context.input(op, i).shape.dims[axis];
    if (i == 0) {
      sum = padded;
      continue;
    }
    uint32_t next = XNN_INVALID_VALUE_ID;
    if (i + 1 == count) {
      ANNRT_ASSIGN_OR_RETURN(next, context.outputValue(op, 0));
    } else {
      ANNRT_ASSIGN_OR_RETURN(next, context.internalValueLike(output.dims, op.outputs[0]));
    }
    ANNRT_RETURN_IF_ERROR(
        checkXnn(xnn_define_add2(context.subgraph(), -INFINITY, INFINITY, sum, padded, next, 0),
                 "xnn_define_add2"));
    sum = next;
  }
  return {};
}

// QUANTIZE (float32 -> quant8) and DEQUANTIZE (quant8 -> float32) are
// XNNPACK converts. Float16 sides and the symmetric / per-channel
// DEQUANTIZE inputs have no XNNPACK datatype.
Result<void> lowerConversion(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 1 && op.outputs.size() == 1, "unexpected operands");
  ANNRT_RETURN_IF_ERROR(context.checkTensor(op.inputs[0]));
  ANNRT_RETURN_IF_ERROR(context.checkTensor(op.outputs[0]));
  const OperandType from = context.inputType(op, 0);
  const OperandType to = context.output(op, 0).shape.type;
  if (op.type == OperationType::QUANTIZE) {
    ANNRT_CPU_REQUIRE(from == OperandType::TENSOR_FLOAT32 && isQuantized8(to),
                      "QUANTIZE is lowered from float32 to quant8 only");
  } else {
    ANNRT_CPU_REQUIRE(isQuantized8(from) && to == OperandType::TENSOR_FLOAT32,
                      "DEQUANTIZE is lowered from quant8 asymm to float32 only");
  }
  ANNRT_CPU_REQUIRE(context.input(op, 0).shape.dims == context.output(op, 0).shape.dims,
                    "output shape differs from the input's");
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_convert(context.subgraph(), in, out, 0), "xnn_define_convert");
}

Result<void> lowerCast(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(context.isFoldedCast(op),
                    "CAST is lowered only from a constant float16 tensor to float32");
  if (context.checking()) return {};
  const auto& outputs = context.model().main.outputIndexes;
  if (std::find(outputs.begin(), outputs.end(), op.outputs[0]) == outputs.end()) return {};
  // The float32 weights are an output (of a partition): copy the folded
  // constant into it with an unbounded clamp.
  const Shape& shape = context.output(op, 0).shape;
  const uint8_t* data = context.tensorData(op.outputs[0]);
  ANNRT_CPU_REQUIRE(data != nullptr, "the float16 constant has no data");
  std::vector<float> values(elementCount(shape));
  std::memcpy(values.data(), data, values.size() * sizeof(float));
  ANNRT_ASSIGN_OR_RETURN(uint32_t folded, context.staticValue(shape.dims, std::move(values)));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_clamp(context.subgraph(), -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::infinity(), folded, out, 0),
                  "xnn_define_clamp");
}

}  // namespace annrt::cpu
