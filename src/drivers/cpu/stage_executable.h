// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What a stage of a staged partition (staged_graph.h) runs: an XNNPACK
// runtime (compiled_graph.h) or annrt-cpu's own kernels (native_stage.h).
#pragma once

#include <vector>

#include "common/result.h"

namespace annrt::cpu {

class StageExecutable {
 public:
  virtual ~StageExecutable() = default;
  // Runs on inputs[i] (each of the model input's byte size), writing
  // outputs[i] (each large enough), on the stage's thread pool if it has one
  // and `threaded`, else on the calling thread alone (when other processes
  // keep the cores busy: cpu_load.h). Not reentrant: callers serialize runs.
  virtual Result<void> run(const std::vector<const void*>& inputs,
                           const std::vector<void*>& outputs, bool threaded) = 0;
  // Starts mapping the pages of a large arena of the stage's own ahead of
  // its first run (arena_memory.h); XNNPACK's runtimes have their own.
  virtual void populateArenaAhead() {}
};

}  // namespace annrt::cpu
