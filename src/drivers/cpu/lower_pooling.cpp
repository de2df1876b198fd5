// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D in NHWC. XNNPACK's average pooling, like
// NNAPI's, averages over the valid (unpadded) taps only.
#include "drivers/cpu/op_lowering.h"
#include "drivers/cpu/window.h"

namespace annrt::cpu {
namespace {

struct PoolOp {
  Window window;
  OutputRange range;
};

Result<PoolOp> readPool(const LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  const WindowForm form = windowForm(context, op, /*first=*/1, /*extra=*/2);
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, form.layoutIndex));
  ANNRT_ASSIGN_OR_RETURN(int32_t filterWidth, context.intScalar(op, form.strideIndex + 2));
  ANNRT_ASSIGN_OR_RETURN(int32_t filterHeight, context.intScalar(op, form.strideIndex + 3));
  ANNRT_CPU_REQUIRE(filterWidth > 0 && filterHeight > 0, "filter size must be positive");
  // XNNPACK has no 1x1 pooling operator (it is a copy or a clamp).
  ANNRT_CPU_REQUIRE(filterWidth * filterHeight > 1, "1x1 pooling is not supported");
  PoolOp pool;
  ANNRT_ASSIGN_OR_RETURN(pool.window, readWindow(context, op, form, false, filterHeight,
                                                 filterWidth));
  ANNRT_ASSIGN_OR_RETURN(pool.range, fusedActivation(context, op, form.activationIndex));
  const Window& w = pool.window;
  ANNRT_CPU_REQUIRE(w.padTop < w.filterHeight && w.padBottom < w.filterHeight &&
                        w.padLeft < w.filterWidth && w.padRight < w.filterWidth,
                    "paddings must be smaller than the pooling window");
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_RETURN_IF_ERROR(checkWindowOutput(w, input, output));
  ANNRT_CPU_REQUIRE(output.dims[3] == input.dims[3], "output channels differ from the input's");
  return pool;
}

}  // namespace

Result<void> lowerPooling(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(PoolOp pool, readPool(context, op));
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.inputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, context.outputValue(op, 0));
  const Window& w = pool.window;
  if (op.type == OperationType::MAX_POOL_2D) {
    return checkXnn(xnn_define_max_pooling_2d(context.subgraph(), w.padTop, w.padRight,
                                              w.padBottom, w.padLeft, w.filterHeight,
                                              w.filterWidth, w.strideHeight, w.strideWidth, 1, 1,
                                              pool.range.min, pool.range.max, input, output, 0),
                    "xnn_define_max_pooling_2d");
  }
  return checkXnn(xnn_define_average_pooling_2d(context.subgraph(), w.padTop, w.padRight,
                                                w.padBottom, w.padLeft, w.filterHeight,
                                                w.filterWidth, w.strideHeight, w.strideWidth,
                                                pool.range.min, pool.range.max, input, output, 0),
                  "xnn_define_average_pooling_2d");
}

}  // namespace annrt::cpu
