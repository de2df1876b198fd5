// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/window.h"

#include "ops/util/shape_helpers.h"

namespace annrt::cpu {
namespace {

uint32_t windowOutput(uint32_t in, uint32_t padHead, uint32_t padTail, uint32_t filter,
                      uint32_t stride, uint32_t dilation) {
  const uint64_t padded = uint64_t{in} + padHead + padTail;
  const uint64_t extent = uint64_t{filter - 1} * dilation + 1;
  return padded < extent ? 0 : static_cast<uint32_t>((padded - extent) / stride + 1);
}

Result<uint32_t> positive(const LoweringContext& context, const Operation& op, uint32_t i) {
  ANNRT_ASSIGN_OR_RETURN(int32_t value, context.intScalar(op, i));
  ANNRT_CPU_REQUIRE(value > 0, "input {} must be positive, got {}", i, value);
  return static_cast<uint32_t>(value);
}

Result<uint32_t> nonNegative(const LoweringContext& context, const Operation& op, uint32_t i) {
  ANNRT_ASSIGN_OR_RETURN(int32_t value, context.intScalar(op, i));
  ANNRT_CPU_REQUIRE(value >= 0, "input {} must not be negative, got {}", i, value);
  return static_cast<uint32_t>(value);
}

}  // namespace

WindowForm windowForm(const LoweringContext& context, const Operation& op, uint32_t first,
                      uint32_t extra) {
  const uint32_t implicitBase = first + 1 + 2 + extra + 1;
  const uint32_t explicitBase = implicitBase + 3;
  const uint32_t count = static_cast<uint32_t>(op.inputs.size());
  WindowForm form;
  form.explicitPadding =
      count >= explicitBase && context.input(op, implicitBase).shape.type != OperandType::BOOL;
  form.paddingIndex = first;
  form.strideIndex = first + (form.explicitPadding ? 4 : 1);
  form.activationIndex = form.strideIndex + 2 + extra;
  form.layoutIndex = form.activationIndex + 1;
  return form;
}

Result<Window> readWindow(const LoweringContext& context, const Operation& op,
                          const WindowForm& form, bool hasDilation, uint32_t filterHeight,
                          uint32_t filterWidth) {
  Window w;
  w.filterHeight = filterHeight;
  w.filterWidth = filterWidth;
  ANNRT_ASSIGN_OR_RETURN(w.strideWidth, positive(context, op, form.strideIndex));
  ANNRT_ASSIGN_OR_RETURN(w.strideHeight, positive(context, op, form.strideIndex + 1));
  if (hasDilation && op.inputs.size() >= form.layoutIndex + 3) {
    ANNRT_ASSIGN_OR_RETURN(w.dilationWidth, positive(context, op, form.layoutIndex + 1));
    ANNRT_ASSIGN_OR_RETURN(w.dilationHeight, positive(context, op, form.layoutIndex + 2));
  }
  if (form.explicitPadding) {
    ANNRT_ASSIGN_OR_RETURN(w.padLeft, nonNegative(context, op, form.paddingIndex));
    ANNRT_ASSIGN_OR_RETURN(w.padRight, nonNegative(context, op, form.paddingIndex + 1));
    ANNRT_ASSIGN_OR_RETURN(w.padTop, nonNegative(context, op, form.paddingIndex + 2));
    ANNRT_ASSIGN_OR_RETURN(w.padBottom, nonNegative(context, op, form.paddingIndex + 3));
    return w;
  }
  ANNRT_ASSIGN_OR_RETURN(int32_t scheme, context.intScalar(op, form.paddingIndex));
  const Shape& input = context.input(op, 0).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4, "input must have rank 4");
  ANNRT_ASSIGN_OR_RETURN(
      ops::Padding vertical,
      ops::implicitPadding(scheme, input.dims[1], w.strideHeight, w.dilationHeight, filterHeight));
  ANNRT_ASSIGN_OR_RETURN(
      ops::Padding horizontal,
      ops::implicitPadding(scheme, input.dims[2], w.strideWidth, w.dilationWidth, filterWidth));
  w.padTop = vertical.head;
  w.padBottom = vertical.tail;
  w.padLeft = horizontal.head;
  w.padRight = horizontal.tail;
  return w;
}

Result<void> checkWindowOutput(const Window& w, const Shape& input, const Shape& output) {
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(output) == 4, "input and output must have rank 4");
  const uint32_t height = windowOutput(input.dims[1], w.padTop, w.padBottom, w.filterHeight,
                                       w.strideHeight, w.dilationHeight);
  const uint32_t width = windowOutput(input.dims[2], w.padLeft, w.padRight, w.filterWidth,
                                      w.strideWidth, w.dilationWidth);
  ANNRT_CPU_REQUIRE(
      output.dims[0] == input.dims[0] && output.dims[1] == height && output.dims[2] == width,
      "output {} does not match the window's {}x{}", toString(output.dims), height, width);
  return {};
}

}  // namespace annrt::cpu
