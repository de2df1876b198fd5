// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Per-operation timing for annrt-cpu. A stage runs as one XNNPACK runtime,
// and the XNNPACK Debian ships has no profiling API, so a profiled execution
// instead runs each operation as a stage of its own (built on the first
// profiled execution) and times each. Kernels and threads are the ones the
// operation's stage uses, so the per-operation times add up to about the
// partition's time; what they cannot show is the memory traffic saved between
// operations of one runtime. The partition's fusion plan (fusion.h) groups
// them: operations folded into a node share its stage and their time goes to
// the node (a PAD's and a RELU's to their convolution or ADD, XNNPACK's or
// annrt-cpu's own; they read 0), as do folded float16-weight CASTs (folded
// into the operations reading them, as in the partition).
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
  // operation i. `threaded` as for StagedGraph::run.
  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   bool threaded, std::vector<uint64_t>& operationNs);

 private:
  OperationProfiler(std::unique_ptr<StagedGraph> graph, std::vector<uint32_t> timedOperation)
      : graph_(std::move(graph)), timedOperation_(std::move(timedOperation)) {}

  std::unique_ptr<StagedGraph> graph_;    // one stage per operation (with those fused into it)
  std::vector<uint32_t> timedOperation_;  // per stage: the operation its time goes to
  std::vector<uint64_t> stageNs_;
};

}  // namespace annrt::cpu
