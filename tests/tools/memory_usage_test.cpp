// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "memory_usage.h"

#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

TEST(MemoryUsageTest, ParsesProcStatus) {
  const ProcessMemory memory = parseProcStatus(
      "Name:\tannrt-benchmark\nVmPeak:\t  20000 kB\nVmHWM:\t    6000 kB\nVmRSS:\t    5120 kB\n");
  EXPECT_TRUE(memory.valid);
  EXPECT_EQ(memory.rssKb, 5120);
  EXPECT_EQ(memory.peakKb, 6000);
}

TEST(MemoryUsageTest, MissingFieldsAreInvalid) {
  EXPECT_FALSE(parseProcStatus("Name:\tx\nVmRSSX:\t1 kB\n").valid);
}

TEST(MemoryUsageTest, ReadsThisProcess) {
  const ProcessMemory memory = readProcessMemory();
  ASSERT_TRUE(memory.valid);
  EXPECT_GT(memory.rssKb, 0);
  EXPECT_GE(memory.peakKb, memory.rssKb);
}

}  // namespace
}  // namespace annrt::tools
