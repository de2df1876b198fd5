// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Which operations of a partition go to the thread pool. XNNPACK hands every
// node of a runtime to that runtime's pool, so a partition whose nodes differ
// widely in size is cut into stages, runs of consecutive operations each
// compiled into a runtime of its own: threaded stages for the operations
// with enough work to pay for the hand-off (work_estimate.h), stages on the
// calling thread for the others. Cuts are kept few, since each one stores a
// tensor XNNPACK would otherwise have kept in its arena and costs a runtime
// set-up per run; no cut separates a node from the clamp or pad XNNPACK fuses
// into it (fusion.h). The plan is the cheapest under a small cost model: an operation
// costs its estimated time on one thread (work_estimate.h) or, threaded,
// that divided among the threads, kThreadEfficiency of perfect, plus the
// hand-off; each cut costs kCutMicros.
//
// Operations annrt-cpu's own kernels run faster (native_kernel.h) make
// native stages. A partition with any is then cut at every XNNPACK node too:
// each XNNPACK runtime plans and holds its own arena, and those added up
// (selfie_segmentation: 15.4 -> 19.8 MB with its few native stages), while
// with one node per runtime every tensor lives in the staged graph's one
// arena, planned over the whole partition (12.6 MB, and 1.71 -> 1.53 ms,
// bench/model_table.sh).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/model.h"
#include "drivers/cpu/fusion.h"

namespace annrt::cpu {

struct PlannedStage {
  // Main-model operation indexes, in execution order. Folded float16 CASTs
  // (FusionRole::HALF_CAST) are in no stage: every stage reading one folds
  // it.
  std::vector<uint32_t> operations;
  bool threaded = false;
  // Run on annrt-cpu's own kernels (native_kernel.h) instead of XNNPACK.
  bool native = false;
};

// The stages, with the fusions they were planned by (their native folds
// included), which the stages' kernels and the profiler follow.
struct StagePlan {
  std::shared_ptr<const FusionPlan> fusions;
  std::vector<PlannedStage> stages;
};

inline constexpr double kThreadEfficiency = 0.9;  // 2 threads: 0.55 of the time
inline constexpr double kCutMicros = 10;

// One stage, marked threaded, when handOffMicros is 0 (the pool always pays),
// threads is 1 (there is no pool) or every cut costs more than it saves, and
// no operation runs better on annrt-cpu's own kernels (native_kernel.h, only
// looked for with `nativeKernels`): runs of those are stages of their own,
// and every XNNPACK node beside them too.
StagePlan planStages(const Model& model, double handOffMicros, uint32_t threads,
                     bool nativeKernels = true);

}  // namespace annrt::cpu
