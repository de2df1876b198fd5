// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/operation_profiler.h"

#include <set>
#include <unordered_set>

#include "common/device.h"
#include "drivers/cpu/lowering_context.h"

namespace annrt::cpu {

Result<std::unique_ptr<OperationProfiler>> OperationProfiler::create(
    std::shared_ptr<const Model> model, const ThreadPool& pool) {
  std::unique_ptr<OperationProfiler> profiler(new OperationProfiler());
  const Subgraph& main = model->main;
  const std::unordered_set<uint32_t> modelOutputs(main.outputIndexes.begin(),
                                                  main.outputIndexes.end());
  // Float16 weights: their CASTs are folded, so each goes into the stages of
  // the operations reading it rather than being timed as a copy of its own.
  std::unordered_map<uint32_t, uint32_t> foldedCastOf;  // CAST output -> CAST
  for (uint32_t i = 0; i < main.operations.size(); ++i) {
    const Operation& op = main.operations[i];
    if (isFoldableHalfCast(*model, op) && !modelOutputs.count(op.outputs[0])) {
      foldedCastOf[op.outputs[0]] = i;
    }
  }
  // Every other output of an operation is a stage output: later stages read it.
  std::vector<bool> readOutside(main.operands.size(), true);
  for (const auto& [output, cast] : foldedCastOf) readOutside[output] = false;
  for (uint32_t i = 0; i < main.operations.size(); ++i) {
    const Operation& op = main.operations[i];
    if (!op.outputs.empty() && foldedCastOf.count(op.outputs[0])) continue;
    std::set<uint32_t> operations = {i};
    for (uint32_t input : op.inputs) {
      if (auto cast = foldedCastOf.find(input); cast != foldedCastOf.end()) {
        operations.insert(cast->second);
      }
    }
    Submodel submodel = extractSubmodel(
        *model, std::vector<uint32_t>(operations.begin(), operations.end()), readOutside);
    Result<std::unique_ptr<CompiledGraph>> graph = CompiledGraph::compile(submodel.model, pool);
    if (!graph.ok()) {
      return makeError(graph.error().code, "operation {} ({}) cannot run on its own: {}", i,
                       operationTypeName(op.type), graph.error().message);
    }
    for (uint32_t operand : submodel.outputs) {
      // Padded, so the next stages read them in place.
      profiler->intermediates_.emplace(
          operand,
          std::make_unique<uint8_t[]>(byteSize(main.operands[operand].shape) + XNN_EXTRA_BYTES));
    }
    profiler->stages_.push_back({i, std::move(submodel), std::move(*graph)});
  }
  for (size_t i = 0; i < main.inputIndexes.size(); ++i) {
    profiler->inputPosition_[main.inputIndexes[i]] = i;
  }
  for (size_t i = 0; i < main.outputIndexes.size(); ++i) {
    profiler->outputPosition_[main.outputIndexes[i]] = i;
  }
  profiler->model_ = std::move(model);
  return profiler;
}

const void* OperationProfiler::source(uint32_t operand, const std::vector<const void*>& inputs,
                                      const std::vector<void*>& outputs) const {
  if (auto input = inputPosition_.find(operand); input != inputPosition_.end()) {
    return inputs[input->second];
  }
  if (auto output = outputPosition_.find(operand); output != outputPosition_.end()) {
    return outputs[output->second];
  }
  return intermediates_.at(operand).get();
}

void* OperationProfiler::destination(uint32_t operand, const std::vector<void*>& outputs) {
  if (auto output = outputPosition_.find(operand); output != outputPosition_.end()) {
    return outputs[output->second];
  }
  return intermediates_.at(operand).get();
}

Result<void> OperationProfiler::run(const std::vector<const void*>& inputs,
                                    const std::vector<void*>& outputs,
                                    std::vector<uint64_t>& operationNs) {
  operationNs.assign(model_->main.operations.size(), 0);
  for (size_t i = 0; i < stages_.size(); ++i) {
    Stage& stage = stages_[i];
    std::vector<const void*> stageInputs;
    for (uint32_t operand : stage.submodel.inputs) {
      stageInputs.push_back(source(operand, inputs, outputs));
    }
    std::vector<void*> stageOutputs;
    for (uint32_t operand : stage.submodel.outputs) {
      stageOutputs.push_back(destination(operand, outputs));
    }
    const auto start = Clock::now();
    ANNRT_RETURN_IF_ERROR(stage.graph->run(stageInputs, stageOutputs));
    operationNs[stage.operation] = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
  }
  return {};
}

}  // namespace annrt::cpu
