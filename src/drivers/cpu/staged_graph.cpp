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
namespace {

// `fusions`: the plan of `model`. paddedInputs[i]: XNN_EXTRA_BYTES past the
// end of input i may be read.
Result<std::unique_ptr<StageExecutable>> compileStage(
    std::shared_ptr<const Model> model, const PlannedStage& plan, const FusionPlan& fusions,
    const ThreadPool& pool, const std::shared_ptr<WeightStore>& weights, uint32_t index,
    std::vector<bool> paddedInputs = {}) {
  ThreadPool stagePool = plan.threaded ? pool : nullptr;
  if (plan.native) {
    ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<NativeStage> stage,
                           NativeStage::compile(std::move(model), fusions, std::move(stagePool),
                                                weights.get(), index));
    return std::unique_ptr<StageExecutable>(std::move(stage));
  }
  ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<CompiledGraph> graph,
                         CompiledGraph::compile(std::move(model), std::move(stagePool),
                                                std::move(paddedInputs), weights));
  return std::unique_ptr<StageExecutable>(std::move(graph));
}

}  // namespace

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
  const bool allNative = std::all_of(graph->plan_.begin(), graph->plan_.end(),
                                     [](const PlannedStage& stage) { return stage.native; });
  if (graph->plan_.size() == 1 || (allNative && nativeRuns == NativeRuns::JOINED)) {
    ANNRT_RETURN_IF_ERROR(graph->addWholeStage(pool));
    return graph;
  }
  const Model& whole = *graph->model_;
  graph->intermediateOf_.assign(whole.main.operands.size(), -1);
  // An operand is read outside a stage when a staged operation of another
  // stage reads it; folded casts go into every stage reading them instead.
  std::vector<int> stageOf(whole.main.operations.size(), -1);
  const std::vector<PlannedStage>& plan = graph->plan_;
  for (size_t s = 0; s < plan.size(); ++s) {
    for (uint32_t op : plan[s].operations) stageOf[op] = static_cast<int>(s);
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
  for (size_t s = 0; s < plan.size(); ++s) {
    const auto stage = static_cast<int>(s);
    auto readOutside = [&](uint32_t operand) {
      const int reader = readerStage[operand];
      return reader == kSeveralStages || (reader >= 0 && reader != stage);
    };
    ANNRT_RETURN_IF_ERROR(graph->addStage(plan[s], casts, readOutside, pool));
  }
  ANNRT_RETURN_IF_ERROR(graph->allocateIntermediates());
  return graph;
}

Result<void> StagedGraph::addWholeStage(const ThreadPool& pool) {
  const Model& whole = *model_;
  Stage stage{nullptr, {}, {}, {}, {}};
  if (plan_.size() == 1) {
    ANNRT_ASSIGN_OR_RETURN(stage.graph,
                           compileStage(model_, plan_.front(), *fusions_, pool, weights_, 0));
  } else {
    // Folded casts are in no stage, and run in none.
    std::vector<bool> threaded(whole.main.operations.size(), false);
    for (const PlannedStage& planned : plan_) {
      for (uint32_t op : planned.operations) threaded[op] = planned.threaded;
    }
    const bool anyThreaded = std::find(threaded.begin(), threaded.end(), true) != threaded.end();
    ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<NativeStage> joined,
                           NativeStage::compile(model_, *fusions_, anyThreaded ? pool : nullptr,
                                                weights_.get(), 0, threaded));
    stage.graph = std::move(joined);
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

Result<void> StagedGraph::addStage(const PlannedStage& plan,
                                   const std::unordered_map<uint32_t, uint32_t>& casts,
                                   const std::function<bool(uint32_t)>& readOutside,
                                   const ThreadPool& pool) {
  const Model& whole = *model_;
  std::vector<uint32_t> operations = plan.operations;
  for (uint32_t op : plan.operations) {
    for (uint32_t input : whole.main.operations[op].inputs) {
      if (auto cast = casts.find(input); cast != casts.end()) operations.push_back(cast->second);
    }
  }
  std::sort(operations.begin(), operations.end());
  operations.erase(std::unique(operations.begin(), operations.end()), operations.end());
  Submodel submodel = extractSubmodel(whole, operations, readOutside);
  const size_t index = stages_.size();
  std::vector<Slot> reads;
  std::vector<bool> padded;
  for (uint32_t operand : submodel.inputs) {
    reads.push_back(slotOf(operand));
    padded.push_back(reads.back().kind == Slot::Kind::INTERMEDIATE);
    if (padded.back()) intermediates_[reads.back().index].last = index;
  }
  Result<std::unique_ptr<StageExecutable>> compiled =
      compileStage(submodel.model, plan, fusions_->slice(operations), pool, weights_,
                   static_cast<uint32_t>(index), std::move(padded));
  if (!compiled.ok()) {
    return makeError(compiled.error().code, "annrt-cpu: stage {} (operations {}-{}): {}",
                     stages_.size(), plan.operations.front(), plan.operations.back(),
                     compiled.error().message);
  }
  Stage stage{std::move(*compiled), std::move(reads), {}, {}, {}};
  for (uint32_t operand : submodel.outputs) {
    const auto& outputs = whole.main.outputIndexes;
    if (std::find(outputs.begin(), outputs.end(), operand) == outputs.end()) {
      // Padded: XNNPACK may read XNN_EXTRA_BYTES past it in a later stage.
      // 64-byte aligned, a cache line.
      const size_t bytes = byteSize(whole.main.operands[operand].shape) + XNN_EXTRA_BYTES;
      intermediateOf_[operand] = static_cast<int64_t>(intermediates_.size());
      intermediates_.push_back({index, index, (bytes + 63) / 64 * 64, 0});
    }
    stage.writes.push_back(slotOf(operand));
  }
  stage.inputs.resize(stage.reads.size());
  stage.outputs.resize(stage.writes.size());
  stages_.push_back(std::move(stage));
  return {};
}

Result<void> StagedGraph::allocateIntermediates() {
  const size_t bytes = planArena(intermediates_);
  if (bytes == 0) return {};
  ANNRT_ASSIGN_OR_RETURN(arena_, ArenaMemory::allocate(bytes));
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
