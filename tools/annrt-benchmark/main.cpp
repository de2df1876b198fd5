// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-benchmark: a drop-in for TensorFlow Lite's
// `benchmark_model --use_nnapi=true` on annrt. Same flags, defaults and output
// lines; the model runs through the public NNAPI C API. See --help and
// docs/tools.md.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "benchmark_params.h"
#include "benchmark_report.h"
#include "benchmark_session.h"
#include "device_counters.h"
#include "memory_usage.h"
#include "op_profile.h"
#include "op_profile_table.h"
#include "param_log.h"
#include "runtime_env.h"
#include "tool_log.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

constexpr const char* kUsage =
    "Usage: annrt-benchmark [--flag=value ...]\n"
    "Benchmarks a model on annrt through the NNAPI C API, like TensorFlow Lite's\n"
    "`benchmark_model --use_nnapi=true`. --graph takes a .tflite file or a built-in\n"
    "model (builtin:mobilenet_block). Flags:\n";

int64_t elapsedUs(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

// benchmark_model warns when NNAPI flags are given without --use_nnapi=true.
void warnIgnoredNnapiFlags(const BenchmarkParams& params) {
  if (params.useNnapi) return;
  logInfo(
      "--use_nnapi=false: annrt has no TensorFlow Lite interpreter; the model still runs through "
      "NNAPI, with the runtime's own device selection (ANeuralNetworksCompilation_create) and "
      "default settings.");
  if (!params.nnapiAcceleratorName.empty()) {
    logWarn("`--use_nnapi=true` must be set for the provided NNAPI accelerator (" +
            params.nnapiAcceleratorName + ") to be used.");
  }
  if (!params.nnapiExecutionPreference.empty()) {
    logWarn("`--use_nnapi=true` must be set for the provided NNAPI execution preference (" +
            params.nnapiExecutionPreference + ") to be used.");
  }
}

Result<void> checkGraphExists(const BenchmarkParams& params) {
  const std::string graph = effectiveGraph(params);
  if (graph.starts_with(kBuiltinPrefix)) return {};
  std::error_code ignored;
  if (std::filesystem::is_regular_file(graph, ignored)) return {};
  if (params.graph.empty()) {
    return toolError(
        "no --graph given and the default model {} is not there (relative to {}); run "
        "scripts/fetch-models.sh from the repository root, or pass --graph=FILE.tflite or "
        "--graph=builtin:mobilenet_block",
        graph, std::filesystem::current_path(ignored).string());
  }
  return toolError("--graph={}: no such file", graph);
}

void printOperatorProfile(const RuntimeEnvironment& environment, const ModelSource& model,
                          const DeviceSelection& selection, int64_t executions) {
  Result<std::vector<CompilationProfile>> profiles = readProfileFile(environment.profilePath);
  const CompilationProfile* profile =
      profiles.ok() ? findCompilation(*profiles, model.operations().size()) : nullptr;
  CompilationProfile placeholder;
  if (profile == nullptr) {
    logWarn("the runtime wrote no per-operation profile to " + environment.profilePath +
            " (ANNRT_PROFILE); listing the operations without timings.");
    placeholder = unprofiledCompilation(
        model.operations(), selection.runtimeChooses ? "" : describeSelection(selection));
    profile = &placeholder;
  }
  const std::string text = formatOperatorProfile(*profile, model.operations(), executions);
  logInfo(text.substr(0, text.find('\n')));
  logRaw(text.substr(text.find('\n') + 1));
}

// The runtime rewrites its counters as each compilation is freed.
void printDeviceCounters(const RuntimeEnvironment& environment) {
  Result<std::vector<DeviceCounters>> counters = readDeviceCounters(environment.statsPath);
  if (!counters.ok()) {
    logWarn("no device counters (ANNRT_STATS): " + counters.error().message);
  } else {
    for (const std::string& line : deviceCounterLines(*counters)) logInfo(line);
  }
}

struct Timings {
  int64_t initUs = 0;
  RunStat warmup;
  RunStat inference;
};

Result<void> runBenchmark(BenchmarkSession& session, const BenchmarkParams& params,
                          const std::vector<DeviceInfo>& devices, Timings& timings,
                          ProcessMemory& afterInit) {
  const auto start = std::chrono::steady_clock::now();
  ANNRT_RETURN_IF_ERROR(session.init(devices));
  afterInit = readProcessMemory();
  timings.initUs = elapsedUs(start);
  logInfo(modelSizeLine(session.model().sizeBytes()));
  logInfo(initializedLine(timings.initUs));
  ANNRT_RETURN_IF_ERROR(session.prepareInputs());

  logInfo(runHeaderLine(params.warmupRuns, params.warmupMinSecs, params.maxSecs));
  ANNRT_ASSIGN_OR_RETURN(timings.warmup, session.run({params.warmupRuns, params.warmupMinSecs,
                                                      params.maxSecs, params.runDelay}));
  logInfo(timings.warmup.toString() + "\n");
  logInfo(runHeaderLine(params.numRuns, params.minSecs, params.maxSecs));
  ANNRT_ASSIGN_OR_RETURN(timings.inference, session.run({params.numRuns, params.minSecs,
                                                         params.maxSecs, params.runDelay}));
  logInfo(timings.inference.toString() + "\n");
  if (!params.outputFilepath.empty()) {
    ANNRT_RETURN_IF_ERROR(session.writeOutputs(params.outputFilepath));
  }
  return {};
}

Result<void> benchmarkMain(const BenchmarkParams& params, const FlagSet& flags) {
  ANNRT_RETURN_IF_ERROR(validateBenchmarkParams(params));
  // Before the first NNAPI call: the runtime reads its variables then.
  ANNRT_ASSIGN_OR_RETURN(RuntimeEnvironment environment, applyRuntimeEnvironment(params));
  logInfo("STARTING!");
  ANNRT_ASSIGN_OR_RETURN(std::vector<DeviceInfo> devices, listDevices());
  for (const std::string& line : parameterLines(params, flags, joinDeviceNames(devices))) {
    logInfo(line);
  }
  if (params.verbose) {
    for (const std::string& assignment : environment.assignments) logInfo("Set " + assignment);
  }
  warnIgnoredNnapiFlags(params);
  ANNRT_RETURN_IF_ERROR(checkGraphExists(params));

  const ProcessMemory startMemory = readProcessMemory();
  BenchmarkSession session(params);
  Timings timings;
  ProcessMemory afterInit;
  ANNRT_RETURN_IF_ERROR(runBenchmark(session, params, devices, timings, afterInit));
  const ProcessMemory endMemory = readProcessMemory();

  logInfo(inferenceTimingsLine(timings.initUs, timings.warmup, timings.inference));
  for (const std::string& line : memoryLines(startMemory, afterInit, endMemory)) logInfo(line);
  session.releaseCompilation();
  printDeviceCounters(environment);
  if (params.enableOpProfiling) {
    printOperatorProfile(environment, session.model(), session.selection(),
                         timings.warmup.count() + timings.inference.count());
  }
  return {};
}

}  // namespace
}  // namespace annrt::tools

int main(int argc, char** argv) {
  using namespace annrt::tools;
  FlagSet flags;
  BenchmarkParams params;
  registerBenchmarkFlags(flags, params);
  if (auto parsed = flags.parse(argc, argv); !parsed.ok()) {
    logError(parsed.error().message);
    return 1;
  }
  if (params.help) {
    std::cout << kUsage << flags.usage();
    return 0;
  }
  if (auto result = benchmarkMain(params, flags); !result.ok()) {
    logError(result.error().message);
    logError("Benchmarking failed.");
    return 1;
  }
  return 0;
}
