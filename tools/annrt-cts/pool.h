// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs jobs in forked worker processes so that a case that crashes or hangs
// the runtime becomes a failed case instead of taking the runner down. The
// parent never calls NNAPI itself (forking after the runtime started threads
// would be unsafe); each worker sets the runtime up on its own, reports a
// hello, then runs the jobs the parent hands it one at a time, reporting when
// a compute starts and ends so that the parent can enforce the per-compute
// timeout. A worker that dies or times out is replaced and the run goes on
// with the next job.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "runner.h"

namespace annrt::cts {

// What a worker reports once it has set the runtime up.
struct WorkerHello {
  bool ok = true;
  std::string error;  // why setup failed (e.g. unknown device)
  int64_t runtimeFeatureLevel = 0;
  std::vector<std::string> devices;  // names of every device
};

// Runs inside a worker process.
struct WorkerCallbacks {
  // Sets the runtime up (device lookup etc.); runs once per worker.
  std::function<WorkerHello()> setUp;
  // Runs job `index`; `onCompute` must be passed to RunOptions::onCompute.
  std::function<CaseResult(size_t index, std::function<void(bool)> onCompute)> runJob;
};

struct PoolOptions {
  unsigned workers = 1;
  std::chrono::milliseconds computeTimeout{10000};
  // Limit for any other stretch of a case without progress (build, compile, check).
  std::chrono::milliseconds stepTimeout{120000};
  // Called in the parent as each job completes.
  std::function<void(size_t index, const CaseResult& result)> onResult;
};

// Runs jobs 0..count-1. Returns false (with `hello->error` set) if a worker
// could not set the runtime up; `results` then holds what finished.
bool runInWorkers(size_t count, const WorkerCallbacks& callbacks, const PoolOptions& options,
                  WorkerHello* hello, std::vector<CaseResult>* results);

// The same in this process, without crash or hang protection.
bool runInProcess(size_t count, const WorkerCallbacks& callbacks, const PoolOptions& options,
                  WorkerHello* hello, std::vector<CaseResult>* results);

}  // namespace annrt::cts
