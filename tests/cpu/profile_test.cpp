// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Per-operation profiling on annrt-cpu: a profiled execution runs each
// operation on its own and must still give the reference's results, with a
// time for every operation in the ANNRT_PROFILE report.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/temp_path.h"
#include "expect_close.h"
#include "test_graph.h"

namespace annrt::test {
namespace {

const std::string& profilePath() {
  static const TempPath path("annrt_cpu_profile.json");
  return path.str();
}

// Must run before the runtime's device registry is built (first NNAPI call).
const bool kEnvironmentReady = [] {
  setenv("ANNRT_PROFILE", profilePath().c_str(), 1);
  return true;
}();

// The operations of the last compilation freed that ran on annrt-cpu.
std::vector<nlohmann::json> cpuOperations() {
  std::ifstream in(profilePath());
  const nlohmann::json profile = nlohmann::json::parse(in, nullptr, false);
  std::vector<nlohmann::json> operations;
  if (profile.is_discarded()) return operations;
  for (const auto& compilation : profile["compilations"]) {
    if (compilation["steps"].size() != 1 || compilation["steps"][0]["device"] != kCpu) continue;
    operations.assign(compilation["operations"].begin(), compilation["operations"].end());
  }
  return operations;
}

// conv -> depthwise -> ADD(conv, depthwise) -> LOGISTIC: the conv output is
// read twice, and the ADD result is both a model output and read by a later
// operation. The depthwise output is a model output too, so that the ADD is
// a node of its own (not taken into the depthwise kernel, where its time
// would be the kernel's).
TEST(CpuProfileTest, EveryOperationTimedAndResultsUnchanged) {
  ASSERT_TRUE(kEnvironmentReady);
  TestGraph g;
  const uint32_t in = g.tensor({1, 9, 9, 4});
  const uint32_t conv = g.conv3x3(in, 4, {1, 9, 9, 8}, ANEURALNETWORKS_FUSED_RELU, 31);
  const uint32_t depthwise = g.tensor({1, 9, 9, 8});
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {conv, g.constant({1, 3, 3, 8}, randomValues(72, 33)),
               g.constant({8}, randomValues(8, 34)), g.int32(ANEURALNETWORKS_PADDING_SAME),
               g.int32(1), g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {depthwise});
  const uint32_t sum = g.tensor({1, 9, 9, 8});
  g.operation(ANEURALNETWORKS_ADD, {conv, depthwise, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
  const uint32_t probabilities = g.tensor({1, 9, 9, 8});
  g.operation(ANEURALNETWORKS_LOGISTIC, {sum}, {probabilities});
  g.finish({in}, {sum, probabilities, depthwise});

  const size_t count = elementCount({1, 9, 9, 8});
  const std::vector<std::vector<float>> inputs = {randomValues(elementCount({1, 9, 9, 4}), 35)};
  const auto expected = g.run(kReference, inputs, {count, count, count});
  const auto actual = g.run(kCpu, inputs, {count, count, count});
  ASSERT_EQ(expected.size(), 3u);
  ASSERT_NO_FATAL_FAILURE(expectClose(actual, expected));

  const std::vector<nlohmann::json> operations = cpuOperations();
  ASSERT_EQ(operations.size(), 4u) << "no annrt-cpu compilation in " << profilePath();
  const char* types[] = {"CONV_2D", "DEPTHWISE_CONV_2D", "ADD", "LOGISTIC"};
  for (size_t i = 0; i < operations.size(); ++i) {
    EXPECT_EQ(operations[i]["type"], types[i]);
    EXPECT_EQ(operations[i]["count"], 1);
    EXPECT_GT(operations[i]["total_ns"].get<uint64_t>(), 0u) << types[i] << " was not timed";
  }
}

// A convolution on float16 weights: the folded CAST is not timed (0 ns), the
// convolution is, and the result is the reference's.
TEST(CpuProfileTest, FoldedFloat16CastsAreNotTimed) {
  TestGraph g;
  const uint32_t in = g.tensor({1, 6, 6, 3});
  const uint32_t weights = g.halfConstant({4, 3, 3, 3}, randomValues(size_t{4} * 27, 61));
  const uint32_t filter = g.tensor({4, 3, 3, 3});
  g.operation(ANEURALNETWORKS_CAST, {weights}, {filter});
  const uint32_t out = g.tensor({1, 6, 6, 4});
  g.operation(
      ANEURALNETWORKS_CONV_2D,
      {in, filter, g.constant({4}, randomValues(4, 62)), g.int32(ANEURALNETWORKS_PADDING_SAME),
       g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_NONE)},
      {out});
  g.finish({in}, {out});
  const size_t count = elementCount({1, 6, 6, 4});
  const std::vector<std::vector<float>> inputs = {randomValues(elementCount({1, 6, 6, 3}), 63)};
  const auto expected = g.run(kReference, inputs, {count});
  const auto actual = g.run(kCpu, inputs, {count});
  ASSERT_EQ(expected.size(), 1u);
  ASSERT_NO_FATAL_FAILURE(expectClose(actual, expected));
  const std::vector<nlohmann::json> operations = cpuOperations();
  ASSERT_EQ(operations.size(), 2u) << "no annrt-cpu compilation in " << profilePath();
  EXPECT_EQ(operations[0]["type"], "CAST");
  EXPECT_EQ(operations[0]["total_ns"].get<uint64_t>(), 0u);
  EXPECT_EQ(operations[1]["type"], "CONV_2D");
  EXPECT_GT(operations[1]["total_ns"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace annrt::test
