// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A stage of a staged partition run on annrt-cpu's own kernels
// (native_kernel.h): operations of the partition's model, one kernel per
// node of its fusion plan (fusion.h) in order: a clamp folded into a node is
// folded into its kernel, a PAD into the kernel of the node after it
// (makeNativeKernel). Tensors made and used inside the stage live in one
// arena sized at compile time, where tensors whose lifetimes do not overlap
// share space: the stage's own (mapped as the staged graph's is,
// arena_memory.h) when it runs the whole partition, else a place in the
// staged graph's arena.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "common/model.h"
#include "drivers/cpu/arena_memory.h"
#include "drivers/cpu/fusion.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/stage_executable.h"
#include "drivers/cpu/thread_pool.h"

namespace annrt::cpu {

// Who maps a native stage's arena: the stage itself, or the staged graph
// around it, which places it in its own arena (placeArena) among the
// tensors that cross stages, so that the arenas of several native stages,
// which never run at once, share space.
enum class ArenaPlacement { OWN, CALLER };

// What of a model a native stage runs, and how.
struct NativeStageSpec {
  // Operations of the model in execution order, the folded casts they
  // read among them; empty: all of them.
  std::vector<uint32_t> operations;
  // The operands read from outside those operations and those written
  // for outside, in the order run() takes and gives them (as
  // submodelBoundary lists them); with all operations, empty lists mean
  // the model's inputs and outputs.
  std::vector<uint32_t> inputs, outputs;
  // Per operation of the model: whether its kernel runs on the pool (the
  // stage plan's choice); empty: every kernel does.
  std::vector<bool> threaded;
  // The kernels' weights (weight_store.h), under stage number `stage`;
  // null: each kernel packs its own.
  WeightStore* weights = nullptr;
  uint32_t stage = 0;
  ArenaPlacement placement = ArenaPlacement::OWN;
};

class NativeStage final : public StageExecutable {
 public:
  // `fusions`: the plan of `model` (the partition's, its native folds
  // included). Every node must have a native kernel, and what folds into it
  // must be in the stage; OP_FAILED names the first operation that breaks
  // this.
  static Result<std::unique_ptr<NativeStage>> compile(std::shared_ptr<const Model> model,
                                                      const FusionPlan& fusions, ThreadPool pool,
                                                      NativeStageSpec spec = {});

  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   bool threaded) override;

  void populateArenaAhead() override;

  // Floats in the arena (for tests of the planning).
  size_t arenaFloats() const { return arenaFloats_; }
  // Kernels it runs, one per node (for tests).
  size_t kernelCount() const { return steps_.size(); }
  // Pairs of steps run band by band on one thread (for tests).
  size_t bandPairs() const {
    return static_cast<size_t>(std::count_if(steps_.begin(), steps_.end(),
                                             [](const Step& step) { return step.bandsWithNext; }));
  }
  // ArenaPlacement::CALLER: where the arena is, arenaFloats() floats on a
  // 64-byte boundary; set before the first run.
  void placeArena(uint8_t* arena) { arenaBase_ = arena; }

 private:
  struct Location {
    enum class Kind { STAGE_INPUT, STAGE_OUTPUT, ARENA } kind;
    size_t index;  // input or output index, or offset in floats into the arena
  };
  struct Step {
    std::unique_ptr<NativeKernel> kernel;
    std::vector<Location> reads;
    Location write;
    std::vector<const float*> inputs;  // per-run pointers, kept to avoid allocating
    bool threaded = true;
    // Runs band by band with the next step (band_pair.h), which reads only
    // this one's output, an arena image of rows of `rowPixels` pixels
    // (`rowFloats` floats), or a window of `windowRows` of them per
    // thread (0: the whole image); `nextReads` are the rows of it each of
    // the next step's output rows reads.
    bool bandsWithNext = false;
    RowReads nextReads{};
    size_t rowPixels = 0, rowFloats = 0;
    uint32_t windowRows = 0;
    // On the pool too (bandOnPoolWorthIt), where the plan threads both.
    bool bandsOnPool = false;
  };

  NativeStage() = default;
  Result<void> placeTensors(const std::vector<uint32_t>& produced, const NativeStageSpec& spec);
  // Marks the steps that run band by band with the next (bandPairWorthIt),
  // moving a producer to right before its consumer where steps between
  // them do not read its output; operands of `spec`'s boundary never pair.
  void pairBands(const NativeStageSpec& spec);
  // Folds `add` (FusionRole::ADDEND) into the last step's kernel, with
  // `pad`, if any, the PAD along the channels folded into the ADD.
  Result<void> foldAdd(const LoweringContext& context, const Operation& add, const Operation* pad);
  // The step after `step` reading `operand`, if it is the one read of it
  // (`reads`: the reads of each operand by all steps).
  std::optional<size_t> soleReaderAfter(size_t step, uint32_t operand,
                                        const std::vector<uint32_t>& reads) const;
  // Threads of its pool (1: none).
  size_t threadCount() const;

  std::shared_ptr<const Model> model_;
  ThreadPool pool_;
  size_t inputCount_ = 0, outputCount_ = 0;
  std::vector<Step> steps_;
  size_t arenaFloats_ = 0;
  ArenaMemory arena_;             // ArenaPlacement::OWN
  uint8_t* arenaBase_ = nullptr;  // arena_'s or the caller's
};

}  // namespace annrt::cpu
