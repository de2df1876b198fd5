// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// benchmark_model's run loop: run at least `minRuns` times and for at least
// `minSecs` seconds, but start no new run once `maxSecs` seconds have passed;
// sleep `runDelay` seconds between runs (if positive). Each run's wall time
// in microseconds goes into the returned RunStat. Stops at the first failure.
#pragma once

#include <cstdint>
#include <functional>

#include "common/result.h"
#include "run_stat.h"

namespace annrt::tools {

struct LoopSettings {
  int32_t minRuns = 0;
  float minSecs = 0;
  float maxSecs = 0;
  float runDelay = -1;
};

Result<RunStat> runLoop(const LoopSettings& settings, const std::function<Result<void>()>& run);

}  // namespace annrt::tools
