// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's PreparedModel: checks a request against the compiled graph's
// static shapes and runs its XNNPACK runtimes.
#pragma once

#include <memory>
#include <mutex>

#include "common/device.h"
#include "drivers/cpu/operation_profiler.h"
#include "drivers/cpu/staged_graph.h"

namespace annrt::cpu {

class CpuPreparedModel final : public PreparedModel {
 public:
  explicit CpuPreparedModel(std::unique_ptr<StagedGraph> graph) : graph_(std::move(graph)) {}
  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override;

 private:
  Result<std::vector<const void*>> inputBuffers(const Request& request);
  Result<std::vector<void*>> outputBuffers(const Request& request, ExecutionOutcome& outcome);
  Result<void> runProfiled(const std::vector<const void*>& inputs,
                           const std::vector<void*>& outputs, std::vector<uint64_t>& operationNs);

  std::mutex mutex_;  // one XNNPACK runtime per stage: executions take turns
  std::unique_ptr<StagedGraph> graph_;
  std::unique_ptr<OperationProfiler> profiler_;  // built by the first profiled execution
};

}  // namespace annrt::cpu
