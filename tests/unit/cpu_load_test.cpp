// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's reading of the other processes' load (cpu_load.h).
#include "drivers/cpu/cpu_load.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace annrt::cpu {
namespace {

TEST(CpuLoadTest, ParsesTheAggregateLineOfProcStat) {
  const auto ticks = parseProcStat(
      "cpu  4705 356 584 3699176 23 0 34 7 0 0\ncpu0 2350 178 292 1849588 11 0 17 3 0 0\n");
  ASSERT_TRUE(ticks.has_value());
  EXPECT_EQ(ticks->user, 4705u);
  EXPECT_EQ(ticks->nice, 356u);
  EXPECT_EQ(ticks->system, 584u);
  EXPECT_EQ(ticks->idle, 3699176u);
  EXPECT_EQ(ticks->iowait, 23u);
  EXPECT_EQ(ticks->irq, 0u);
  EXPECT_EQ(ticks->softirq, 34u);
  EXPECT_EQ(ticks->steal, 7u);
  EXPECT_FALSE(parseProcStat("cpu0 1 2 3 4 5 6 7 8\n").has_value());
  EXPECT_FALSE(parseProcStat("cpu  1 2 3\n").has_value()) << "too few fields";
  EXPECT_FALSE(parseProcStat("cpu  1 2 x 4 5 6 7 8\n").has_value());
  EXPECT_FALSE(parseProcStat("").has_value());
}

TEST(CpuLoadTest, OthersAreTheBusyTimeLessThisProcesssOverTheWallTime) {
  const CpuTicks before{};
  // One second at 100 ticks/s on 2 cores: 190 ticks busy (user 100, niced
  // 40, system 30, irq 5, softirq 5, steal 10), this process used 0.5 s.
  const CpuTicks after{100, 40, 30, 30, 0, 5, 5, 10};
  EXPECT_DOUBLE_EQ(othersBusyCores(before, after, 100, 0.5, 1.0), 1.4)
      << "niced time is busy: a niced process does not give way to a pool in time";
  EXPECT_DOUBLE_EQ(othersBusyCores(before, after, 100, 0.5, 2.0), 0.7);
  EXPECT_DOUBLE_EQ(othersBusyCores(before, after, 100, 3.0, 1.0), 0.0)
      << "never negative (the process's clock and the ticks differ in grain)";
  EXPECT_DOUBLE_EQ(othersBusyCores(after, before, 100, 0, 1.0), 0.0)
      << "counters that went back (another CPU came online) are no load";
  EXPECT_DOUBLE_EQ(othersBusyCores(before, after, 100, 0, 0.0), 0.0);
}

// A process spinning beside this one is seen, and the pool is not worth
// using on every core then. (The other direction, a quiet machine, cannot
// be checked here: CI runs other tests beside this one.)
TEST(CpuLoadTest, SeesABusyProcess) {
  if (access("/proc/stat", R_OK) != 0) GTEST_SKIP() << "no /proc/stat";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    volatile int stop = 0;
    while (stop == 0) {
    }
    _exit(0);
  }
  CpuLoad load;
  EXPECT_TRUE(load.advise(1).usePool) << "one thread always finds the caller's core";
  load.othersBusy();  // the first sample
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const double busy = load.othersBusy();
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const PoolAdvice advice = load.advise(static_cast<uint32_t>(cores));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_GE(busy, 0.5);
  EXPECT_FALSE(advice.usePool) << cores << " threads on " << cores << " cores, " << busy << " busy";
  EXPECT_FALSE(advice.fromRunnableTasks) << "a 400 ms window has closed";
  EXPECT_GE(advice.othersBusy, 0.5);
}

}  // namespace
}  // namespace annrt::cpu
