// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D in NHWC. XNNPACK's average pooling, like
// NNAPI's, averages over the valid (unpadded) taps only.
//
// Quantized: max pooling and global average pooling (the window is the whole
// unpadded image) have quantized XNNPACK kernels; other average poolings have
// none in the subgraph API and run in float32 between exact dequantize and one
// quantize node.
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

bool isGlobal(const Window& w, const Shape& input) {
  return w.filterHeight == input.dims[1] && w.filterWidth == input.dims[2] && w.padTop == 0 &&
         w.padBottom == 0 && w.padLeft == 0 && w.padRight == 0;
}

}  // namespace

Result<PoolOp> readPool(const LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  const WindowForm form = windowForm(context, op, /*first=*/1, /*extra=*/2);
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, form.layoutIndex));
  ANNRT_ASSIGN_OR_RETURN(int32_t filterWidth, context.intScalar(op, form.strideIndex + 2));
  ANNRT_ASSIGN_OR_RETURN(int32_t filterHeight, context.intScalar(op, form.strideIndex + 3));
  ANNRT_CPU_REQUIRE(filterWidth > 0 && filterHeight > 0, "filter size must be positive");
  PoolOp pool;
  ANNRT_ASSIGN_OR_RETURN(pool.window,
                         readWindow(context, op, form, false, filterHeight, filterWidth));
  ANNRT_ASSIGN_OR_RETURN(pool.range, fusedActivation(context, op, form.activationIndex));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  const Window& w = pool.window;
  ANNRT_CPU_REQUIRE(rank(input) == 4, "input must have rank 4");
  pool.global = op.type == OperationType::AVERAGE_POOL_2D && isGlobal(w, input);
  pool.single = !pool.global && filterWidth == 1 && filterHeight == 1;
  if (context.quantized(op)) {
    // The quantized kernels compare or average raw values on one scale, as
    // NNAPI requires of pooling.
    ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
    ANNRT_RETURN_IF_ERROR(checkQuantizedRange(pool.range, output));
  }
  ANNRT_CPU_REQUIRE(w.padTop < w.filterHeight && w.padBottom < w.filterHeight &&
                        w.padLeft < w.filterWidth && w.padRight < w.filterWidth,
                    "paddings must be smaller than the pooling window");
  ANNRT_RETURN_IF_ERROR(checkWindowOutput(w, input, output));
  ANNRT_CPU_REQUIRE(output.dims[3] == input.dims[3], "output channels differ from the input's");
  return pool;
}

// XNNPACK's pooling needs windows of more than one pixel. A 1x1 window with
// stride 1 is a clamp to the fused activation; with a larger stride it is a
// 1x1 depthwise convolution with unit weights (exact in float32; quantized
// data goes through float32 on its one scale, which is exact too).
Result<void> defineSinglePixelPool(LoweringContext& context, const Operation& op,
                                   const PoolOp& pool) {
  const Window& w = pool.window;
  if (w.strideHeight == 1 && w.strideWidth == 1) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.inputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(uint32_t output, context.outputValue(op, 0));
    return checkXnn(
        xnn_define_clamp(context.subgraph(), pool.range.min, pool.range.max, input, output, 0),
        "xnn_define_clamp");
  }
  const uint32_t channels = context.input(op, 0).shape.dims[3];
  ANNRT_ASSIGN_OR_RETURN(uint32_t ones,
                         context.staticValue({1, 1, 1, channels}, std::vector<float>(channels, 1)));
  ANNRT_ASSIGN_OR_RETURN(uint32_t zeros,
                         context.staticValue({channels}, std::vector<float>(channels, 0)));
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0, [&](uint32_t output) {
    return checkXnn(xnn_define_depthwise_convolution_2d(
                        context.subgraph(), 0, 0, 0, 0, 1, 1, w.strideHeight, w.strideWidth, 1, 1,
                        1, channels, pool.range.min, pool.range.max, input, ones, zeros, output, 0),
                    "xnn_define_depthwise_convolution_2d");
  });
}

Result<void> lowerPooling(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(PoolOp pool, readPool(context, op));
  if (context.checking()) return {};
  if (pool.single) return defineSinglePixelPool(context, op, pool);
  const Window& w = pool.window;
  if (op.type == OperationType::MAX_POOL_2D || pool.global) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.inputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(uint32_t output, context.outputValue(op, 0));
    if (pool.global) {
      return checkXnn(xnn_define_global_average_pooling_2d(context.subgraph(), pool.range.min,
                                                           pool.range.max, input, output, 0),
                      "xnn_define_global_average_pooling_2d");
    }
    return checkXnn(
        xnn_define_max_pooling_2d(context.subgraph(), w.padTop, w.padRight, w.padBottom, w.padLeft,
                                  w.filterHeight, w.filterWidth, w.strideHeight, w.strideWidth, 1,
                                  1, pool.range.min, pool.range.max, input, output, 0),
        "xnn_define_max_pooling_2d");
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.floatInputValue(op, 0));
  return context.withFloatOutput(op, 0, [&](uint32_t output) {
    return checkXnn(xnn_define_average_pooling_2d(context.subgraph(), w.padTop, w.padRight,
                                                  w.padBottom, w.padLeft, w.filterHeight,
                                                  w.filterWidth, w.strideHeight, w.strideWidth,
                                                  pool.range.min, pool.range.max, input, output, 0),
                    "xnn_define_average_pooling_2d");
  });
}

}  // namespace annrt::cpu
