// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// DEPTHWISE_CONV_2D: each input channel ic is convolved with
// depth_multiplier filters, giving output channels ic * depth_multiplier + m.
// The filter is [1, filter_height, filter_width, depth_out]; per-channel
// quantized filters use channel dimension 3. Same padding, layout, dilation,
// activation and type rules as CONV_2D.
#include "ops/operation.h"
#include "ops/util/convolution.h"

namespace annrt::ops::families::depthwise_conv_2d {
namespace {

constexpr conv::Signature kSignature{.extraScalars = 1, .hasDilation = true};

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(conv::validateImageOp(context, kSignature, 3u));
  const Shape& filter = context.inputShape(conv::kFilter);
  ANNRT_CHECK(rank(filter) == 0 || filter.dims[0] <= 1, "filter shape {} must start with 1",
              toString(filter.dims));
  return {};
}

Result<conv::Geometry> geometry(const ExecutionContext& context, conv::Params& params) {
  ANNRT_ASSIGN_OR_RETURN(const conv::ImageDims in, conv::inputImage(context, params.nchw));
  const Shape& filter = context.inputShape(conv::kFilter);
  ANNRT_CHECK(filter.dims[0] == 1, "filter shape {} must start with 1", toString(filter.dims));
  const int32_t multiplier = params.extra[0];
  const uint32_t outChannels = filter.dims[3];
  ANNRT_CHECK(multiplier > 0 && static_cast<uint64_t>(in.channels) * multiplier == outChannels,
              "input depth {} times depth multiplier {} must equal filter depth {}", in.channels,
              multiplier, outChannels);
  ANNRT_ASSIGN_OR_RETURN(conv::Geometry g, conv::forwardGeometry(params, in, filter.dims[1],
                                                                 filter.dims[2], outChannels));
  // One group per input channel; the filter's output channels are innermost.
  g.groups = in.channels;
  g.ocStride = 1;
  g.tapStride = outChannels;
  return g;
}

constexpr OperationRegistration kOperations[] = {
    conv::registration<kSignature, geometry>(OperationType::DEPTHWISE_CONV_2D, "DEPTHWISE_CONV_2D",
                                             validate),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::depthwise_conv_2d
