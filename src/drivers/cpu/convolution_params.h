// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The checked parameters of CONV_2D, GROUPED_CONV_2D and DEPTHWISE_CONV_2D,
// read once for the XNNPACK lowering (lower_convolution.cpp) and annrt-cpu's
// own kernels (native_convolution.cpp).
#pragma once

#include <string>

#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/window.h"

namespace annrt::cpu {

struct ConvParams {
  Window window;
  OutputRange range;
  uint32_t inChannels = 0, outChannels = 0, depthMultiplier = 1, groups = 1;
  bool depthwise = false;
  // Why a quantized op runs in float32; empty on XNNPACK's native kernels.
  std::string floatReason;
};

// Checks the op (NHWC, constant filter and bias of the input's type, the
// output's shape) and reads its parameters.
Result<ConvParams> readConvolution(const LoweringContext& context, const Operation& op);

// One axis of a transposed convolution: NNAPI's output is
// in * stride + filter - stride - head - tail; XNNPACK's
// (in - 1) * stride + filter + adjustment - head - tail. Implicit SAME padding
// may give a negative tail (the larger output size), which is an adjustment
// (always below the stride) for XNNPACK.
struct DeconvAxis {
  uint32_t head = 0, tail = 0, adjustment = 0;
};

struct DeconvParams {
  DeconvAxis vertical, horizontal;
  uint32_t strideHeight = 1, strideWidth = 1;
  OutputRange range;
  std::string floatReason;  // as in ConvParams
};

// TRANSPOSE_CONV_2D, or MediaPipe's Convolution2DTransposeBias (the
// com.annrt.tflite extension operation): checked, with its parameters.
Result<DeconvParams> readTransposedConvolution(const LoweringContext& context, const Operation& op);

}  // namespace annrt::cpu
