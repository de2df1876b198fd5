// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/pooling_common.h"

namespace annrt::ops {

Result<conv::ImageDims> batchOnlyEmptyImage(const Shape& input, bool nchw) {
  ANNRT_CHECK(rank(input) == 4, "input must have rank 4, got {}", rank(input));
  const conv::ImageDims image = conv::imageDims(input, nchw);
  ANNRT_CHECK(image.height > 0 && image.width > 0 && image.channels > 0,
              "only the batch dimension may be zero, input is {}", toString(input.dims));
  return image;
}

}  // namespace annrt::ops
