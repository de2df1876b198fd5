// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Which neighbouring operations XNNPACK turns into one node when they are in
// the same runtime: a clamp (RELU, RELU1, RELU6) into the node producing its
// input, a zero PAD of the spatial dimensions into the convolution reading
// it. (Reshapes are no node at all.) Stages are never cut between such
// operations, and profiles time them together, as they run.
#pragma once

#include "common/model.h"

namespace annrt::cpu {

enum class Fusion {
  NONE,
  INTO_PREVIOUS,  // `op` (a clamp, or a reshape) vanishes into `previous`
  PREVIOUS_INTO,  // `previous` (a PAD) vanishes into `op` (a convolution)
};

// How `op`, the operation right after `previous` in execution order, joins it.
Fusion fusionWithPrevious(const Model& model, const Operation& previous, const Operation& op);

}  // namespace annrt::cpu
