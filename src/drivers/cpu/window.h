// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The sliding-window geometry of NNAPI convolutions and poolings: explicit or
// implicit (SAME/VALID) padding, strides and dilation, resolved to the
// explicit paddings XNNPACK takes, and checked against the output shape.
#pragma once

#include "drivers/cpu/lowering_context.h"

namespace annrt::cpu {

struct Window {
  uint32_t padTop = 0, padRight = 0, padBottom = 0, padLeft = 0;
  uint32_t strideHeight = 1, strideWidth = 1;
  uint32_t dilationHeight = 1, dilationWidth = 1;
  uint32_t filterHeight = 1, filterWidth = 1;
};

// Where a window op's scalars sit. Explicit padding has four paddings
// (left, right, top, bottom) at `first`, implicit one scheme; then the
// strides (width, height), `extra` op-specific scalars, the fused activation
// and optionally the layout and (for convolutions) two dilations.
struct WindowForm {
  bool explicitPadding = false;
  uint32_t paddingIndex = 0;
  uint32_t strideIndex = 0;
  uint32_t activationIndex = 0;
  uint32_t layoutIndex = 0;  // the optional ones follow
};

// The scalars start at `first`; `extra` ones follow the strides (depth
// multiplier, or a pool's filter size).
WindowForm windowForm(const LoweringContext& context, const Operation& op, uint32_t first,
                      uint32_t extra);

// Reads paddings, strides and dilations (filter size set by the caller), and
// resolves implicit padding for an NHWC input of `inHeight` x `inWidth`.
Result<Window> readWindow(const LoweringContext& context, const Operation& op,
                          const WindowForm& form, bool hasDilation, uint32_t filterHeight,
                          uint32_t filterWidth);

// Checks that the op's NHWC output has the spatial size the window gives.
Result<void> checkWindowOutput(const Window& window, const Shape& input, const Shape& output);

}  // namespace annrt::cpu
