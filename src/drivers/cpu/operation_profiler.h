// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Per-operation timing for annrt-cpu. A partition runs as one XNNPACK
// runtime, and the XNNPACK Debian ships has no profiling API, so a profiled
// execution instead runs each operation as a one-operation runtime of its own
// (built on the first profiled execution) and times each. Kernels and thread
// pool are the ones the whole-partition runtime uses, so the per-operation
// times add up to about the partition's time; what they cannot show is the
// cross-operation fusion XNNPACK does inside one runtime (clamps, pads).
// Folded float16-weight CASTs get no stage (their time is 0): they join the
// stages of the operations reading them, as they are folded in the partition.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "common/model.h"
#include "common/result.h"
#include "common/submodel.h"
#include "drivers/cpu/compiled_graph.h"

namespace annrt::cpu {

class OperationProfiler {
 public:
  static Result<std::unique_ptr<OperationProfiler>> create(std::shared_ptr<const Model> model,
                                                           const ThreadPool& pool);

  // Runs the model operation by operation: `inputs` are the model's inputs,
  // `outputs` its outputs (each large enough); operationNs[i] gets the time of
  // operation i.
  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   std::vector<uint64_t>& operationNs);

 private:
  struct Stage {
    uint32_t operation;  // the operation timed (with the float16 casts it reads)
    Submodel submodel;   // inputs/outputs: main-model operand indexes
    std::unique_ptr<CompiledGraph> graph;
  };

  OperationProfiler() = default;
  const void* source(uint32_t operand, const std::vector<const void*>& inputs,
                     const std::vector<void*>& outputs) const;
  void* destination(uint32_t operand, const std::vector<void*>& outputs);

  std::shared_ptr<const Model> model_;
  std::vector<Stage> stages_;
  std::unordered_map<uint32_t, size_t> inputPosition_;
  std::unordered_map<uint32_t, size_t> outputPosition_;
  std::unordered_map<uint32_t, std::unique_ptr<uint8_t[]>> intermediates_;
};

}  // namespace annrt::cpu
