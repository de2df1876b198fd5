// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "benchmark_loop.h"

#include <chrono>
#include <thread>

namespace annrt::tools {
namespace {

int64_t nowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<RunStat> runLoop(const LoopSettings& settings, const std::function<Result<void>()>& run) {
  RunStat stat;
  int64_t now = nowUs();
  const int64_t minFinish = now + static_cast<int64_t>(settings.minSecs * 1e6f);
  const int64_t maxFinish = now + static_cast<int64_t>(settings.maxSecs * 1e6f);
  for (int32_t i = 0; (i < settings.minRuns || now < minFinish) && now <= maxFinish; ++i) {
    const int64_t start = nowUs();
    ANNRT_RETURN_IF_ERROR(run());
    stat.add(nowUs() - start);
    if (settings.runDelay > 0) {
      std::this_thread::sleep_for(std::chrono::duration<double>(settings.runDelay));
    }
    now = nowUs();
  }
  return stat;
}

}  // namespace annrt::tools
