// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Offsets in one buffer for tensors that live over known spans of steps:
// tensors whose spans overlap get disjoint ranges, the others may share.
// Largest first, each at the lowest offset that fits (first fit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace annrt::cpu {

struct ArenaTensor {
  size_t first = 0, last = 0;  // the steps writing it and last reading it
  size_t size = 0;             // in any unit, as is the offset
  size_t offset = 0;           // set by planArena
};

// Sets every tensor's offset; returns the buffer size.
size_t planArena(std::vector<ArenaTensor>& tensors);

}  // namespace annrt::cpu
