// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Operations of the NNAPI vendor extension "com.annrt.tflite": TFLite custom
// operators with no NNAPI equivalent, emitted by the TFLite importer
// (src/tflite/extension_ops.h documents their signatures).
//
// CONVOLUTION_2D_TRANSPOSE_BIAS (code 0), MediaPipe's
// Convolution2DTransposeBias: a float32 NHWC transposed convolution with bias.
// Inputs: image, filter [out, h, w, in], bias [out], padding scheme (1 SAME,
// 2 VALID), stride width, stride height. Per axis the output size is
// stride * (in - 1) + filter - pad, with pad = max(0, filter - (in - 1) %
// stride - 1) for SAME and 0 for VALID, of which pad / 2 comes first.
#include <algorithm>

#include "ops/operation.h"
#include "ops/util/convolution.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::extension_com_annrt_tflite {
namespace {

constexpr const char* kExtension = "com.annrt.tflite";
constexpr uint32_t kPadding = 3, kStrideWidth = 4, kStrideHeight = 5;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputTypes(
      context,
      {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32,
       OperandType::INT32, OperandType::INT32, OperandType::INT32}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {OperandType::TENSOR_FLOAT32}));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(conv::kInput), 4, "input"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(conv::kFilter), 4, "filter"));
  return validateRank(context.inputShape(conv::kBias), 1, "bias");
}

// One axis: output size and leading padding, as MediaPipe computes them.
Result<void> axis(bool same, uint32_t in, uint32_t filter, int32_t stride, uint32_t* out,
                  int32_t* padHead) {
  ANNRT_CHECK(in > 0 && filter > 0 && stride > 0, "sizes {} {} and stride {} must be positive", in,
              filter, stride);
  const int64_t pad = same ? std::max<int64_t>(0, int64_t{filter} - (in - 1) % stride - 1) : 0;
  const int64_t size = int64_t{stride} * (in - 1) + filter - pad;
  ANNRT_CHECK(size > 0 && size <= INT32_MAX, "output size {} is out of range", size);
  *out = static_cast<uint32_t>(size);
  *padHead = static_cast<int32_t>(pad / 2);
  return {};
}

Result<conv::Geometry> geometry(const ExecutionContext& context) {
  const int32_t padding = context.scalar<int32_t>(kPadding);
  ANNRT_CHECK(padding == 1 || padding == 2, "padding scheme {} is neither SAME (1) nor VALID (2)",
              padding);
  conv::Geometry g;
  ANNRT_ASSIGN_OR_RETURN(g.input, conv::inputImage(context, /*nchw=*/false));
  const Shape& filter = context.inputShape(conv::kFilter);
  ANNRT_CHECK(filter.dims[3] == g.input.channels && filter.dims[0] > 0,
              "filter {} does not fit input depth {}", toString(filter.dims), g.input.channels);
  ANNRT_CHECK(dim(context.inputShape(conv::kBias), 0) == filter.dims[0],
              "bias {} does not match {} output channels", toString(context.inputShape(2).dims),
              filter.dims[0]);
  g.filterHeight = filter.dims[1];
  g.filterWidth = filter.dims[2];
  g.strideWidth = context.scalar<int32_t>(kStrideWidth);
  g.strideHeight = context.scalar<int32_t>(kStrideHeight);
  ANNRT_RETURN_IF_ERROR(axis(padding == 1, g.input.height, g.filterHeight, g.strideHeight,
                             &g.output.height, &g.padTop));
  ANNRT_RETURN_IF_ERROR(
      axis(padding == 1, g.input.width, g.filterWidth, g.strideWidth, &g.output.width, &g.padLeft));
  g.output.batches = g.input.batches;
  g.output.channels = filter.dims[0];
  g.ocStride = static_cast<size_t>(g.filterHeight) * g.filterWidth * g.input.channels;
  g.tapStride = g.input.channels;
  g.transposed = true;
  return g;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(conv::Geometry g, geometry(context));
  Shape output = context.outputShape(0);
  output.dims = conv::toLayout(g.output, /*nchw=*/false);
  return context.setOutputShape(0, output);
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(conv::Geometry g, geometry(context));
  return conv::run(context, g, FusedActivation::NONE, /*nchw=*/false);
}

constexpr OperationRegistration kOperations[] = {
    {.name = "com.annrt.tflite:CONVOLUTION_2D_TRANSPOSE_BIAS",
     .validate = validate,
     .prepare = prepare,
     .execute = execute,
     .extension = kExtension,
     .extensionCode = 0},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::extension_com_annrt_tflite
