// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A compiled model: one or more steps, each a partition prepared on one
// device. Runs the steps in order, passing tensors that cross steps through
// runtime-owned buffers, and falls back to the CPU when a device fails.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/submodel.h"
#include "runtime/partition_cache.h"
#include "runtime/partitioner.h"
#include "runtime/telemetry.h"

namespace annrt::runtime {

struct PlanStepInfo {
  std::string device;
  std::vector<uint32_t> operations;  // main-model operation indexes
};

class ExecutionPlan final : public PreparedModel {
 public:
  // `cpu` is the fallback device (nullptr: failures are returned as errors);
  // `cache`, if given, where the steps' prepared models are kept.
  static Result<std::shared_ptr<ExecutionPlan>> create(
      const std::shared_ptr<const Model>& model, const PartitionPlan& partition,
      std::shared_ptr<Device> cpu, const PrepareOptions& options,
      std::shared_ptr<const PartitionCache> cache = nullptr);

  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override;

  std::vector<PlanStepInfo> steps() const;
  // Accumulated per-operation times of the executions that profiled.
  CompilationProfile profile() const;
  uint64_t fallbackCount() const { return fallbacks_.load(); }

 private:
  struct Step {
    std::shared_ptr<Device> device;
    Submodel submodel;
    std::vector<uint32_t> operations;
    std::shared_ptr<PreparedModel> prepared;
    std::mutex fallbackMutex;
    std::shared_ptr<PreparedModel> fallback;  // prepared on the CPU after a failure
  };

  ExecutionPlan(std::shared_ptr<const Model> model, std::shared_ptr<Device> cpu,
                PrepareOptions options, std::shared_ptr<const PartitionCache> cache)
      : model_(std::move(model)),
        cpu_(std::move(cpu)),
        options_(std::move(options)),
        cache_(std::move(cache)) {}

  Result<void> prepareStep(Step& step);
  ExecutionOutcome runStep(Step& step, const Request& request, const ExecutionOptions& options);
  ExecutionOutcome runSteps(const Request& request, const ExecutionOptions& options);
  ExecutionOutcome runWholeOnCpu(const Request& request, const ExecutionOptions& options);
  Result<std::shared_ptr<PreparedModel>> preparedOnCpu(std::mutex& mutex,
                                                       std::shared_ptr<PreparedModel>& slot,
                                                       std::shared_ptr<const Model> model);
  bool canFallBack(const Device& failed, ErrorCode status) const;
  ExecutionOutcome executeOnCpu(PreparedModel& prepared, const Request& request,
                                const ExecutionOptions& options);
  static void countInference(const Device& device);
  void noteFallback(const Device& from);
  void accumulateProfile(const std::vector<uint64_t>& operationNs);

  std::shared_ptr<const Model> model_;
  std::shared_ptr<Device> cpu_;
  PrepareOptions options_;
  std::shared_ptr<const PartitionCache> cache_;
  std::vector<std::unique_ptr<Step>> steps_;
  std::mutex wholeFallbackMutex_;
  std::shared_ptr<PreparedModel> wholeFallback_;
  std::atomic<uint64_t> fallbacks_{0};
  mutable std::mutex profileMutex_;
  std::vector<uint64_t> operationNs_;
  std::vector<uint64_t> operationRuns_;
};

}  // namespace annrt::runtime
