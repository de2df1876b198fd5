// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// NNAPI operation -> XNNPACK node(s). Every lowering checks the operation
// (types, constant parameters, layout, shapes) and returns OP_FAILED naming
// the first unsupported thing; when the context is building, it then defines
// the nodes. Float32 (and relaxed float32) and quant8 asymm (signed)
// operations are lowered.
#pragma once

#include <optional>

#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/window.h"

namespace annrt::cpu {

// Checks (and, when building, lowers) one operation of context.model().main.
Result<void> lowerOperation(LoweringContext& context, const Operation& op);

// The per-family lowerings lowerOperation dispatches to.
Result<void> lowerConvolution(LoweringContext& context, const Operation& op);
Result<void> lowerFullyConnected(LoweringContext& context, const Operation& op);
Result<void> lowerPooling(LoweringContext& context, const Operation& op);
Result<void> lowerBinary(LoweringContext& context, const Operation& op);
Result<void> lowerUnary(LoweringContext& context, const Operation& op);
Result<void> lowerSoftmax(LoweringContext& context, const Operation& op);
Result<void> lowerReshape(LoweringContext& context, const Operation& op);
Result<void> lowerPad(LoweringContext& context, const Operation& op);
Result<void> lowerResize(LoweringContext& context, const Operation& op);
Result<void> lowerDepthToSpace(LoweringContext& context, const Operation& op);
Result<void> lowerConcatenation(LoweringContext& context, const Operation& op);
Result<void> lowerReduction(LoweringContext& context, const Operation& op);
Result<void> lowerConversion(LoweringContext& context, const Operation& op);
// CAST of a constant float16 tensor to float32 (float16 weights): folded into
// its consumers; a node only where the float32 tensor is itself an output.
Result<void> lowerCast(LoweringContext& context, const Operation& op);
Result<void> lowerPrelu(LoweringContext& context, const Operation& op);
// TRANSPOSE_CONV_2D and com.annrt.tflite's CONVOLUTION_2D_TRANSPOSE_BIAS.
Result<void> lowerTransposedConvolution(LoweringContext& context, const Operation& op);
Result<void> lowerBatchMatmul(LoweringContext& context, const Operation& op);

// The clamp range of an NNAPI fused activation code held by input i.
Result<OutputRange> fusedActivation(const LoweringContext& context, const Operation& op,
                                    uint32_t i);
// The clamp range of RELU, RELU1 and RELU6; none for other operations.
std::optional<OutputRange> reluRange(OperationType type);
// Whether `op` is com.annrt.tflite's CONVOLUTION_2D_TRANSPOSE_BIAS (code 0),
// which the TFLite importer emits for MediaPipe's Convolution2DTransposeBias.
bool isTransposeConvBias(const LoweringContext& context, const Operation& op);
bool isTransposeConvBias(const Model& model, const Operation& op);
// RESIZE_BILINEAR's corner flags, the operation checked (NHWC, sizes that
// agree with the output's dims) for XNNPACK and annrt-cpu's own kernel.
struct ResizeFlags {
  bool alignCorners = false, halfPixelCenters = false;
};
Result<ResizeFlags> readResize(const LoweringContext& context, const Operation& op);
// AVERAGE_POOL_2D's and MAX_POOL_2D's window and fused activation, the
// operation checked (NHWC, paddings smaller than the window, the output's
// size) for XNNPACK and annrt-cpu's own kernel.
struct PoolOp {
  Window window;
  OutputRange range;
  bool global = false;  // the window covers the whole unpadded image
  bool single = false;  // a 1x1 window: a clamp of (strided) input pixels
};
Result<PoolOp> readPool(const LoweringContext& context, const Operation& op);
// MEAN's, REDUCE_SUM's, REDUCE_MAX's or REDUCE_MIN's one contiguous run of
// axes, the operation checked (the output's dims, keep_dims or not): the
// input is [outer, reduced, inner].
struct Reduction {
  uint32_t outer = 1, reduced = 1, inner = 1;
  // A rank-4 NHWC input reduced over height and width is pooled as it is
  // (window height x width); otherwise its [outer, 1, reduced, inner] view is
  // pooled with a 1 x reduced window.
  bool spatial = false;
  uint32_t poolHeight = 1, poolWidth = 1;
};
Result<Reduction> readReduction(const LoweringContext& context, const Operation& op);
// CONCATENATION's axis (0 to rank - 1), the operation checked (inputs of
// the output's rank that match it off the axis and add up to it along it).
Result<uint32_t> readConcatenation(const LoweringContext& context, const Operation& op);
// Input i, if present, must be a constant BOOL false (NHWC layout).
Result<void> requireNhwc(const LoweringContext& context, const Operation& op, uint32_t i);

}  // namespace annrt::cpu
