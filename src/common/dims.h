// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Dimensions known in part (0: unknown), as models and executions give them.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"

namespace annrt {

// `a` and `b` merged: a rank or dimension unknown (0) in one is taken from the
// other; known ones must agree.
Result<std::vector<uint32_t>> combineDims(const std::vector<uint32_t>& a,
                                          const std::vector<uint32_t>& b);

}  // namespace annrt
