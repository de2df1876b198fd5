// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "run_stat.h"

#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

TEST(RunStatTest, EmptyPrintsCountZero) {
  RunStat stat;
  EXPECT_EQ(stat.toString(), "count=0");
  EXPECT_EQ(stat.avg(), 0.0);
  EXPECT_EQ(stat.first(), 0);
}

TEST(RunStatTest, SingleValue) {
  RunStat stat;
  stat.add(1234);
  EXPECT_EQ(stat.toString(), "count=1 curr=1234");
}

TEST(RunStatTest, AllSame) {
  RunStat stat;
  for (int i = 0; i < 3; ++i) stat.add(7);
  EXPECT_EQ(stat.toString(), "count=3 curr=7(all same)");
  EXPECT_EQ(stat.stdDeviation(), 0);
}

TEST(RunStatTest, FullLineLikeBenchmarkModel) {
  RunStat stat;
  stat.add(100);
  stat.add(300);
  stat.add(200);
  stat.add(201);
  // avg 200.25 printed with 6 significant digits; std truncated to an integer.
  EXPECT_EQ(stat.toString(), "count=4 first=100 curr=201 min=100 max=300 avg=200.25 std=70");
}

TEST(RunStatTest, LargeAveragesUseScientificNotationLikeOstream) {
  RunStat stat;
  stat.add(2950340);
  stat.add(2950342);
  EXPECT_NE(stat.toString().find("avg=2.95034e+06"), std::string::npos);
}

}  // namespace
}  // namespace annrt::tools
