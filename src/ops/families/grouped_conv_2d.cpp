// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// GROUPED_CONV_2D (level 3+): the input channels are split into num_groups
// groups; output channel oc convolves group oc / (depth_out / num_groups)
// with a filter [depth_out, filter_height, filter_width, depth_group]. The
// layout BOOL is required; there is no dilation.
#include "ops/operation.h"
#include "ops/util/convolution.h"

namespace annrt::ops::families::grouped_conv_2d {
namespace {

constexpr conv::Signature kSignature{.extraScalars = 1, .layoutRequired = true};

Result<conv::Geometry> geometry(const ExecutionContext& context, conv::Params& params) {
  ANNRT_ASSIGN_OR_RETURN(const conv::ImageDims in, conv::inputImage(context, params.nchw));
  const Shape& filter = context.inputShape(conv::kFilter);
  const int32_t groups = params.extra[0];
  const uint32_t outChannels = filter.dims[0];
  ANNRT_CHECK(groups > 0, "number of groups {} must be positive", groups);
  ANNRT_CHECK(
      static_cast<uint64_t>(filter.dims[3]) * groups == in.channels && outChannels % groups == 0,
      "filter {} does not split input depth {} and its output depth into {} groups",
      toString(filter.dims), in.channels, groups);
  // The group's depth, not the whole input depth, is the filter's inner size.
  conv::ImageDims groupInput = in;
  groupInput.channels = filter.dims[3];
  ANNRT_ASSIGN_OR_RETURN(conv::Geometry g, conv::forwardGeometry(params, groupInput, filter.dims[1],
                                                                 filter.dims[2], outChannels));
  g.input = in;
  g.groups = static_cast<uint32_t>(groups);
  return g;
}

constexpr OperationRegistration kOperations[] = {
    conv::registration<kSignature, geometry>(OperationType::GROUPED_CONV_2D, "GROUPED_CONV_2D",
                                             conv::validateOp<kSignature, 0>),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::grouped_conv_2d
