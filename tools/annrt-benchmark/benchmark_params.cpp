// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "benchmark_params.h"

#include <android/NeuralNetworks.h>

#include "tool_result.h"

namespace annrt::tools {
namespace {

void registerRunFlags(FlagSet& flags, BenchmarkParams& p) {
  flags.addInt("num_runs", &p.numRuns, "expected number of runs, see also min_secs, max_secs");
  flags.addFloat("min_secs", &p.minSecs,
                 "minimum number of seconds to rerun for, potentially making the actual number "
                 "of runs to be greater than num_runs");
  flags.addFloat("max_secs", &p.maxSecs,
                 "maximum number of seconds to rerun for, potentially making the actual number "
                 "of runs to be less than num_runs; a run in progress is finished");
  flags.addFloat("run_delay", &p.runDelay, "delay between runs in seconds");
  flags.addInt("num_threads", &p.numThreads,
               "number of threads used for inference on CPU (a compilation attribute, "
               "ANNRT_COMPILATION_NUM_THREADS)");
  flags.addInt("warmup_runs", &p.warmupRuns,
               "minimum number of runs performed on initialization, see also warmup_min_secs");
  flags.addFloat("warmup_min_secs", &p.warmupMinSecs,
                 "minimum number of seconds to rerun for, potentially making the actual number "
                 "of warm-up runs to be greater than warmup_runs");
  flags.addBool("verbose", &p.verbose, "log every parameter, not only those given");
}

void registerModelFlags(FlagSet& flags, BenchmarkParams& p) {
  flags.addString(
      "graph", &p.graph,
      std::string(".tflite file, or builtin:mobilenet_block; default ") + kDefaultGraph);
  flags.addString("input_layer", &p.inputLayer, "input layer names, comma-separated");
  flags.addString("input_layer_shape", &p.inputLayerShape,
                  "input layer shapes, ':'-separated, e.g. 1,224,224,4:1,20");
  flags.addString("input_layer_value_files", &p.inputLayerValueFiles,
                  "raw binary values per input: name:file,name:file");
  flags.addBool("enable_op_profiling", &p.enableOpProfiling,
                "print per-operation timings and the device of each operation");
  flags.addString("output_filepath", &p.outputFilepath,
                  "write the raw bytes of all outputs of the last run, concatenated in output "
                  "order, to this file");
}

void registerDelegateFlags(FlagSet& flags, BenchmarkParams& p) {
  flags.addInt("max_delegated_partitions", &p.maxDelegatedPartitions,
               "max number of partitions on non-CPU devices (ANNRT_MAX_PARTITIONS); 0: no limit");
  flags.addInt("min_nodes_per_partition", &p.minNodesPerPartition,
               "min operations of a partition on a non-CPU device "
               "(ANNRT_MIN_NODES_PER_PARTITION); 0: runtime default");
  flags.addString("delegate_serialize_dir", &p.delegateSerializeDir,
                  "compilation cache directory (ANeuralNetworksCompilation_setCaching); needs "
                  "delegate_serialize_token");
  flags.addString("delegate_serialize_token", &p.delegateSerializeToken,
                  "model-specific cache token, hashed to 32 bytes; needs delegate_serialize_dir");
}

void registerNnapiFlags(FlagSet& flags, BenchmarkParams& p) {
  flags.addBool("use_nnapi", &p.useNnapi,
                "honour the nnapi_* flags; false: the runtime's own device selection");
  flags.addString("nnapi_execution_preference", &p.nnapiExecutionPreference,
                  "fast_single_answer, sustained_speed, low_power or undefined");
  flags.addString("nnapi_accelerator_name", &p.nnapiAcceleratorName,
                  "run on this NNAPI device only (see annrt-devices)");
  flags.addBool("disable_nnapi_cpu", &p.disableNnapiCpu,
                "compile for every device whose type is not CPU");
  flags.addBool("nnapi_allow_fp16", &p.nnapiAllowFp16,
                "allow float32 computation in float16 (relaxComputationFloat32toFloat16)");
}

}  // namespace

void registerBenchmarkFlags(FlagSet& flags, BenchmarkParams& params) {
  registerRunFlags(flags, params);
  registerModelFlags(flags, params);
  registerDelegateFlags(flags, params);
  registerNnapiFlags(flags, params);
  flags.addBool("help", &params.help, "print the flags and exit");
}

Result<BenchmarkParams> parseBenchmarkFlags(const std::vector<std::string>& args, FlagSet& flags) {
  BenchmarkParams params;
  registerBenchmarkFlags(flags, params);
  ANNRT_RETURN_IF_ERROR(flags.parse(args));
  return params;
}

Result<std::optional<int32_t>> parseExecutionPreference(const std::string& text) {
  if (text.empty() || text == "undefined") return std::optional<int32_t>();
  if (text == "fast_single_answer") {
    return std::optional<int32_t>(ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER);
  }
  if (text == "sustained_speed") {
    return std::optional<int32_t>(ANEURALNETWORKS_PREFER_SUSTAINED_SPEED);
  }
  if (text == "low_power") return std::optional<int32_t>(ANEURALNETWORKS_PREFER_LOW_POWER);
  return toolError(
      "--nnapi_execution_preference={} is not one of fast_single_answer, sustained_speed, "
      "low_power, undefined",
      text);
}

Result<void> validateBenchmarkParams(const BenchmarkParams& params) {
  ANNRT_RETURN_IF_ERROR(parseExecutionPreference(params.nnapiExecutionPreference));
  ANNRT_CHECK(params.numRuns >= 0, "--num_runs={} must not be negative", params.numRuns);
  ANNRT_CHECK(params.warmupRuns >= 0, "--warmup_runs={} must not be negative", params.warmupRuns);
  ANNRT_CHECK(params.maxSecs >= 0, "--max_secs={} must not be negative", params.maxSecs);
  ANNRT_CHECK(params.maxDelegatedPartitions >= 0,
              "--max_delegated_partitions={} must not be negative", params.maxDelegatedPartitions);
  ANNRT_CHECK(params.delegateSerializeDir.empty() == params.delegateSerializeToken.empty(),
              "--delegate_serialize_dir and --delegate_serialize_token go together: give both to "
              "enable compilation caching, or neither");
  return {};
}

std::string effectiveGraph(const BenchmarkParams& params) {
  return params.graph.empty() ? kDefaultGraph : params.graph;
}

}  // namespace annrt::tools
