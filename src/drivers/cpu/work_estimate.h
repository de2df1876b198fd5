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
// hand-off and the barrier after it. About 1.5 us with Debian's pthreadpool
// when the other core is free; 4-6 us on the development VM when its host
// was busy, when nodes of a few microseconds (the ADDs, PADs and small
// convolutions of face detection) took 2-3 times longer on 2 threads than on
// 1. ANNRT_CPU_HANDOFF_US, else kDefaultHandOffMicros; 0 hands every node to
// the pool.
inline constexpr double kDefaultHandOffMicros = 3;
double handOffMicros();

}  // namespace annrt::cpu
