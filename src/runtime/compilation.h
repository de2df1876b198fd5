// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksCompilation: chooses where a finished model runs and prepares
// it there. Holds the settings that shape preparation (preference, priority,
// timeout, caching) until finish, then only the prepared result.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/device.h"
#include "runtime/execution_plan.h"
#include "runtime/specialized_plans.h"
#include "runtime/supported_operations.h"

namespace annrt::runtime {

// Per operation of `model`'s main graph: whether any of `devices` supports it,
// from `facts` (the model's, may be null) or the automatic compilation cache
// where they have the answer.
std::vector<bool> operationsSupportedByAny(const Model& model,
                                           const std::vector<std::shared_ptr<Device>>& devices,
                                           const std::shared_ptr<ModelFacts>& facts = nullptr);

class Compilation {
 public:
  // `explicitDevices`: created by createForDevices, so only `devices` may run it.
  ~Compilation();  // hands the profile to telemetry when profiling
  // `facts` (may be null) are `model`'s.
  Compilation(std::shared_ptr<const Model> model, std::shared_ptr<ModelFacts> facts,
              std::vector<std::shared_ptr<Device>> devices, bool explicitDevices);

  Result<void> setPreference(int32_t preference);
  Result<void> setPriority(int32_t priority);
  Result<void> setTimeout(uint64_t durationNs);
  Result<void> setCaching(const char* cacheDir, const uint8_t* token);
  // annrt's own attributes (include/annrt/compilation_attributes.h); any other
  // extension's are refused, since no device takes extension attributes.
  Result<void> addExtensionAttribute(std::string_view extension, uint16_t code, const void* data,
                                     size_t length);
  Result<void> finish();

  bool isFinished() const { return finished_; }
  // Finished and prepared on some device (finish succeeded).
  bool isPrepared() const { return plan_ != nullptr; }
  const Model& model() const { return *model_; }
  // Created by createForDevices with exactly one device: timing and timeouts apply.
  bool isSingleExplicitDevice() const { return explicitDevices_ && devices_.size() == 1; }
  Result<uint32_t> preferredAlignment(uint32_t index, bool isInput) const;
  Result<uint32_t> preferredPadding(uint32_t index, bool isInput) const;
  // The operand behind model input/output `index`, or an error if out of range.
  Result<const Operand*> ioOperand(uint32_t index, bool isInput) const;

  ExecutionPlan& plan() const { return *plan_; }
  // The plan an execution of `request` runs: when the model's inputs have
  // unknown dims and the request's are concrete, one specialized for them
  // (prepared on first use, so that devices which need known shapes take
  // part); otherwise, or when specializing fails, the general plan.
  std::shared_ptr<ExecutionPlan> planFor(const Request& request) const;

 private:
  Result<void> checkModifiable() const;
  // Finished and prepared: BAD_STATE otherwise.
  Result<void> checkPrepared() const;
  Result<void> preparePlan(SupportedOperations& supported,
                           const std::vector<std::shared_ptr<Device>>& devices,
                           const std::shared_ptr<Device>& cpu, const PartitionOptions& options);
  // Partitions `model` and prepares its steps: finish's path, also taken by
  // each specialization.
  // `supported` answers for `model` and holds its compilation cache.
  Result<std::shared_ptr<ExecutionPlan>> buildPlan(
      const std::shared_ptr<const Model>& model, SupportedOperations& supported,
      const std::vector<std::shared_ptr<Device>>& devices, const std::shared_ptr<Device>& cpu,
      const PartitionOptions& partitionOptions, const PrepareOptions& options) const;
  // The selected devices, then the CPU fallback `cpu` if any: every device a
  // plan may use.
  std::vector<std::shared_ptr<Device>> candidates(const std::shared_ptr<Device>& cpu) const;
  // The compilation cache of `model` (the compilation's, or a specialization
  // of it) on these devices and `cpu`; null when nothing is cached. `facts`:
  // `model`'s, or null.
  std::shared_ptr<const PartitionCache> cacheFor(const Model& model,
                                                 const std::shared_ptr<Device>& cpu,
                                                 ModelFacts* facts) const;
  // Whether executions with concrete input dims get plans of their own.
  bool shouldSpecialize(size_t bound) const;
  // nullptr (logged) when the model cannot be specialized for `dims`.
  std::shared_ptr<ExecutionPlan> specialize(const InputDims& dims) const;

  std::shared_ptr<const Model> model_;
  std::shared_ptr<ModelFacts> facts_;
  std::vector<std::shared_ptr<Device>> devices_;
  bool explicitDevices_;
  PrepareOptions options_;
  std::optional<uint64_t> timeoutNs_;
  bool finished_ = false;
  std::shared_ptr<ExecutionPlan> plan_;
  // What finish used, for the specializations.
  std::shared_ptr<Device> cpu_;
  PartitionOptions partitionOptions_;
  std::unique_ptr<SpecializedPlans> specialized_;  // null: no specialization
};

}  // namespace annrt::runtime
