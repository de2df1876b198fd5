// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's PreparedModel: checks a request against the compiled graph's
// static shapes and runs its XNNPACK runtimes, on the thread pool when each
// pool thread would find a core (`load`, if given; else always).
#pragma once

#include <memory>
#include <mutex>

#include "common/device.h"
#include "drivers/cpu/cpu_cache.h"
#include "drivers/cpu/cpu_load.h"
#include "drivers/cpu/operation_profiler.h"
#include "drivers/cpu/staged_graph.h"

namespace annrt::cpu {

class CpuPreparedModel final : public PreparedModel {
 public:
  // `settings`: what the graph was compiled with, written into its cache.
  explicit CpuPreparedModel(std::unique_ptr<StagedGraph> graph,
                            std::shared_ptr<CpuLoad> load = nullptr, CompileSettings settings = {});
  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override;
  // The graph's plan and packed weights (cpu_cache.h).
  Result<void> serialize(CacheWriter& out) const override;

 private:
  Result<std::vector<const void*>> inputBuffers(const Request& request);
  Result<std::vector<void*>> outputBuffers(const Request& request, ExecutionOutcome& outcome);
  Result<void> runProfiled(const std::vector<const void*>& inputs,
                           const std::vector<void*>& outputs, bool threaded,
                           std::vector<uint64_t>& operationNs);
  bool runThreaded();

  std::mutex mutex_;  // one XNNPACK runtime per stage: executions take turns
  std::unique_ptr<StagedGraph> graph_;
  std::shared_ptr<CpuLoad> load_;
  CompileSettings settings_;
  uint32_t poolThreads_ = 1;
  bool threaded_ = true;                         // the latest run's choice, to log changes
  std::unique_ptr<OperationProfiler> profiler_;  // built by the first profiled execution
};

}  // namespace annrt::cpu
