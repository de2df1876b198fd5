// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's reading of the other processes' load (cpu_load.h).
#include "drivers/cpu/cpu_load.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
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
TEST(CpuLoadTest, ReadsATasksStatePastItsName) {
  EXPECT_EQ(parseTaskState("1234 (annrt-benchmark) R 1 1234 1234 0 -1"), 'R');
  EXPECT_EQ(parseTaskState("1235 (a (b) c) S 1 1234"), 'S');
  EXPECT_EQ(parseTaskState("1236 (no state)"), std::nullopt);
  EXPECT_EQ(parseTaskState(""), std::nullopt);
}

TEST(CpuLoadTest, BeforeAWindowTheOthersAreTheRunnableTasksNotThisProcesss) {
  // 2 threads on 2 cores beside one busy process, the pool's worker asleep:
  // the caller and the busy process are runnable.
  const PoolAdvice besideOne = adviseFromRunnableTasks(2, 1, 2, 2);
  EXPECT_FALSE(besideOne.usePool);
  EXPECT_TRUE(besideOne.fromRunnableTasks);
  EXPECT_DOUBLE_EQ(besideOne.othersBusy, 1.0);
  // The same with the worker spinning after a run.
  EXPECT_FALSE(adviseFromRunnableTasks(3, 2, 2, 2).usePool);
  // Quiet: only this process's threads, spinning or not.
  EXPECT_TRUE(adviseFromRunnableTasks(2, 2, 2, 2).usePool);
  EXPECT_TRUE(adviseFromRunnableTasks(1, 1, 2, 2).usePool);
  // A count taken a moment apart may be below this process's own.
  EXPECT_DOUBLE_EQ(adviseFromRunnableTasks(1, 2, 2, 2).othersBusy, 0.0);
  EXPECT_TRUE(adviseFromRunnableTasks(5, 1, 4, 8).usePool) << "4 busy tasks leave 4 of 8 cores";
  EXPECT_FALSE(adviseFromRunnableTasks(6, 1, 4, 8).usePool);
}

TEST(CpuLoadTest, CountsThisProcesssSpinningThreads) {
  if (access("/proc/self/task", R_OK) != 0) GTEST_SKIP() << "no /proc/self/task";
  const uint32_t alone = ownRunnableThreads();
  EXPECT_GE(alone, 1u);
  std::atomic<bool> stop{false};
  std::atomic<bool> spinning{false};
  std::thread spinner([&] {
    spinning = true;
    while (!stop) {
    }
  });
  while (!spinning) {
  }
  // Scheduled out for a moment, the spinner is still runnable.
  const uint32_t beside = ownRunnableThreads();
  stop = true;
  spinner.join();
  EXPECT_GE(beside, 2u) << "the caller reading and a thread spinning";
}

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
