// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The memory of the arena between a partition's stages (staged_graph.h):
// whole pages of its own, whose first touch the kernel can do ahead of the
// first execution on another thread.
//
// Why: memory fresh from the kernel costs a page fault per 4 KB page on its
// first write, and an execution's arena is first written by the first
// inference, which those faults made much slower than the later ones
// (docs/threads.md). populateAhead() hands that work to a thread
// of its own while the compilation goes on, as the kernel's
// MADV_POPULATE_WRITE (Linux 5.14), which maps pages without writing them:
// an execution may write the arena at the same time. An arena of 1.5 MB or
// more is mapped on transparent huge pages where the kernel has them (rounded
// up to whole ones where that adds at most a third): a fault per 2 MB
// instead of per 4 KB, which is what the first inference still paid where
// no second core was idle to map ahead (docs/threads.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <thread>

#include "common/result.h"

namespace annrt::cpu {

// Maps the pages of [data, data + bytes), writable memory of this process,
// without writing them (MADV_POPULATE_WRITE); false where the kernel cannot
// (before Linux 5.14) or has no memory.
bool populatePages(void* data, size_t bytes);

// The kernel's transparent huge page size (its hpage_pmd_size), or 0 where
// it has none (built without them, or "[never]"); read once.
size_t transparentHugePageBytes();

// From this size an arena's pages are mapped ahead of the first execution;
// below it the faults cost under 0.2 ms, little beside starting a thread.
inline constexpr size_t kPopulateAheadBytes = size_t{512} << 10;

class ArenaMemory {
 public:
  ArenaMemory() = default;
  // `bytes` of zeroed memory on a page boundary (a huge page's for large
  // arenas); OUT_OF_MEMORY when the kernel refuses.
  static Result<ArenaMemory> allocate(size_t bytes);
  ArenaMemory(ArenaMemory&& other) noexcept;
  ArenaMemory& operator=(ArenaMemory&& other) noexcept;
  ArenaMemory(const ArenaMemory&) = delete;
  ArenaMemory& operator=(const ArenaMemory&) = delete;
  ~ArenaMemory();

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // Starts mapping every page on a thread of its own (once; a kernel
  // without MADV_POPULATE_WRITE just leaves the faults to the first
  // execution). The destructor stops it between chunks.
  void populateAhead();
  // Waits for populateAhead's thread (for tests).
  void waitPopulated();

 private:
  void release();

  uint8_t* data_ = nullptr;
  size_t size_ = 0;    // as asked
  size_t mapped_ = 0;  // whole pages
  std::jthread populating_;
};

}  // namespace annrt::cpu
