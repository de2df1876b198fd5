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
// the per-node cost is what matters: on a quiet host under 2 us (face
// detection ran 0.86 -> 0.61 ms on 2 threads, about 100 nodes), while on most
// of the days it was measured the host made it 6-14 us (the PADs and ADDs of
// face detection took 2.5 times longer on 2 threads than on 1). The default
// is set for the latter, which costs little on a quiet host: the heavy
// operations still go to the pool. Measured on face_detection_short_range,
// selfie_segmentation, face_detection_full_range, hand_landmark_full and
// pose_landmark_full at 3, 6, 10 and 20 us, 10 and 20 were the fastest or
// within noise of them. ANNRT_CPU_HANDOFF_US, else kDefaultHandOffMicros; 0
// hands every node to the pool.
inline constexpr double kDefaultHandOffMicros = 10;
double handOffMicros();

}  // namespace annrt::cpu
