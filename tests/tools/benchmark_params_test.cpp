// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "benchmark_params.h"

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/temp_path.h"
#include "runtime_env.h"

namespace annrt::tools {
namespace {

BenchmarkParams parse(const std::vector<std::string>& args) {
  FlagSet flags;
  auto params = parseBenchmarkFlags(args, flags);
  EXPECT_TRUE(params.ok()) << (params.ok() ? "" : params.error().message);
  return params.ok() ? *params : BenchmarkParams{};
}

TEST(BenchmarkParamsTest, DefaultsMatchBenchmarkModel) {
  const BenchmarkParams p = parse({});
  EXPECT_EQ(p.numRuns, 50);
  EXPECT_FLOAT_EQ(p.minSecs, 1.0f);
  EXPECT_FLOAT_EQ(p.maxSecs, 150.0f);
  EXPECT_FLOAT_EQ(p.runDelay, -1.0f);
  EXPECT_EQ(p.numThreads, -1);
  EXPECT_EQ(p.warmupRuns, 1);
  EXPECT_FLOAT_EQ(p.warmupMinSecs, 0.5f);
  EXPECT_FALSE(p.useNnapi);
  EXPECT_FALSE(p.disableNnapiCpu);
  EXPECT_FALSE(p.nnapiAllowFp16);
  EXPECT_FALSE(p.enableOpProfiling);
  EXPECT_EQ(p.maxDelegatedPartitions, 0);
  EXPECT_EQ(p.minNodesPerPartition, 0);
  EXPECT_EQ(effectiveGraph(p), "models/face_detection_short_range.tflite");
}

TEST(BenchmarkParamsTest, ParsesTheBenchmarkModelFlags) {
  const BenchmarkParams p = parse({"--graph=m.tflite",
                                   "--num_threads=4",
                                   "--num_runs=3",
                                   "--min_secs=0.5",
                                   "--max_secs=9",
                                   "--warmup_runs=2",
                                   "--warmup_min_secs=0",
                                   "--run_delay=0.01",
                                   "--use_nnapi=true",
                                   "--nnapi_accelerator_name=dev",
                                   "--nnapi_execution_preference=low_power",
                                   "--disable_nnapi_cpu=true",
                                   "--nnapi_allow_fp16=true",
                                   "--max_delegated_partitions=2",
                                   "--min_nodes_per_partition=3",
                                   "--enable_op_profiling=true",
                                   "--delegate_serialize_dir=/tmp/c",
                                   "--delegate_serialize_token=tok",
                                   "--input_layer=a,b",
                                   "--input_layer_shape=1,2:3",
                                   "--input_layer_value_files=a:a.bin",
                                   "--output_filepath=o.bin",
                                   "--verbose=true"});
  EXPECT_EQ(p.graph, "m.tflite");
  EXPECT_EQ(p.numThreads, 4);
  EXPECT_EQ(p.numRuns, 3);
  EXPECT_FLOAT_EQ(p.minSecs, 0.5f);
  EXPECT_FLOAT_EQ(p.maxSecs, 9.0f);
  EXPECT_EQ(p.warmupRuns, 2);
  EXPECT_FLOAT_EQ(p.runDelay, 0.01f);
  EXPECT_TRUE(p.useNnapi);
  EXPECT_EQ(p.nnapiAcceleratorName, "dev");
  EXPECT_EQ(p.nnapiExecutionPreference, "low_power");
  EXPECT_TRUE(p.disableNnapiCpu);
  EXPECT_TRUE(p.nnapiAllowFp16);
  EXPECT_EQ(p.maxDelegatedPartitions, 2);
  EXPECT_EQ(p.minNodesPerPartition, 3);
  EXPECT_TRUE(p.enableOpProfiling);
  EXPECT_EQ(p.delegateSerializeDir, "/tmp/c");
  EXPECT_EQ(p.delegateSerializeToken, "tok");
  EXPECT_EQ(p.inputLayer, "a,b");
  EXPECT_EQ(p.inputLayerShape, "1,2:3");
  EXPECT_EQ(p.inputLayerValueFiles, "a:a.bin");
  EXPECT_EQ(p.outputFilepath, "o.bin");
  EXPECT_TRUE(p.verbose);
  EXPECT_TRUE(validateBenchmarkParams(p).ok());
}

TEST(BenchmarkParamsTest, ExecutionPreferences) {
  EXPECT_EQ(*parseExecutionPreference("fast_single_answer"),
            ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER);
  EXPECT_EQ(*parseExecutionPreference("sustained_speed"), ANEURALNETWORKS_PREFER_SUSTAINED_SPEED);
  EXPECT_EQ(*parseExecutionPreference("low_power"), ANEURALNETWORKS_PREFER_LOW_POWER);
  EXPECT_FALSE(parseExecutionPreference("")->has_value());
  EXPECT_FALSE(parseExecutionPreference("undefined")->has_value());
  auto bad = parseExecutionPreference("fastest");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("fast_single_answer, sustained_speed, low_power"),
            std::string::npos);
}

TEST(BenchmarkParamsTest, ValidationRejectsBadCombinations) {
  BenchmarkParams p;
  p.nnapiExecutionPreference = "turbo";
  EXPECT_FALSE(validateBenchmarkParams(p).ok());
  p = {};
  p.numRuns = -1;
  EXPECT_FALSE(validateBenchmarkParams(p).ok());
  p = {};
  p.delegateSerializeDir = "/tmp/cache";  // token missing
  auto result = validateBenchmarkParams(p);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("delegate_serialize_token"), std::string::npos);
}

TEST(BenchmarkParamsTest, UnknownFlagIsAnError) {
  FlagSet flags;
  auto result = parseBenchmarkFlags({"--use_gpu=true"}, flags);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("--use_gpu"), std::string::npos);
}

TEST(RuntimeEnvironmentTest, FlagsBecomeRuntimeVariables) {
  BenchmarkParams p;
  EXPECT_TRUE(runtimeVariables(p).empty());
  p.numThreads = 4;
  p.maxDelegatedPartitions = 2;
  p.minNodesPerPartition = 3;
  // Partition limits need --use_nnapi=true; threads are a compilation
  // attribute, not a variable.
  EXPECT_TRUE(runtimeVariables(p).empty());
  p.useNnapi = true;
  const auto variables = runtimeVariables(p);
  ASSERT_EQ(variables.size(), 2u);
  EXPECT_EQ(variables[0].first, "ANNRT_MAX_PARTITIONS");
  EXPECT_EQ(variables[0].second, "2");
  EXPECT_EQ(variables[1].first, "ANNRT_MIN_NODES_PER_PARTITION");
  EXPECT_EQ(variables[1].second, "3");
}

TEST(RuntimeEnvironmentTest, ProfilingPicksAProfileFile) {
  BenchmarkParams p;
  p.enableOpProfiling = true;
  setenv("ANNRT_PROFILE", "1", 1);  // log-only: names no file, so it is replaced
  unsetenv("ANNRT_STATS");
  std::string temporaryPath;
  std::string statsPath;
  {
    auto temporary = applyRuntimeEnvironment(p);
    ASSERT_TRUE(temporary.ok());
    EXPECT_TRUE(temporary->profileIsTemporary);
    EXPECT_TRUE(temporary->statsIsTemporary);
    temporaryPath = temporary->profilePath;
    statsPath = temporary->statsPath;
    EXPECT_NE(temporaryPath.find("annrt-benchmark-profile-"), std::string::npos);
    EXPECT_EQ(std::string(getenv("ANNRT_PROFILE")), temporaryPath);
    EXPECT_TRUE(std::filesystem::exists(temporaryPath));
    EXPECT_TRUE(std::filesystem::exists(statsPath));
  }
  // The files it created go with the environment, read or not.
  EXPECT_FALSE(std::filesystem::exists(temporaryPath));
  EXPECT_FALSE(std::filesystem::exists(statsPath));

  const annrt::test::TempPath minePath("annrt_mine.json");
  const std::string& mine = minePath.str();
  std::ofstream(mine) << "{}";
  setenv("ANNRT_PROFILE", mine.c_str(), 1);
  {
    auto kept = applyRuntimeEnvironment(p);
    ASSERT_TRUE(kept.ok());
    EXPECT_FALSE(kept->profileIsTemporary);
    EXPECT_EQ(kept->profilePath, mine);
  }
  EXPECT_TRUE(std::filesystem::exists(mine));
  unsetenv("ANNRT_PROFILE");
  unsetenv("ANNRT_STATS");
}

}  // namespace
}  // namespace annrt::tools
