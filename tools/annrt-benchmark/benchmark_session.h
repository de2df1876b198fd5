// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One benchmark: the model, its compilation and the execution that runs it.
// init() is what benchmark_model times as "Init" (load the model, compile it,
// set up the execution); the loops then only compute.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "benchmark_loop.h"
#include "benchmark_params.h"
#include "common/result.h"
#include "compilation.h"
#include "devices.h"
#include "input_layers.h"
#include "model_runner.h"
#include "model_source.h"

namespace annrt::tools {

class BenchmarkSession {
 public:
  explicit BenchmarkSession(BenchmarkParams params) : params_(std::move(params)) {}

  // Loads the model (logging "Loaded model ..."), compiles it for the devices
  // the flags select among `devices`, and binds an execution.
  Result<void> init(const std::vector<DeviceInfo>& devices);
  // Fills the inputs from --input_layer_value_files or pseudo-random data.
  Result<void> prepareInputs();
  Result<RunStat> run(const LoopSettings& settings);
  // Writes every output of the last run, in output order, to `path`.
  Result<void> writeOutputs(const std::string& path) const;
  // Frees the execution and the compilation (the runtime writes its profile
  // when the compilation is freed); the model stays.
  void releaseCompilation();

  const ModelSource& model() const { return *model_; }
  const DeviceSelection& selection() const { return selection_; }

 private:
  Result<void> loadModel();
  Result<void> compile(const std::vector<DeviceInfo>& devices);

  BenchmarkParams params_;
  InputLayerFlags inputLayers_;
  std::unique_ptr<ModelSource> model_;
  DeviceSelection selection_;
  CompilationPtr compilation_;
  std::unique_ptr<ModelRunner> runner_;
};

}  // namespace annrt::tools
