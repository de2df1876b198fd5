// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-benchmark's flags: the subset of TensorFlow Lite's
// `benchmark_model --use_nnapi=true` flags that applies to an NNAPI runtime,
// with benchmark_model's names and defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/result.h"
#include "flag_parser.h"

namespace annrt::tools {

inline constexpr const char* kDefaultGraph = "models/face_detection_short_range.tflite";

struct BenchmarkParams {
  // BenchmarkModel
  int32_t numRuns = 50;
  float minSecs = 1.0f;
  float maxSecs = 150.0f;
  float runDelay = -1.0f;
  int32_t numThreads = -1;
  int32_t warmupRuns = 1;
  float warmupMinSecs = 0.5f;
  bool verbose = false;
  // BenchmarkTfLiteModel
  std::string graph;
  std::string inputLayer;
  std::string inputLayerShape;
  std::string inputLayerValueFiles;
  bool enableOpProfiling = false;
  std::string outputFilepath;
  // Default execution provider
  int32_t maxDelegatedPartitions = 0;
  int32_t minNodesPerPartition = 0;
  std::string delegateSerializeDir;
  std::string delegateSerializeToken;
  // NNAPI delegate provider
  bool useNnapi = false;
  std::string nnapiExecutionPreference;
  std::string nnapiAcceleratorName;
  bool disableNnapiCpu = false;
  bool nnapiAllowFp16 = false;
  bool help = false;
};

// Registers every flag of `params` (which holds the defaults) with `flags`.
void registerBenchmarkFlags(FlagSet& flags, BenchmarkParams& params);

// Parses a command line into params; `flags` keeps which flags were given.
Result<BenchmarkParams> parseBenchmarkFlags(const std::vector<std::string>& args, FlagSet& flags);

// Checks values that the flag types alone do not constrain.
Result<void> validateBenchmarkParams(const BenchmarkParams& params);

// fast_single_answer / sustained_speed / low_power -> PreferenceCode; "" and
// "undefined" -> nullopt (leave NNAPI's default); anything else -> error.
Result<std::optional<int32_t>> parseExecutionPreference(const std::string& text);

// The model to load: --graph, or kDefaultGraph when it is empty.
std::string effectiveGraph(const BenchmarkParams& params);

}  // namespace annrt::tools
