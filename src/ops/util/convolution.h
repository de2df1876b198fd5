// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The convolution core shared by CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D,
// TRANSPOSE_CONV_2D and FULLY_CONNECTED: signature parsing (explicit or
// implicit padding, optional layout and dilation), the input/filter/bias type
// rules, and one reference kernel for every operand type. Each op only
// describes how its filter is laid out (a Geometry); the kernel does the rest.
#pragma once

#include <cstdint>
#include <optional>

#include "ops/operation.h"

namespace annrt::ops::conv {

// Input 0 is the image, 1 the filter, 2 the bias, for every op here.
inline constexpr uint32_t kInput = 0;
inline constexpr uint32_t kFilter = 1;
inline constexpr uint32_t kBias = 2;

// Where the scalar inputs of a convolution-like op sit. Explicit padding has
// four INT32 paddings at `firstScalar`, implicit padding one padding scheme
// (after an output-shape tensor for TRANSPOSE_CONV_2D). Then come the two
// strides, `extraScalars` op-specific INT32s (depth multiplier, groups), the
// fused activation, the layout BOOL and the two dilation factors.
struct Signature {
  uint32_t firstScalar = 3;
  uint32_t extraScalars = 0;
  bool layoutRequired = false;
  bool hasDilation = false;
  bool implicitOutputShape = false;  // TRANSPOSE_CONV_2D: implicit form starts with a shape
};

// Checks the input count and the types of every input after the bias.
Result<void> validateScalars(const ValidationContext& context, const Signature& signature);

// Checks the image, filter, bias and output types. `perChannelDim` is the
// channel dimension a TENSOR_QUANT8_SYMM_PER_CHANNEL filter must use, or
// nullopt when the op takes no per-channel filter.
Result<void> validateTensors(const ValidationContext& context,
                             std::optional<uint32_t> perChannelDim);

// Both of the above, plus rank 4 image and filter and rank 1 bias when known:
// the whole validation of CONV_2D-like ops.
Result<void> validateImageOp(const ValidationContext& context, const Signature& signature,
                             std::optional<uint32_t> perChannelDim);

struct Params {
  bool explicitPadding = true;
  int32_t paddingScheme = 0;  // implicit padding only
  int32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  int32_t strideWidth = 1, strideHeight = 1;
  int32_t extra[2] = {0, 0};
  FusedActivation activation = FusedActivation::NONE;
  bool nchw = false;
  int32_t dilationWidth = 1, dilationHeight = 1;
};

// Reads the scalar inputs; checks strides, dilations and the activation code.
Result<Params> readParams(const ExecutionContext& context, const Signature& signature);

// An image shape with named axes, whatever the layout.
struct ImageDims {
  uint32_t batches = 0, height = 0, width = 0, channels = 0;
};
// Dims of a rank-4 image in the given layout.
ImageDims imageDims(const Shape& shape, bool nchw);
std::vector<uint32_t> toLayout(const ImageDims& dims, bool nchw);
// The input image's dims after checking that it and the filter have rank 4.
Result<ImageDims> inputImage(const ExecutionContext& context, bool nchw);

// Checks the bias shape and, for quantized ops, the bias and per-channel
// scales against `outChannels` output channels.
Result<void> checkBiasAndQuantization(const ExecutionContext& context, uint32_t outChannels);

// Everything the kernel needs, in NHWC terms. Output channel `oc` belongs to
// group oc / (outChannels / groups) and reads `inChannels / groups` input
// channels; its filter tap (i, j, k) is at
// filter[oc * ocStride + (i * filterWidth + j) * tapStride + k].
struct Geometry {
  ImageDims input, output;
  uint32_t filterHeight = 1, filterWidth = 1;
  uint32_t groups = 1;
  size_t ocStride = 0, tapStride = 0;
  int32_t strideHeight = 1, strideWidth = 1, dilationHeight = 1, dilationWidth = 1;
  int32_t padTop = 0, padLeft = 0;
  // Transposed convolution: input (ih, iw) scatters to output (ih * stride -
  // pad + i, iw * stride - pad + j) instead of output gathering from input.
  bool transposed = false;
};

// Geometry of a forward (gathering) convolution with one group and a filter
// laid out [outChannels, filterHeight, filterWidth, inChannels]: resolves
// implicit padding, checks the paddings against the dilated filter and
// computes the output size. Depthwise and grouped ops adjust groups/strides.
Result<Geometry> forwardGeometry(Params& params, const ImageDims& input, uint32_t filterHeight,
                                 uint32_t filterWidth, uint32_t outChannels);

// Runs the kernel on inputs 0..2 into output 0, converting NCHW data as needed.
Result<void> run(ExecutionContext& context, const Geometry& geometry, FusedActivation activation,
                 bool nchw);

// What an op adds to the shared code: how its inputs make a Geometry.
using GeometryFunction = Result<Geometry> (*)(const ExecutionContext& context, Params& params);

// prepare and execute of an op with the usual image/filter/bias inputs, the
// given scalar signature and geometry.
Result<void> prepare(ExecutionContext& context, const Signature& signature,
                     GeometryFunction geometry);
Result<void> execute(ExecutionContext& context, const Signature& signature,
                     GeometryFunction geometry);

// The same as plain functions for an OperationRegistration.
template <const Signature& kSignature, uint32_t kPerChannelDim>
Result<void> validateOp(const ValidationContext& context) {
  return validateImageOp(context, kSignature, kPerChannelDim);
}
template <const Signature& kSignature, GeometryFunction kGeometry>
Result<void> prepareOp(ExecutionContext& context) {
  return prepare(context, kSignature, kGeometry);
}
template <const Signature& kSignature, GeometryFunction kGeometry>
Result<void> executeOp(ExecutionContext& context) {
  return execute(context, kSignature, kGeometry);
}

// The registration of such an op (batches may be zero, as in AOSP).
template <const Signature& kSignature, GeometryFunction kGeometry>
constexpr OperationRegistration registration(OperationType type, const char* name,
                                             Result<void> (*validate)(const ValidationContext&)) {
  return {.type = type,
          .name = name,
          .validate = validate,
          .prepare = prepareOp<kSignature, kGeometry>,
          .execute = executeOp<kSignature, kGeometry>,
          .allowZeroSizedInput = true};
}

}  // namespace annrt::ops::conv
