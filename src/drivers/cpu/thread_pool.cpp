// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/thread_pool.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "common/device.h"
#include "common/log.h"
#include "drivers/cpu/native_parallel.h"

namespace annrt::cpu {
namespace {

uint32_t threadsFromEnvironment() {
  const char* value = std::getenv("ANNRT_NUM_THREADS");
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  const unsigned long parsed = std::strtoul(value, &end, 10);
  if (*end != '\0' || parsed == 0 || parsed > kMaxThreadCount) {
    logWarning("ignoring ANNRT_NUM_THREADS={}: not a thread count in 1..{}", value,
               kMaxThreadCount);
    return 0;
  }
  return static_cast<uint32_t>(parsed);
}

}  // namespace

uint32_t resolveThreadCount(uint32_t requested) {
  if (requested > 0) return std::min(requested, kMaxThreadCount);
  if (uint32_t fromEnvironment = threadsFromEnvironment(); fromEnvironment > 0) {
    return fromEnvironment;
  }
  return std::min(onlineCores(), kMaxThreadCount);
}

uint32_t onlineCores() {
  static const auto cores = static_cast<uint32_t>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  return cores;
}

ThreadPool sharedThreadPool(uint32_t threads) {
  if (threads <= 1) return nullptr;
  static std::mutex mutex;
  static std::map<uint32_t, ThreadPool> pools;
  std::lock_guard lock(mutex);
  ThreadPool& pool = pools[threads];
  if (pool == nullptr) {
    pool = ThreadPool(pthreadpool_create(threads), pthreadpool_destroy);
    if (pool == nullptr) logError("annrt-cpu: cannot create {} threads; running inline", threads);
  }
  return pool;
}

void restWorkers(pthreadpool_t pool) {
  if (pool == nullptr) return;
  const size_t threads = pthreadpool_get_threads_count(pool);
  // The caller gives its core away in its items: a worker spinning there
  // then takes the region at once instead of at the scheduler's next tick
  // (the caller spins while it waits for the workers). A region of fewer
  // items than threads would run on the caller alone.
  std::thread::id caller = std::this_thread::get_id();
  declareRelease(&caller);
  pthreadpool_parallelize_1d(
      pool,
      [](void* context, size_t) {
        declareAcquire(context);
        const bool callers = std::this_thread::get_id() == *static_cast<std::thread::id*>(context);
        declareRelease(context);
        if (callers) sched_yield();
      },
      &caller, threads, PTHREADPOOL_FLAG_YIELD_WORKERS);
  declareAcquire(&caller);
}

}  // namespace annrt::cpu
