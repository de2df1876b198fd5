// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How much arithmetic a partition does per XNNPACK node, to decide whether
// running it on several threads pays. Each node XNNPACK parallelizes costs a
// hand-off to the pool and a barrier; with Debian's pthreadpool (2021) and
// XNNPACK (2022) on the 2-vCPU development VM, partitions averaging under
// about 1.5 MFLOP per node ran slower on 2 threads than on 1 (face detection
// 0.85 -> 1.1 ms, selfie segmentation 2.0 -> 3.1 ms) while those from 3 MFLOP
// per node up ran faster (hand_landmark_full 5.6 -> 4.1 ms, pose_landmark_full
// 11.6 -> 9.9 ms); see bench/model_table.sh.
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
// thread count was asked for; ANNRT_PARALLEL_MIN_MFLOP overrides it (0: always
// use the threads asked for).
double minParallelMflopPerNode();

}  // namespace annrt::cpu
