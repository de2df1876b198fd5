// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How annrt-cpu's own kernels hand work to the thread pool.
#pragma once

#include <pthreadpool.h>

#include <cstddef>

#include "common/sanitizers.h"
#if defined(ANNRT_THREAD_SANITIZER)
#include <sanitizer/tsan_interface.h>
#endif

namespace annrt::cpu {

// pthreadpool orders its workers' work after the call and before its return
// with atomics ThreadSanitizer does not see (Debian builds it without), so
// under TSan that order is declared: what the caller wrote before is visible
// to every tile, what the tiles wrote is visible after.
inline void declareRelease([[maybe_unused]] void* at) {
#if defined(ANNRT_THREAD_SANITIZER)
  __tsan_release(at);
#endif
}

inline void declareAcquire([[maybe_unused]] void* at) {
#if defined(ANNRT_THREAD_SANITIZER)
  __tsan_acquire(at);
#endif
}

// Floats one task handed to the pool works on at least, where the work is
// element by element: 64 KB.
inline constexpr size_t kNativeTaskFloats = 16384;

// Runs body(start, count) over [0, range) in tiles of `tile` on `pool`
// (null: on the calling thread), returning when all are done.
template <class Body>
void parallelizeTiles(pthreadpool_t pool, size_t range, size_t tile, const Body& body) {
  struct Context {
    const Body* body;
  } context{&body};
  declareRelease(&context);
  pthreadpool_parallelize_1d_tile_1d(
      pool,
      [](void* raw, size_t start, size_t count) {
        auto* tiles = static_cast<Context*>(raw);
        declareAcquire(tiles);
        (*tiles->body)(start, count);
        declareRelease(tiles);
      },
      &context, range, tile, 0);
  declareAcquire(&context);
}

}  // namespace annrt::cpu
