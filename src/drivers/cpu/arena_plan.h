// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Offsets in one buffer for tensors that live over known spans of steps:
// tensors whose spans overlap get disjoint ranges, the others may share.
// Largest first, each at the lowest offset that fits (first fit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace annrt::cpu {

struct ArenaTensor {
  size_t first = 0, last = 0;  // the steps writing it and last reading it
  size_t size = 0;             // in any unit, as is the offset
  size_t offset = 0;           // set by planArena
};

// Sets every tensor's offset; returns the buffer size.
size_t planArena(std::vector<ArenaTensor>& tensors);

// Arena buffers start on a cache line, so that tensors at 64-byte offsets
// do too: malloc's 16-byte alignment made every 64-byte vector load of them
// straddle two lines.
inline constexpr std::align_val_t kArenaAlignment{64};

struct ArenaDeleter {
  void operator()(uint8_t* bytes) const { ::operator delete[](bytes, kArenaAlignment); }
};
using ArenaBuffer = std::unique_ptr<uint8_t[], ArenaDeleter>;

// `bytes` on a cache line, or null when out of memory.
inline ArenaBuffer allocateArena(size_t bytes) {
  return ArenaBuffer(static_cast<uint8_t*>(::operator new[](bytes, kArenaAlignment, std::nothrow)));
}

}  // namespace annrt::cpu
