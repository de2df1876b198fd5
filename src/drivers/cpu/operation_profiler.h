// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Per-operation timing for annrt-cpu. A stage runs as one XNNPACK runtime,
// and the XNNPACK Debian ships has no profiling API, so a profiled execution
// instead runs each operation as a stage of its own (built on the first
// profiled execution) and times each. Kernels and threads are the ones the
// operation's stage uses, so the per-operation times add up to about the
// partition's time; what they cannot show is the cross-operation fusion
// XNNPACK does inside one runtime (clamps, pads). Folded float16-weight CASTs
// get no stage (their time is 0): they are folded into the operations
// reading them, as in the partition.
#pragma once

#include <memory>
#include <vector>

#include "common/result.h"
#include "drivers/cpu/staged_graph.h"

namespace annrt::cpu {

class OperationProfiler {
 public:
  static Result<std::unique_ptr<OperationProfiler>> create(const StagedGraph& graph);

  // Runs the model operation by operation: `inputs` are the model's inputs,
  // `outputs` its outputs (each large enough); operationNs[i] gets the time of
  // operation i.
  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   std::vector<uint64_t>& operationNs);

 private:
  explicit OperationProfiler(std::unique_ptr<StagedGraph> graph) : graph_(std::move(graph)) {}

  std::unique_ptr<StagedGraph> graph_;  // one stage per operation
  std::vector<uint64_t> stageNs_;
};

}  // namespace annrt::cpu
