// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A stage of a staged partition run on annrt-cpu's own kernels
// (native_kernel.h), one per node of its fusion plan (fusion.h) in order: a
// clamp folded into a node is folded into its kernel, a PAD into the kernel
// of the node after it (makeNativeKernel). Tensors made and
// used inside the stage live in one arena sized at compile time, where
// tensors whose lifetimes do not overlap share space: a partition whose
// every operation runs here is one such stage (stage_plan.h), so its arena
// is mapped like the staged graph's (arena_memory.h).
#pragma once

#include <memory>
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

class NativeStage final : public StageExecutable {
 public:
  // `fusions`: the plan of `model` (FusionPlan::slice of the partition's,
  // its native folds included). Every node must have a native kernel, and
  // what folds into it must be in the stage; OP_FAILED names the first
  // operation that breaks this.
  // The kernels' weights come from `weights` (weight_store.h), if given,
  // under stage number `stage`. `threaded`, if not empty, says per
  // operation of `model` whether its kernel runs on `pool` (the stage plan's
  // choice); otherwise every kernel does.
  static Result<std::unique_ptr<NativeStage>> compile(
      std::shared_ptr<const Model> model, const FusionPlan& fusions, ThreadPool pool,
      WeightStore* weights = nullptr, uint32_t stage = 0, const std::vector<bool>& threaded = {},
      ArenaPlacement placement = ArenaPlacement::OWN);

  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   bool threaded) override;

  void populateArenaAhead() override;

  // Floats in the arena (for tests of the planning).
  size_t arenaFloats() const { return arenaFloats_; }
  // ArenaPlacement::CALLER: where the arena is, arenaFloats() floats on a
  // 64-byte boundary; set before the first run.
  void placeArena(uint8_t* arena) { arenaBase_ = arena; }

 private:
  struct Location {
    enum class Kind { MODEL_INPUT, MODEL_OUTPUT, ARENA } kind;
    size_t index;  // input or output index, or offset in floats into the arena
  };
  struct Step {
    std::unique_ptr<NativeKernel> kernel;
    std::vector<Location> reads;
    Location write;
    std::vector<const float*> inputs;  // per-run pointers, kept to avoid allocating
    bool threaded = true;
  };

  NativeStage() = default;
  Result<void> placeTensors(const std::vector<uint32_t>& produced, ArenaPlacement placement);

  std::shared_ptr<const Model> model_;
  ThreadPool pool_;
  std::vector<Step> steps_;
  size_t arenaFloats_ = 0;
  ArenaMemory arena_;             // ArenaPlacement::OWN
  uint8_t* arenaBase_ = nullptr;  // arena_'s or the caller's
};

}  // namespace annrt::cpu
