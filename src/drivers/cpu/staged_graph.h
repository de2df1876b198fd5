// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A partition compiled as a sequence of stages (stage_plan.h), each an
// XNNPACK runtime on a submodel cut out of the partition, or annrt-cpu's
// own kernels (native_stage.h) for a run of consecutive native planned
// stages, on the partition's model itself, each kernel threaded as its
// planned stage was (no submodel cut per node: half of
// face_detection_full_range's warm compile). Tensors passed from one stage
// to a later one live in one arena, sharing it where their spans of stages
// do not overlap, and so does each native stage's own arena, alive while it
// runs; XNNPACK plans its runtimes' tensors itself. A plan of one stage, or
// of native stages only, is the partition compiled whole, with nothing
// extra: one stage, with an arena of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/model.h"
#include "common/result.h"
#include "drivers/cpu/arena_memory.h"
#include "drivers/cpu/arena_plan.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/native_stage.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/weight_store.h"

namespace annrt::cpu {

// Whether a plan of native stages only runs as one stage (what executions
// want) or stage by stage (what the profiler times).
enum class NativeRuns { JOINED, AS_PLANNED };

class StagedGraph {
 public:
  // Threaded stages run on `pool`, the others on the calling thread; native
  // stages fold what plan.fusions says. Packed weights come from `weights`
  // (a cache's), or are packed into a new store that records them.
  static Result<std::unique_ptr<StagedGraph>> compile(
      std::shared_ptr<const Model> model, StagePlan plan, const ThreadPool& pool,
      std::shared_ptr<WeightStore> weights = nullptr, NativeRuns nativeRuns = NativeRuns::JOINED);

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& sharedModel() const { return model_; }
  const ThreadPool& pool() const { return pool_; }
  const std::shared_ptr<const FusionPlan>& fusions() const { return fusions_; }
  // The plan, as given (and as the cache keeps it).
  size_t stageCount() const { return plan_.size(); }
  const PlannedStage& stagePlan(size_t stage) const { return plan_[stage]; }
  // What runs: one per planned stage, or one for a joined native plan.
  size_t runCount() const { return stages_.size(); }
  const WeightStore& weights() const { return *weights_; }

  // Maps the pages of the arena between stages on a thread of its own
  // while the caller goes on (arena_memory.h), where the arena is large
  // enough for that to pay.
  void populateArenaAhead();

  // Runs on the model's inputs, writing its outputs (each large enough), the
  // threaded stages on the pool unless `threaded` is false; stageNs, if
  // given, gets the time of each of the runCount() stages. Not reentrant.
  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   bool threaded = true, std::vector<uint64_t>* stageNs = nullptr);

 private:
  // Where a stage reads or writes an operand.
  struct Slot {
    enum class Kind { MODEL_INPUT, MODEL_OUTPUT, INTERMEDIATE } kind;
    size_t index;
  };
  struct Stage {
    std::unique_ptr<StageExecutable> graph;
    std::vector<Slot> reads, writes;
    std::vector<const void*> inputs;  // per-run pointers, kept to avoid allocating
    std::vector<void*> outputs;
    NativeStage* native = nullptr;  // graph, if it is one placed in the arena
    int64_t scratch = -1;           // its arena: an index into intermediates_
  };
  // Planned stages [first, first + count), compiled as one.
  struct Run {
    size_t first, count;
  };

  StagedGraph() = default;
  // `casts`: the HALF_CASTs by the operand they write, folded into each
  // stage reading them.
  Result<void> addStage(Run run, const std::unordered_map<uint32_t, uint32_t>& casts,
                        const std::function<bool(uint32_t)>& readOutside, const ThreadPool& pool);
  // The whole partition as one stage: the plan's one stage, or its native
  // stages joined.
  Result<void> addWholeStage(Run run, const ThreadPool& pool);
  std::vector<uint32_t> operationsOf(Run run) const;
  // A native run's kernels, threaded as their planned stages (a kernel of
  // an unthreaded stage never gets the pool), their weights under stage
  // number `index`.
  NativeStageSpec nativeSpec(Run run, uint32_t index) const;
  // `operations`: the run's and the casts they read, sorted. Native runs
  // compile on the whole model; an XNNPACK one on its submodel.
  Result<void> compileNative(Run run, const std::vector<uint32_t>& operations,
                             const std::function<bool(uint32_t)>& readOutside,
                             const ThreadPool& pool, Stage& stage);
  Result<void> compileXnnpack(Run run, const std::vector<uint32_t>& operations,
                              const std::function<bool(uint32_t)>& readOutside,
                              const ThreadPool& pool, Stage& stage);
  // Stage number `index` reads / writes `operand`.
  void readFrom(uint32_t operand, size_t index, Stage& stage);
  void writeTo(uint32_t operand, size_t index, Stage& stage);
  Slot slotOf(uint32_t operand);
  Result<void> allocateIntermediates();

  std::shared_ptr<const Model> model_;
  std::shared_ptr<const FusionPlan> fusions_;
  std::shared_ptr<WeightStore> weights_;
  ThreadPool pool_;
  std::vector<PlannedStage> plan_;
  std::vector<Stage> stages_;
  std::vector<ArenaTensor> intermediates_;  // bytes, by the stages writing and reading them
  std::vector<int64_t> intermediateOf_;     // per operand: index into intermediates_, or -1
  ArenaMemory arena_;
};

}  // namespace annrt::cpu
