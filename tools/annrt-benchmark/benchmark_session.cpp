// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "benchmark_session.h"

#include <fstream>

#include "input_data.h"
#include "tool_log.h"
#include "tool_result.h"

namespace annrt::tools {

Result<void> BenchmarkSession::loadModel() {
  ANNRT_ASSIGN_OR_RETURN(inputLayers_,
                         parseInputLayerFlags(params_.inputLayer, params_.inputLayerShape,
                                              params_.inputLayerValueFiles));
  ModelSourceOptions options;
  options.relaxFloat32toFloat16 = params_.useNnapi && params_.nnapiAllowFp16;
  options.inputShapes = inputLayers_.shapes;
  const std::string graph = effectiveGraph(params_);
  ANNRT_ASSIGN_OR_RETURN(model_, openModelSource(graph, options));
  logInfo("Loaded model " + graph);
  ANNRT_ASSIGN_OR_RETURN(std::vector<std::string> warnings,
                         checkInputLayers(inputLayers_, model_->inputs()));
  for (const std::string& warning : warnings) logWarn(warning);
  return {};
}

Result<void> BenchmarkSession::compile(const std::vector<DeviceInfo>& devices) {
  CompileSettings settings;
  if (params_.numThreads > 0) settings.numThreads = static_cast<uint32_t>(params_.numThreads);
  if (params_.useNnapi) {
    ANNRT_ASSIGN_OR_RETURN(
        selection_, selectDevices(devices, params_.nnapiAcceleratorName, params_.disableNnapiCpu));
    ANNRT_ASSIGN_OR_RETURN(std::string note,
                           addReferenceForUnsupported(model_->model(), model_->operations().size(),
                                                      devices, selection_));
    if (!note.empty()) logInfo(note);
    ANNRT_ASSIGN_OR_RETURN(settings.preference,
                           parseExecutionPreference(params_.nnapiExecutionPreference));
  }
  // Not an nnapi_* flag: caching applies to the runtime's own device
  // selection too (the NNAPI call is the same).
  settings.cacheDir = params_.delegateSerializeDir;
  settings.cacheToken = params_.delegateSerializeToken;
  ANNRT_ASSIGN_OR_RETURN(compilation_, compileModel(model_->model(), selection_, settings));
  if (selection_.runtimeChooses) {
    logInfo(
        "Compiled with the runtime's own device selection (ANeuralNetworksCompilation_create).");
  } else {
    logInfo("Compiled for NNAPI device(s) [" + describeSelection(selection_) +
            "] (ANeuralNetworksCompilation_createForDevices).");
  }
  return {};
}

Result<void> BenchmarkSession::init(const std::vector<DeviceInfo>& devices) {
  ANNRT_RETURN_IF_ERROR(loadModel());
  ANNRT_RETURN_IF_ERROR(compile(devices));
  ANNRT_ASSIGN_OR_RETURN(
      runner_,
      ModelRunner::create(compilation_.get(), model_->inputs(),
                          applyInputShapes(inputLayers_, model_->inputs()), model_->outputs()));
  return {};
}

Result<void> BenchmarkSession::prepareInputs() {
  ANNRT_ASSIGN_OR_RETURN(std::vector<std::string> files,
                         resolveValueFiles(inputLayers_, model_->inputs()));
  for (size_t i = 0; i < files.size(); ++i) {
    const TensorDesc& desc = runner_->inputs()[i];
    ANNRT_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, files[i].empty()
                                                           ? randomTensorData(desc, i)
                                                           : readTensorFile(files[i], desc));
    ANNRT_RETURN_IF_ERROR(runner_->setInput(i, bytes));
  }
  return {};
}

Result<RunStat> BenchmarkSession::run(const LoopSettings& settings) {
  return runLoop(settings, [this] { return runner_->run(); });
}

Result<void> BenchmarkSession::writeOutputs(const std::string& path) const {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  ANNRT_CHECK(file.good(), "cannot open --output_filepath={} for writing", path);
  for (size_t i = 0; i < runner_->outputs().size(); ++i) {
    const auto bytes = runner_->outputData(i);
    file.write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  file.close();
  ANNRT_CHECK(!file.fail(), "cannot write --output_filepath={}", path);
  return {};
}

void BenchmarkSession::releaseCompilation() {
  runner_.reset();
  compilation_.reset();
}

}  // namespace annrt::tools
