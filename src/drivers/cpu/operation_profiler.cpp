// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/operation_profiler.h"

namespace annrt::cpu {

Result<std::unique_ptr<OperationProfiler>> OperationProfiler::create(const StagedGraph& graph) {
  std::vector<PlannedStage> plan;
  for (size_t s = 0; s < graph.stageCount(); ++s) {
    const PlannedStage& stage = graph.stagePlan(s);
    for (uint32_t op : stage.operations) plan.push_back({{op}, stage.threaded});
  }
  ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<StagedGraph> perOperation,
                         StagedGraph::compile(graph.sharedModel(), std::move(plan), graph.pool()));
  return std::unique_ptr<OperationProfiler>(new OperationProfiler(std::move(perOperation)));
}

Result<void> OperationProfiler::run(const std::vector<const void*>& inputs,
                                    const std::vector<void*>& outputs,
                                    std::vector<uint64_t>& operationNs) {
  ANNRT_RETURN_IF_ERROR(graph_->run(inputs, outputs, &stageNs_));
  operationNs.assign(graph_->model().main.operations.size(), 0);
  for (size_t s = 0; s < graph_->stageCount(); ++s) {
    operationNs[graph_->stagePlan(s).operations.front()] = stageNs_[s];
  }
  return {};
}

}  // namespace annrt::cpu
