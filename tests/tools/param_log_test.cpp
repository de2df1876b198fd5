// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "param_log.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace annrt::tools {
namespace {

std::vector<std::string> linesFor(const std::vector<std::string>& args) {
  FlagSet flags;
  auto params = parseBenchmarkFlags(args, flags);
  EXPECT_TRUE(params.ok());
  return parameterLines(*params, flags, "nnapi-reference");
}

bool contains(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(ParamLogTest, OnlyGivenParametersAndTheGraph) {
  const auto lines = linesFor({"--num_runs=3"});
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Log parameter values verbosely: [0]");
  EXPECT_EQ(lines[1], "Min num runs: [3]");
  EXPECT_EQ(lines[2], "Graph: [models/face_detection_short_range.tflite]");
}

TEST(ParamLogTest, NnapiLinesLikeTheNnapiDelegateProvider) {
  const auto lines = linesFor({"--graph=builtin:mobilenet_block", "--use_nnapi=true",
                               "--nnapi_accelerator_name=nnapi-reference",
                               "--nnapi_execution_preference=sustained_speed",
                               "--disable_nnapi_cpu=true", "--nnapi_allow_fp16=true"});
  EXPECT_TRUE(contains(lines, "Graph: [builtin:mobilenet_block]"));
  EXPECT_TRUE(contains(lines, "Use NNAPI: [1]"));
  EXPECT_TRUE(contains(lines, "NNAPI execution preference: [sustained_speed]"));
  EXPECT_TRUE(contains(lines, "NNAPI accelerator name: [nnapi-reference]"));
  EXPECT_TRUE(contains(lines, "NNAPI accelerators available: [nnapi-reference]"));
  EXPECT_TRUE(contains(lines, "Disable NNAPI cpu: [1]"));
  EXPECT_TRUE(contains(lines, "Allow fp16 in NNAPI: [1]"));
}

TEST(ParamLogTest, VerboseListsEverythingWithStreamFormatting) {
  const auto lines = linesFor({"--verbose=true"});
  EXPECT_EQ(lines[0], "Log parameter values verbosely: [1]");
  EXPECT_TRUE(contains(lines, "Min num runs: [50]"));
  EXPECT_TRUE(contains(lines, "Min runs duration (seconds): [1]"));
  EXPECT_TRUE(contains(lines, "Max runs duration (seconds): [150]"));
  EXPECT_TRUE(contains(lines, "Inter-run delay (seconds): [-1]"));
  EXPECT_TRUE(contains(lines, "Min warmup runs duration (seconds): [0.5]"));
  EXPECT_TRUE(contains(lines, "Num threads: [-1]"));
  EXPECT_TRUE(contains(lines, "#threads used for CPU inference: [-1]"));
  EXPECT_TRUE(contains(lines, "Max number of delegated partitions: [0]"));
  EXPECT_TRUE(contains(lines, "Enable op profiling: [0]"));
  EXPECT_TRUE(contains(lines, "Use NNAPI: [0]"));
  // NNAPI details only with --use_nnapi=true.
  EXPECT_FALSE(contains(lines, "Disable NNAPI cpu: [0]"));
}

}  // namespace
}  // namespace annrt::tools
