// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How many cores other processes keep busy, from /proc/stat and this
// process's CPU time, so that annrt-cpu runs on its thread pool only when the
// pool's threads would each find a core. A pool thread that waits for a core
// holds up every parallel region: on 2 cores beside one busy process, 2
// threads ran face_detection_short_range at 5.9 ms and hand_landmark_full at
// 377 ms, where 1 thread takes 2.4 and 21 (docs/threads.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>

#include "drivers/cpu/thread_pool.h"

namespace annrt::cpu {

// The first line of /proc/stat, in clock ticks.
struct CpuTicks {
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
};

// Parses /proc/stat's aggregate "cpu" line; nullopt if there is none.
std::optional<CpuTicks> parseProcStat(std::string_view text);

// Cores kept busy by other processes between two samples: the system's busy
// time, niced included, less this process's CPU time, over the wall time. A
// niced process does not give way fast enough for a thread pool (EEVDF may
// let it finish its slice before a woken pool thread runs: docs/threads.md).
double othersBusyCores(const CpuTicks& before, const CpuTicks& after, double ticksPerSecond,
                       double ownCpuSeconds, double wallSeconds);

// The runnable tasks /proc/loadavg counts now (its fourth field, "R/T").
std::optional<uint32_t> parseRunnableTasks(std::string_view loadavg);

// What CpuLoad::advise decided, and from what (for the log).
struct PoolAdvice {
  bool usePool = true;
  double othersBusy = 0;  // cores the other processes take
  // No 100 ms window had closed yet: othersBusy is the runnable tasks not
  // this process's.
  bool fromRunnableTasks = false;
};

// The state letter of a /proc/<pid>/task/<tid>/stat line ('R': running or
// runnable), or nothing where the line has none.
std::optional<char> parseTaskState(std::string_view stat);

// This process's threads that are running or runnable now (its pool's
// workers among them while they spin after a parallel region); 1, the
// caller, where /proc/self/task cannot be read.
uint32_t ownRunnableThreads();

// The decision before the first window closes: the tasks runnable now less
// this process's runnable threads are the others' load. The pool's workers
// are counted as they are, not assumed: asleep, they are not in `runnable`,
// and subtracting them anyway sent a first run beside a busy process to the
// pool, whose worker then shared the caller's core (docs/threads.md).
PoolAdvice adviseFromRunnableTasks(uint32_t runnable, uint32_t ownRunnable, uint32_t threads,
                                   uint32_t cores);

class CpuLoad {
 public:
  // Whether `threads` threads (the caller's included) each find a core: at
  // most half a core short, over the latest window of at least 100 ms. Until
  // the first window closes, adviseFromRunnableTasks. The pool where /proc
  // gives neither.
  PoolAdvice advise(uint32_t threads);

  // Cores busy with other processes over the latest window (0 until one).
  double othersBusy();

 private:
  struct Sample {
    std::chrono::steady_clock::time_point wall;
    CpuTicks ticks;
    double ownCpuSeconds = 0;
  };
  struct EarlyEstimate {
    std::chrono::steady_clock::time_point at;
    uint32_t threads = 0;
    PoolAdvice advice;
  };
  static std::optional<Sample> sample();
  void refresh();
  static std::optional<uint32_t> runnableTasks();  // /proc/loadavg's
  PoolAdvice earlyAdvice(uint32_t threads);        // before the first window

  std::mutex mutex_;
  std::optional<Sample> last_;
  bool measured_ = false;  // a window has closed
  std::optional<EarlyEstimate> early_;
  double othersBusy_ = 0;
  const uint32_t cores_ = onlineCores();
};

}  // namespace annrt::cpu
