// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's worker threads: how many (PrepareOptions::numThreads, else
// ANNRT_NUM_THREADS, else the number of cores) and one shared pthreadpool per
// thread count, reused by every prepared model asking for that many.
#pragma once

#include <pthreadpool.h>

#include <cstdint>
#include <memory>

namespace annrt::cpu {

uint32_t resolveThreadCount(uint32_t requested);

// The cores online when first asked, at least 1. Asked on every compile;
// each sysconf reads /sys/devices/system/cpu/online.
uint32_t onlineCores();

using ThreadPool = std::shared_ptr<struct pthreadpool>;

// A pool of `threads` threads (the caller's thread included); null for one
// thread, which XNNPACK then runs inline.
ThreadPool sharedThreadPool(uint32_t threads);

// Puts the pool's workers to sleep now. After a parallel region, and from
// its creation until its first one, a worker spins for about a million
// pauses (tens of milliseconds) before it sleeps; a caller that then runs
// alone beside a busy process shares its core with that spin
// (docs/threads.md). This hands the workers an empty region that tells them
// to sleep at once; it waits for each of them to take it, giving the caller's
// core away meanwhile.
void restWorkers(pthreadpool_t pool);

}  // namespace annrt::cpu
