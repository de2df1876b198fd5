// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Shape and data-movement ops with static shapes: RESHAPE, SQUEEZE and
// EXPAND_DIMS (to the output's known dims), PAD and PAD_V2 (constant
// paddings), RESIZE_BILINEAR and DEPTH_TO_SPACE (NHWC).
#include <cmath>

#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

std::vector<size_t> toSizes(const std::vector<uint32_t>& dims) {
  return {dims.begin(), dims.end()};
}

}  // namespace

Result<void> lowerReshape(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
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

Result<void> lowerPad(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> paddings, context.intTensor(op, 1));
  ANNRT_CPU_REQUIRE(paddings.size() == 2 * rank(input), "paddings do not match rank {}",
                    rank(input));
  float value = 0.0f;
  if (op.type == OperationType::PAD_V2) {
    ANNRT_ASSIGN_OR_RETURN(value, context.floatScalar(op, 2));
  }
  std::vector<size_t> before(rank(input)), after(rank(input));
  for (uint32_t axis = 0; axis < rank(input); ++axis) {
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
Result<void> lowerResize(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(output) == 4, "input and output must have rank 4");
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, 3));
  bool alignCorners = false, halfPixel = false;
  if (op.inputs.size() > 4) {
    ANNRT_ASSIGN_OR_RETURN(alignCorners, context.boolScalar(op, 4));
  }
  if (op.inputs.size() > 5) {
    ANNRT_ASSIGN_OR_RETURN(halfPixel, context.boolScalar(op, 5));
  }
  ANNRT_CPU_REQUIRE(!(alignCorners && halfPixel), "align_corners with half_pixel_centers");
  ANNRT_CPU_REQUIRE(output.dims[0] == input.dims[0] && output.dims[3] == input.dims[3],
                    "output {} does not match input {}", toString(output.dims),
                    toString(input.dims));
  ANNRT_RETURN_IF_ERROR(checkResizeSize(context, op, input, output));
  if (context.checking()) return {};
  const uint32_t flags = alignCorners ? XNN_FLAG_ALIGN_CORNERS
                         : halfPixel  ? 0
                                      : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_static_resize_bilinear_2d(context.subgraph(), output.dims[1],
                                                       output.dims[2], in, out, flags),
                  "xnn_define_static_resize_bilinear_2d");
}

Result<void> lowerDepthToSpace(LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
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
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_depth_to_space(context.subgraph(), in, out, b, 0),
                  "xnn_define_depth_to_space");
}

}  // namespace annrt::cpu
