// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/operation_profiler.h"

#include "drivers/cpu/fusion.h"

namespace annrt::cpu {

Result<std::unique_ptr<OperationProfiler>> OperationProfiler::create(const StagedGraph& graph) {
  const Model& model = graph.model();
  std::vector<PlannedStage> plan;
  std::vector<uint32_t> timedOperation;
  for (size_t s = 0; s < graph.stageCount(); ++s) {
    const PlannedStage& stage = graph.stagePlan(s);
    const std::vector<uint32_t>& ops = stage.operations;
    for (size_t i = 0; i < ops.size(); ++i) {
      Fusion fusion = i == 0 ? Fusion::NONE
                             : fusionWithPrevious(model, model.main.operations[ops[i - 1]],
                                                  model.main.operations[ops[i]]);
      // A PAD in a native stage is folded into the operation after it
      // (native_stage.h), a convolution or an ADD.
      if (stage.native && i > 0 && model.main.operations[ops[i - 1]].type == OperationType::PAD) {
        fusion = Fusion::PREVIOUS_INTO;
      }
      if (fusion == Fusion::NONE) {
        plan.push_back({{ops[i]}, stage.threaded, stage.native});
        timedOperation.push_back(ops[i]);
        continue;
      }
      plan.back().operations.push_back(ops[i]);
      if (fusion == Fusion::PREVIOUS_INTO) timedOperation.back() = ops[i];  // not the PAD
    }
  }
  ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<StagedGraph> perOperation,
                         StagedGraph::compile(graph.sharedModel(), std::move(plan), graph.pool()));
  return std::unique_ptr<OperationProfiler>(
      new OperationProfiler(std::move(perOperation), std::move(timedOperation)));
}

Result<void> OperationProfiler::run(const std::vector<const void*>& inputs,
                                    const std::vector<void*>& outputs, bool threaded,
                                    std::vector<uint64_t>& operationNs) {
  ANNRT_RETURN_IF_ERROR(graph_->run(inputs, outputs, threaded, &stageNs_));
  operationNs.assign(graph_->model().main.operations.size(), 0);
  for (size_t s = 0; s < graph_->stageCount(); ++s) {
    operationNs[timedOperation_[s]] = stageNs_[s];
  }
  return {};
}

}  // namespace annrt::cpu
