// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONV_2D: 2-D convolution of an image [batches, height, width, depth_in]
// with a filter [depth_out, filter_height, filter_width, depth_in] plus a bias
// [depth_out], with explicit or implicit (SAME/VALID) padding, an optional
// NCHW layout flag and optional dilation factors (levels 3+), and a fused
// activation. Float32, float16, quant8 asymm (signed since level 4), and
// per-channel quantized filters (channel dimension 0) with a bias of scale
// input_scale * filter_scale[c].
#include "ops/operation.h"
#include "ops/util/convolution.h"

namespace annrt::ops::families::conv_2d {
namespace {

constexpr conv::Signature kSignature{.hasDilation = true};

Result<conv::Geometry> geometry(const ExecutionContext& context, conv::Params& params) {
  ANNRT_ASSIGN_OR_RETURN(const conv::ImageDims in, conv::inputImage(context, params.nchw));
  const Shape& filter = context.inputShape(conv::kFilter);
  ANNRT_CHECK(filter.dims[3] == in.channels, "filter depth {} differs from input depth {}",
              filter.dims[3], in.channels);
  return conv::forwardGeometry(params, in, filter.dims[1], filter.dims[2], filter.dims[0]);
}

constexpr OperationRegistration kOperations[] = {
    conv::registration<kSignature, geometry>(OperationType::CONV_2D, "CONV_2D",
                                             conv::validateOp<kSignature, 0>),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::conv_2d
