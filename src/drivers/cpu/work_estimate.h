// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How much arithmetic a partition does per XNNPACK node, for hosts where
// running small nodes on several threads does not pay. Each node XNNPACK
// parallelizes costs a hand-off to the pool and a barrier (about 1.5 us with
// Debian's pthreadpool when the other core is free). By default annrt-cpu uses
// the threads it is asked for, as TFLite does: on the quiet 2-vCPU development
// VM every default model ran faster on 2 threads than on 1 (face detection
// 0.84 -> 0.61 ms, selfie segmentation 2.0 -> 1.4 ms, pose_landmark_full
// 11.5 -> 6.7 ms; bench/model_table.sh). When the host was contended (another
// guest on the second vCPU's core), partitions under about 1.5 MFLOP per node
// ran slower on 2 threads (face detection 0.85 -> 1.1 ms, selfie segmentation
// 2.0 -> 3.1 ms) while larger ones still gained; ANNRT_PARALLEL_MIN_MFLOP sets
// a threshold for such hosts.
#pragma once

#include <cstdint>

#include "common/model.h"

namespace annrt::cpu {

struct WorkEstimate {
  double mflop = 0;    // multiply-adds count 2; other operations 1 per output element
  uint32_t nodes = 0;  // operations that become XNNPACK nodes
  double mflopPerNode() const { return nodes == 0 ? 0 : mflop / nodes; }
};

WorkEstimate estimateWork(const Model& model);

// Below this many MFLOP per node a partition runs on one thread whatever
// thread count was asked for: ANNRT_PARALLEL_MIN_MFLOP, 0 (always use the
// threads asked for) when it is unset.
double minParallelMflopPerNode();

}  // namespace annrt::cpu
