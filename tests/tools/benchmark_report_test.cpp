// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "benchmark_report.h"

#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

TEST(BenchmarkReportTest, HeaderLines) {
  EXPECT_EQ(runHeaderLine(50, 1.0f, 150.0f),
            "Running benchmark for at least 50 iterations and at least 1 seconds but terminate "
            "if exceeding 150 seconds.");
  EXPECT_EQ(runHeaderLine(1, 0.5f, 150.0f),
            "Running benchmark for at least 1 iterations and at least 0.5 seconds but terminate "
            "if exceeding 150 seconds.");
  EXPECT_EQ(initializedLine(12345), "Initialized session in 12.345ms.");
  EXPECT_EQ(modelSizeLine(230000), "The input model file size (MB): 0.23");
}

TEST(BenchmarkReportTest, InferenceTimings) {
  RunStat warmup;
  warmup.add(3000);
  warmup.add(2000);
  RunStat inference;
  inference.add(1000);
  inference.add(1001);
  EXPECT_EQ(inferenceTimingsLine(17187, warmup, inference),
            "Inference timings in us: Init: 17187, First inference: 3000, Warmup (avg): 2500, "
            "Inference (avg): 1000.5");
}

TEST(BenchmarkReportTest, MemoryLines) {
  // rss is what is resident now, peak the high-water mark; the deltas use the
  // peaks, as benchmark_model's ru_maxrss does.
  ProcessMemory start{true, 9000, 10240};
  ProcessMemory init{true, 9500, 11264};
  ProcessMemory end{true, 10000, 12800};
  const auto lines = memoryLines(start, init, end);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("Note: as the benchmark tool itself affects memory footprint", 0), 0u);
  EXPECT_EQ(lines[1], "Memory footprint delta from the start of the tool (MB): init=1 overall=2.5");
  EXPECT_EQ(lines[2], "Overall peak memory footprint (MB) via periodic monitoring: 12.5");
  EXPECT_TRUE(memoryLines(ProcessMemory{}, init, end).empty());
}

}  // namespace
}  // namespace annrt::tools
