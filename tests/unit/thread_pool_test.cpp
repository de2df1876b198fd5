// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's thread pools (thread_pool.h): putting spinning workers to sleep.
#include "drivers/cpu/thread_pool.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "drivers/cpu/cpu_load.h"

namespace annrt::cpu {
namespace {

using Clock = std::chrono::steady_clock;

// How long until this process's only runnable thread is the caller (the
// pool's workers asleep), polled; `limit` if they never are.
Clock::duration untilWorkersSleep(Clock::duration limit) {
  const auto start = Clock::now();
  while (Clock::now() - start < limit) {
    if (ownRunnableThreads() == 1) return Clock::now() - start;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return limit;
}

void emptyRegion(pthreadpool_t pool) {
  pthreadpool_parallelize_1d(
      pool, [](void*, size_t) {}, nullptr, 2, 0);
}

TEST(ThreadPoolTest, RestingAPoolOfNoneDoesNothing) {
  restWorkers(nullptr);
  EXPECT_EQ(sharedThreadPool(1), nullptr);
}

// What annrt-cpu's runs alone beside a busy process avoid: after a region the
// worker keeps spinning (runnable) before it sleeps; rested, it sleeps at once.
TEST(ThreadPoolTest, RestedWorkersSleepBeforeSpinningOnesDo) {
  if (access("/proc/self/task", R_OK) != 0) GTEST_SKIP() << "no /proc/self/task";
  const ThreadPool pool(pthreadpool_create(2), pthreadpool_destroy);
  ASSERT_NE(pool, nullptr);
  constexpr auto kLimit = std::chrono::seconds(2);

  emptyRegion(pool.get());
  EXPECT_GE(ownRunnableThreads(), 2u) << "the worker spins after a region";
  const Clock::duration spinning = untilWorkersSleep(kLimit);

  emptyRegion(pool.get());
  restWorkers(pool.get());
  const Clock::duration rested = untilWorkersSleep(kLimit);

  EXPECT_LT(rested * 4, spinning) << "rested: "
                                  << std::chrono::duration<double, std::milli>(rested).count()
                                  << " ms, spinning: "
                                  << std::chrono::duration<double, std::milli>(spinning).count()
                                  << " ms";
  EXPECT_LT(rested, kLimit);
}

}  // namespace
}  // namespace annrt::cpu
