// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One side of annrt-diff: a model compiled for some device(s), with an
// execution ready to run and its latencies.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "compilation.h"
#include "input_layers.h"
#include "model_runner.h"
#include "model_source.h"
#include "run_stat.h"

namespace annrt::tools {

struct DiffSide {
  std::string label;  // "Reference" or "Test"
  std::shared_ptr<ModelSource> model;
  DeviceSelection selection;
  CompilationPtr compilation;
  std::unique_ptr<ModelRunner> runner;
  RunStat latencyUs;

  // Compiles `model` for `selection` and binds an execution.
  static Result<std::unique_ptr<DiffSide>> create(std::string label,
                                                  std::shared_ptr<ModelSource> model,
                                                  DeviceSelection selection,
                                                  const InputLayerFlags& inputLayers);
  // Runs once, adding the wall time to latencyUs.
  Result<void> runTimed();
};

}  // namespace annrt::tools
