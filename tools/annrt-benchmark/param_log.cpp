// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "param_log.h"

#include <sstream>

namespace annrt::tools {
namespace {

class ParamLogger {
 public:
  ParamLogger(const FlagSet& flags, bool verbose) : flags_(flags), verbose_(verbose) {}

  // benchmark_model streams values with operator<<: bools as 0/1, floats
  // with 6 significant digits.
  template <typename T>
  void log(const char* flag, const char* description, const T& value, bool always = false) {
    if (!always && !verbose_ && !flags_.wasSet(flag)) return;
    std::ostringstream line;
    line << description << ": [" << value << "]";
    lines_.push_back(line.str());
  }
  void add(std::string line) { lines_.push_back(std::move(line)); }
  std::vector<std::string> take() { return std::move(lines_); }

 private:
  const FlagSet& flags_;
  bool verbose_;
  std::vector<std::string> lines_;
};

void logRunParams(ParamLogger& log, const BenchmarkParams& p) {
  log.log("num_runs", "Min num runs", p.numRuns);
  log.log("min_secs", "Min runs duration (seconds)", p.minSecs);
  log.log("max_secs", "Max runs duration (seconds)", p.maxSecs);
  log.log("run_delay", "Inter-run delay (seconds)", p.runDelay);
  log.log("num_threads", "Num threads", p.numThreads);
  log.log("warmup_runs", "Min warmup runs", p.warmupRuns);
  log.log("warmup_min_secs", "Min warmup runs duration (seconds)", p.warmupMinSecs);
}

void logModelParams(ParamLogger& log, const BenchmarkParams& p) {
  log.log("graph", "Graph", effectiveGraph(p), /*always=*/true);
  log.log("input_layer", "Input layers", p.inputLayer);
  log.log("input_layer_shape", "Input shapes", p.inputLayerShape);
  log.log("input_layer_value_files", "Input value files", p.inputLayerValueFiles);
  log.log("enable_op_profiling", "Enable op profiling", p.enableOpProfiling);
  log.log("output_filepath", "File path to export outputs layer to", p.outputFilepath);
}

void logDelegateParams(ParamLogger& log, const BenchmarkParams& p) {
  log.log("num_threads", "#threads used for CPU inference", p.numThreads);
  log.log("max_delegated_partitions", "Max number of delegated partitions",
          p.maxDelegatedPartitions);
  log.log("min_nodes_per_partition", "Min nodes per partition", p.minNodesPerPartition);
  log.log("delegate_serialize_dir", "Directory for delegate serialization", p.delegateSerializeDir);
  log.log("delegate_serialize_token", "Model-specific token/key for delegate serialization.",
          p.delegateSerializeToken);
}

void logNnapiParams(ParamLogger& log, const BenchmarkParams& p, const std::string& devices) {
  log.log("use_nnapi", "Use NNAPI", p.useNnapi);
  if (!p.useNnapi) return;
  log.log("nnapi_execution_preference", "NNAPI execution preference", p.nnapiExecutionPreference);
  log.log("nnapi_accelerator_name", "NNAPI accelerator name", p.nnapiAcceleratorName);
  if (!devices.empty()) log.add("NNAPI accelerators available: [" + devices + "]");
  log.log("disable_nnapi_cpu", "Disable NNAPI cpu", p.disableNnapiCpu);
  log.log("nnapi_allow_fp16", "Allow fp16 in NNAPI", p.nnapiAllowFp16);
}

}  // namespace

std::vector<std::string> parameterLines(const BenchmarkParams& params, const FlagSet& flags,
                                        const std::string& availableDevices) {
  ParamLogger log(flags, params.verbose);
  log.add(std::string("Log parameter values verbosely: [") + (params.verbose ? "1" : "0") + "]");
  logRunParams(log, params);
  logModelParams(log, params);
  logDelegateParams(log, params);
  logNnapiParams(log, params, availableDevices);
  return log.take();
}

}  // namespace annrt::tools
