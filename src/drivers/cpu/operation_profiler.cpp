// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/operation_profiler.h"

namespace annrt::cpu {

Result<std::unique_ptr<OperationProfiler>> OperationProfiler::create(const StagedGraph& graph) {
  const FusionPlan& fusions = *graph.fusions();
  std::vector<PlannedStage> plan;
  std::vector<uint32_t> timedOperation;
  for (size_t s = 0; s < graph.stageCount(); ++s) {
    const PlannedStage& stage = graph.stagePlan(s);
    const std::vector<uint32_t>& ops = stage.operations;
    for (size_t i = 0; i < ops.size(); ++i) {
      // An operation joins the stage of the one before it when both are of
      // one node (and in one stage of the graph: one cut away from its node
      // runs as a node of its own).
      if (i == 0 || fusions.node(ops[i]) != fusions.node(ops[i - 1])) {
        plan.push_back({{ops[i]}, stage.threaded, stage.native});
        timedOperation.push_back(ops[i]);
        continue;
      }
      plan.back().operations.push_back(ops[i]);
      if (fusions.node(ops[i]) == ops[i]) timedOperation.back() = ops[i];  // not the PAD before it
    }
  }
  ANNRT_ASSIGN_OR_RETURN(
      std::unique_ptr<StagedGraph> perOperation,
      StagedGraph::compile(graph.sharedModel(), {graph.fusions(), std::move(plan)}, graph.pool(),
                           nullptr, NativeRuns::AS_PLANNED));
  return std::unique_ptr<OperationProfiler>(
      new OperationProfiler(std::move(perOperation), std::move(timedOperation)));
}

Result<void> OperationProfiler::run(const std::vector<const void*>& inputs,
                                    const std::vector<void*>& outputs, bool threaded,
                                    std::vector<uint64_t>& operationNs) {
  ANNRT_RETURN_IF_ERROR(graph_->run(inputs, outputs, threaded, &stageNs_));
  operationNs.assign(graph_->model().main.operations.size(), 0);
  for (size_t s = 0; s < graph_->runCount(); ++s) {
    operationNs[timedOperation_[s]] = stageNs_[s];
  }
  return {};
}

}  // namespace annrt::cpu
