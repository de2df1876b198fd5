// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How long an operation takes on one core, roughly, to decide which
// operations are worth handing to the thread pool (stage_plan.h). Rates are
// those of XNNPACK's kernels on the 2-vCPU development VM (AMD Zen 5,
// `--enable_op_profiling` on the default models): convolutions and fully
// connected layers about 100 MFLOP/ms, depthwise convolutions about 20 (they
// are bound by memory), everything else about 7 million output elements/ms.
// Only the ratios between operations matter much.
#pragma once

#include "common/model.h"

namespace annrt::cpu {

// MFLOP of one operation: multiply-adds count 2, other operations 1 per
// output element; 0 for those that are not XNNPACK nodes of their own
// (folded float16 casts, reshapes).
double operationMflop(const Model& model, const Operation& op);

// Estimated microseconds of one operation on one thread.
double operationMicros(const Model& model, const Operation& op);

// What handing one node to the thread pool costs, in microseconds: the
// hand-off, the tiles handed out through shared counters and the barrier
// after it. A bare hand-off takes 1.5-3.5 us with Debian's pthreadpool on the
// development VM (bench/thread_handoff_bench.cpp), but inside a model's run
// the per-node cost is what matters, and it depends on the host: on a quiet
// one (a cache line to the other vCPU and back in about 85 ns) under 2 us,
// while at other times (about 400 ns) the host makes it 6-14 us (the PADs
// and ADDs of face detection then took 2.5 times longer on 2 threads than on
// 1). The default was 10 while XNNPACK runtimes held several nodes; since
// partitions run node by node beside native stages (stage_plan.h), 10 cost
// 15-25% on a quiet host (face_detection_short_range 0.55 vs 0.43 ms on 2
// threads, face_detection_full_range 1.54 vs 1.31, selfie_segmentation_landscape
// 0.68 vs 0.56; 3 cost 5%, 2 nothing), while on a busy host 3 gained 5-8% over
// 0. Hence 2. ANNRT_CPU_HANDOFF_US, else kDefaultHandOffMicros; 0 hands every
// node to the pool.
inline constexpr double kDefaultHandOffMicros = 2;
double handOffMicros();

}  // namespace annrt::cpu
