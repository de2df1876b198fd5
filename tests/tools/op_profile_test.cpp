// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "op_profile.h"

#include <gtest/gtest.h>

#include "op_profile_table.h"

namespace annrt::tools {
namespace {

// Two compilations: another model's (3 operations), then ours (3 operations
// too, the last one wins), split over two devices.
constexpr const char* kProfile = R"({
  "compilations": [
    {"model_operations": 3, "steps": [], "operations": []},
    {"model_operations": 3,
     "steps": [{"device": "fast-npu", "operations": [0, 1]},
               {"device": "nnapi-reference", "operations": [2]}],
     "operations": [
       {"index": 0, "type": "CONV_2D", "device": "fast-npu", "count": 4, "total_ns": 4000000},
       {"index": 1, "type": "ADD", "device": "fast-npu", "count": 4, "total_ns": 1000000},
       {"index": 2, "type": "SOFTMAX", "device": "nnapi-reference", "count": 4,
        "total_ns": 3000000}]}
  ]})";

const std::vector<OperationLabel> kLabels = {
    {"CONV_2D", "[CONV_2D]:0"}, {"ADD", "[ADD]:1"}, {"SOFTMAX", "[SOFTMAX]:2"}};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    result.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return result;
}

TEST(OpProfileTest, ParsesTheRuntimeFormat) {
  auto profiles = parseProfileJson(kProfile);
  ASSERT_TRUE(profiles.ok()) << profiles.error().message;
  ASSERT_EQ(profiles->size(), 2u);
  const CompilationProfile* profile = findCompilation(*profiles, 3);
  ASSERT_EQ(profile, &(*profiles)[1]);
  ASSERT_EQ(profile->steps.size(), 2u);
  EXPECT_EQ(profile->steps[0].device, "fast-npu");
  EXPECT_EQ(profile->steps[0].operations, (std::vector<uint32_t>{0, 1}));
  ASSERT_EQ(profile->operations.size(), 3u);
  EXPECT_EQ(profile->operations[2].type, "SOFTMAX");
  EXPECT_EQ(profile->operations[2].count, 4);
  EXPECT_EQ(profile->operations[2].totalNs, 3000000);
  EXPECT_EQ(findCompilation(*profiles, 7), nullptr);
}

TEST(OpProfileTest, RejectsMalformedProfiles) {
  EXPECT_FALSE(parseProfileJson("{").ok());
  EXPECT_FALSE(parseProfileJson("{}").ok());
  EXPECT_FALSE(parseProfileJson(R"({"compilations": [{"operations": [{"count": 1}]}]})").ok());
}

TEST(OpProfileTableTest, RunOrderRowsInBenchmarkModelLayout) {
  auto profiles = parseProfileJson(kProfile);
  ASSERT_TRUE(profiles.ok());
  // 4 executions: every op ran once per execution.
  const auto text = lines(formatOperatorProfile((*profiles)[1], kLabels, 4));
  ASSERT_GT(text.size(), 5u);
  EXPECT_EQ(text[0], "Operator-wise Profiling Info for Regular Benchmark Runs:");
  EXPECT_EQ(text[1], "============================== Run Order ==============================");
  EXPECT_EQ(text[2],
            "\t             [node type]\t          [start]\t  [first]\t [avg ms]\t     [%]"
            "\t  [cdf%]\t  [mem KB]\t[times called]\t        [device]\t[Name]");
  // CONV_2D: 1 ms per call, 50% of 2 ms per run.
  EXPECT_EQ(text[3],
            "\t                 CONV_2D\t            0.000\t    1.000\t    1.000\t 50.000%"
            "\t 50.000%\t     0.000\t        1\t        fast-npu\t[CONV_2D]:0");
  // ADD starts after CONV_2D.
  EXPECT_EQ(text[4],
            "\t                     ADD\t            1.000\t    0.250\t    0.250\t 12.500%"
            "\t 62.500%\t     0.000\t        1\t        fast-npu\t[ADD]:1");
  EXPECT_EQ(text[5],
            "\t                 SOFTMAX\t            1.250\t    0.750\t    0.750\t 37.500%"
            "\t100.000%\t     0.000\t        1\t nnapi-reference\t[SOFTMAX]:2");
}

TEST(OpProfileTableTest, TopByTimeTypeAndPartitionSummaries) {
  auto profiles = parseProfileJson(kProfile);
  ASSERT_TRUE(profiles.ok());
  const std::string text = formatOperatorProfile((*profiles)[1], kLabels, 4);
  const size_t top = text.find("Top by Computation Time");
  ASSERT_NE(top, std::string::npos);
  // Sorted by time: CONV_2D, SOFTMAX, ADD.
  const size_t conv = text.find("[CONV_2D]:0", top);
  const size_t softmax = text.find("[SOFTMAX]:2", top);
  const size_t add = text.find("[ADD]:1", top);
  EXPECT_LT(conv, softmax);
  EXPECT_LT(softmax, add);
  EXPECT_NE(text.find("Number of nodes executed: 3"), std::string::npos);
  EXPECT_NE(text.find("Summary by node type"), std::string::npos);
  EXPECT_NE(text.find("Number of partitions: 2"), std::string::npos);
  EXPECT_NE(text.find("\t          0\t        fast-npu\t      2\t     1.250\t   62.500%\t0,1\n"),
            std::string::npos);
  EXPECT_NE(text.find("\t          1\t nnapi-reference\t      1\t     0.750\t   37.500%\t2\n"),
            std::string::npos);
}

TEST(OpProfileTableTest, WithoutRuntimeProfileListsOperations) {
  const CompilationProfile profile = unprofiledCompilation(kLabels, "");
  const std::string text = formatOperatorProfile(profile, kLabels, 10);
  EXPECT_NE(text.find("[SOFTMAX]:2"), std::string::npos);
  EXPECT_NE(text.find("Number of partitions: 1"), std::string::npos);
  EXPECT_NE(text.find("\t0-2\n"), std::string::npos);  // consecutive operations as a range
  EXPECT_EQ(text.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace annrt::tools
