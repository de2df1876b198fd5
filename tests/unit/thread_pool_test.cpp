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
// Where the spin is short (under qemu-user it lasted 0.3 ms) only the rest is
// checked.
TEST(ThreadPoolTest, RestedWorkersSleepBeforeSpinningOnesDo) {
  if (access("/proc/self/task", R_OK) != 0) GTEST_SKIP() << "no /proc/self/task";
  const ThreadPool pool(pthreadpool_create(2), pthreadpool_destroy);
  ASSERT_NE(pool, nullptr);
  constexpr auto kLimit = std::chrono::seconds(2);

  emptyRegion(pool.get());
  const bool spinsAfterARegion = ownRunnableThreads() >= 2;
  const Clock::duration spinning = untilWorkersSleep(kLimit);

  emptyRegion(pool.get());
  restWorkers(pool.get());
  const Clock::duration rested = untilWorkersSleep(kLimit);
  EXPECT_LT(rested, kLimit) << "rested workers sleep";

  const auto ms = [](Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  };
  if (!spinsAfterARegion || spinning < std::chrono::milliseconds(4)) {
    GTEST_SKIP() << "workers spin for " << ms(spinning) << " ms after a region here";
  }
  EXPECT_LT(rested * 4, spinning) << "rested: " << ms(rested) << " ms, spinning: " << ms(spinning)
                                  << " ms";
}

}  // namespace
}  // namespace annrt::cpu
