// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/staged_graph.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <unordered_map>

#include "common/device.h"
#include "common/submodel.h"
#include "drivers/cpu/native_stage.h"

namespace annrt::cpu {

Result<std::unique_ptr<StagedGraph>> StagedGraph::compile(std::shared_ptr<const Model> model,
                                                          StagePlan stagePlan,
                                                          const ThreadPool& pool,
                                                          std::shared_ptr<WeightStore> weights,
                                                          NativeRuns nativeRuns) {
  ANNRT_CHECK(!stagePlan.stages.empty(), "annrt-cpu: no stage to compile");
  ANNRT_CHECK(stagePlan.fusions != nullptr &&
                  stagePlan.fusions->operationCount() == model->main.operations.size(),
              "annrt-cpu: no fusion plan of the partition's operations");
  std::unique_ptr<StagedGraph> graph(new StagedGraph());
  graph->model_ = std::move(model);
  graph->fusions_ = std::move(stagePlan.fusions);
  graph->weights_ = weights != nullptr ? std::move(weights) : std::make_shared<WeightStore>();
  graph->pool_ = pool;
  graph->plan_ = std::move(stagePlan.stages);
  const std::vector<PlannedStage>& plan = graph->plan_;
  // What runs: each XNNPACK stage, and each run of consecutive native
  // stages joined (or each native stage, as planned).
  std::vector<Run> runs;
  for (size_t s = 0; s < plan.size(); ++s) {
    const bool join =
        nativeRuns == NativeRuns::JOINED && s > 0 && plan[s].native && plan[s - 1].native;
    if (join) {
      ++runs.back().count;
    } else {
      runs.push_back({s, 1});
    }
  }
  if (runs.size() == 1) {
    ANNRT_RETURN_IF_ERROR(graph->addWholeStage(runs.front(), pool));
    return graph;
  }
  const Model& whole = *graph->model_;
  graph->intermediateOf_.assign(whole.main.operands.size(), -1);
  // An operand is read outside a stage when a staged operation of another
  // stage reads it; folded casts go into every stage reading them instead.
  std::vector<int> stageOf(whole.main.operations.size(), -1);
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t s = runs[r].first; s < runs[r].first + runs[r].count; ++s) {
      for (uint32_t op : plan[s].operations) stageOf[op] = static_cast<int>(r);
    }
  }
  std::unordered_map<uint32_t, uint32_t> casts;
  for (uint32_t op = 0; op < whole.main.operations.size(); ++op) {
    if (graph->fusions_->role(op) == FusionRole::HALF_CAST) {
      casts[whole.main.operations[op].outputs[0]] = op;
    }
  }
  // The one stage whose staged operations read each operand, or kNoStage or
  // kSeveralStages: found once, not per stage (pose_landmark_full has 132).
  constexpr int kNoStage = -1, kSeveralStages = -2;
  std::vector<int> readerStage(whole.main.operands.size(), kNoStage);
  for (size_t op = 0; op < whole.main.operations.size(); ++op) {
    if (stageOf[op] < 0) continue;
    for (uint32_t input : whole.main.operations[op].inputs) {
      int& reader = readerStage[input];
      reader = reader == kNoStage || reader == stageOf[op] ? stageOf[op] : kSeveralStages;
    }
  }
  for (size_t r = 0; r < runs.size(); ++r) {
    const auto stage = static_cast<int>(r);
    auto readOutside = [&](uint32_t operand) {
      const int reader = readerStage[operand];
      return reader == kSeveralStages || (reader >= 0 && reader != stage);
    };
    ANNRT_RETURN_IF_ERROR(graph->addStage(runs[r], casts, readOutside, pool));
  }
  ANNRT_RETURN_IF_ERROR(graph->allocateIntermediates());
  return graph;
}

std::vector<uint32_t> StagedGraph::operationsOf(Run run) const {
  std::vector<uint32_t> operations;
  for (size_t s = run.first; s < run.first + run.count; ++s) {
    operations.insert(operations.end(), plan_[s].operations.begin(), plan_[s].operations.end());
  }
  return operations;
}

NativeStageSpec StagedGraph::nativeSpec(Run run, uint32_t index) const {
  NativeStageSpec spec;
  spec.threaded.assign(model_->main.operations.size(), false);
  for (size_t s = run.first; s < run.first + run.count; ++s) {
    for (uint32_t op : plan_[s].operations) spec.threaded[op] = plan_[s].threaded;
  }
  spec.weights = weights_.get();
  spec.stage = index;
  return spec;
}

Result<void> StagedGraph::addWholeStage(Run run, const ThreadPool& pool) {
  const Model& whole = *model_;
  const PlannedStage& first = plan_[run.first];
  Stage stage;
  if (first.native) {
    ANNRT_ASSIGN_OR_RETURN(stage.graph,
                           NativeStage::compile(model_, *fusions_, pool, nativeSpec(run, 0)));
  } else {
    ANNRT_ASSIGN_OR_RETURN(
        stage.graph, CompiledGraph::compile(model_, first.threaded ? pool : nullptr, {}, weights_));
  }
  for (size_t i = 0; i < whole.main.inputIndexes.size(); ++i) {
    stage.reads.push_back({Slot::Kind::MODEL_INPUT, i});
  }
  for (size_t i = 0; i < whole.main.outputIndexes.size(); ++i) {
    stage.writes.push_back({Slot::Kind::MODEL_OUTPUT, i});
  }
  stage.inputs.resize(stage.reads.size());
  stage.outputs.resize(stage.writes.size());
  stages_.push_back(std::move(stage));
  return {};
}

Result<void> StagedGraph::addStage(Run run, const std::unordered_map<uint32_t, uint32_t>& casts,
                                   const std::function<bool(uint32_t)>& readOutside,
                                   const ThreadPool& pool) {
  const Model& whole = *model_;
  const std::vector<uint32_t> planned = operationsOf(run);
  std::vector<uint32_t> operations = planned;
  for (uint32_t op : planned) {
    for (uint32_t input : whole.main.operations[op].inputs) {
      if (auto cast = casts.find(input); cast != casts.end()) operations.push_back(cast->second);
    }
  }
  std::sort(operations.begin(), operations.end());
  operations.erase(std::unique(operations.begin(), operations.end()), operations.end());
  const size_t index = stages_.size();
  Stage stage;
  Result<void> compiled = plan_[run.first].native
                              ? compileNative(run, operations, readOutside, pool, stage)
                              : compileXnnpack(run, operations, readOutside, pool, stage);
  if (!compiled.ok()) {
    return makeError(compiled.error().code, "annrt-cpu: stage {} (operations {}-{}): {}", index,
                     planned.front(), planned.back(), compiled.error().message);
  }
  stage.inputs.resize(stage.reads.size());
  stage.outputs.resize(stage.writes.size());
  stages_.push_back(std::move(stage));
  return {};
}

Result<void> StagedGraph::compileNative(Run run, const std::vector<uint32_t>& operations,
                                        const std::function<bool(uint32_t)>& readOutside,
                                        const ThreadPool& pool, Stage& stage) {
  const size_t index = stages_.size();
  SubmodelBoundary boundary = submodelBoundary(*model_, operations, readOutside);
  NativeStageSpec spec = nativeSpec(run, static_cast<uint32_t>(index));
  spec.operations = operations;
  spec.inputs = boundary.inputs;
  spec.outputs = boundary.outputs;
  spec.placement = ArenaPlacement::CALLER;
  ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<NativeStage> native,
                         NativeStage::compile(model_, *fusions_, pool, std::move(spec)));
  for (uint32_t operand : boundary.inputs) readFrom(operand, index, stage);
  if (native->arenaFloats() > 0) {
    // Alive only while the stage runs: the arenas of native stages share space.
    stage.scratch = static_cast<int64_t>(intermediates_.size());
    intermediates_.push_back({index, index, native->arenaFloats() * sizeof(float), 0});
  }
  for (uint32_t operand : boundary.outputs) writeTo(operand, index, stage);
  stage.native = native.get();
  stage.graph = std::move(native);
  return {};
}

Result<void> StagedGraph::compileXnnpack(Run run, const std::vector<uint32_t>& operations,
                                         const std::function<bool(uint32_t)>& readOutside,
                                         const ThreadPool& pool, Stage& stage) {
  const size_t index = stages_.size();
  Submodel submodel = extractSubmodel(*model_, operations, readOutside);
  std::vector<bool> padded;
  for (uint32_t operand : submodel.inputs) {
    readFrom(operand, index, stage);
    padded.push_back(stage.reads.back().kind == Slot::Kind::INTERMEDIATE);
  }
  ANNRT_ASSIGN_OR_RETURN(
      stage.graph,
      CompiledGraph::compile(submodel.model, plan_[run.first].threaded ? pool : nullptr, padded,
                             weights_));
  for (uint32_t operand : submodel.outputs) writeTo(operand, index, stage);
  return {};
}

void StagedGraph::readFrom(uint32_t operand, size_t index, Stage& stage) {
  stage.reads.push_back(slotOf(operand));
  if (stage.reads.back().kind == Slot::Kind::INTERMEDIATE) {
    intermediates_[stage.reads.back().index].last = index;
  }
}

void StagedGraph::writeTo(uint32_t operand, size_t index, Stage& stage) {
  const auto& outputs = model_->main.outputIndexes;
  if (std::find(outputs.begin(), outputs.end(), operand) == outputs.end()) {
    // Padded: XNNPACK may read XNN_EXTRA_BYTES past it in a later stage.
    // 64-byte aligned, a cache line.
    const size_t bytes = byteSize(model_->main.operands[operand].shape) + XNN_EXTRA_BYTES;
    intermediateOf_[operand] = static_cast<int64_t>(intermediates_.size());
    intermediates_.push_back({index, index, (bytes + 63) / 64 * 64, 0});
  }
  stage.writes.push_back(slotOf(operand));
}

Result<void> StagedGraph::allocateIntermediates() {
  const size_t bytes = planArena(intermediates_);
  if (bytes == 0) return {};
  ANNRT_ASSIGN_OR_RETURN(arena_, ArenaMemory::allocate(bytes));
  for (Stage& stage : stages_) {
    if (stage.scratch >= 0) {
      stage.native->placeArena(arena_.data() + intermediates_[stage.scratch].offset);
    }
  }
  return {};
}

void StagedGraph::populateArenaAhead() {
  if (arena_.size() >= kPopulateAheadBytes) arena_.populateAhead();
  for (Stage& stage : stages_) stage.graph->populateArenaAhead();
}

StagedGraph::Slot StagedGraph::slotOf(uint32_t operand) {
  const Subgraph& main = model_->main;
  if (auto in = std::find(main.inputIndexes.begin(), main.inputIndexes.end(), operand);
      in != main.inputIndexes.end()) {
    return {Slot::Kind::MODEL_INPUT, static_cast<size_t>(in - main.inputIndexes.begin())};
  }
  if (auto out = std::find(main.outputIndexes.begin(), main.outputIndexes.end(), operand);
      out != main.outputIndexes.end()) {
    return {Slot::Kind::MODEL_OUTPUT, static_cast<size_t>(out - main.outputIndexes.begin())};
  }
  return {Slot::Kind::INTERMEDIATE, static_cast<size_t>(intermediateOf_[operand])};
}

Result<void> StagedGraph::run(const std::vector<const void*>& inputs,
                              const std::vector<void*>& outputs, bool threaded,
                              std::vector<uint64_t>* stageNs) {
  auto address = [&](const Slot& slot) -> void* {
    switch (slot.kind) {
      case Slot::Kind::MODEL_INPUT: return const_cast<void*>(inputs[slot.index]);
      case Slot::Kind::MODEL_OUTPUT: return outputs[slot.index];
      case Slot::Kind::INTERMEDIATE: return arena_.data() + intermediates_[slot.index].offset;
    }
    return nullptr;
  };
  if (stageNs != nullptr) stageNs->assign(stages_.size(), 0);
  for (size_t s = 0; s < stages_.size(); ++s) {
    Stage& stage = stages_[s];
    for (size_t i = 0; i < stage.reads.size(); ++i) stage.inputs[i] = address(stage.reads[i]);
    for (size_t i = 0; i < stage.writes.size(); ++i) stage.outputs[i] = address(stage.writes[i]);
    const auto start = Clock::now();
    ANNRT_RETURN_IF_ERROR(stage.graph->run(stage.inputs, stage.outputs, threaded));
    if (stageNs != nullptr) {
      (*stageNs)[s] = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    }
  }
  return {};
}

}  // namespace annrt::cpu
