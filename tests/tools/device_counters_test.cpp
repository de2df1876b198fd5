// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "device_counters.h"

#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

TEST(DeviceCountersTest, ParsesTheRuntimeStatsFile) {
  auto counters = parseDeviceCounters(R"({"devices": {
      "sample-failing": {"compilations": 1, "inferences": 0, "cache_hits": 0,
                         "cache_misses": 0, "fallbacks": 3},
      "nnapi-reference": {"compilations": 2, "inferences": 3, "cache_hits": 4,
                          "cache_misses": 5, "fallbacks": 0}}})");
  ASSERT_TRUE(counters.ok()) << counters.error().message;
  ASSERT_EQ(counters->size(), 2u);
  EXPECT_EQ((*counters)[0].device, "nnapi-reference");
  EXPECT_EQ((*counters)[0].cacheMisses, 5);
  EXPECT_EQ(deviceCounterLines(*counters)[1],
            "Device sample-failing: compilations=1 inferences=0 fallbacks=3 cache_hits=0 "
            "cache_misses=0");
}

TEST(DeviceCountersTest, RejectsMalformedStats) {
  EXPECT_FALSE(parseDeviceCounters("not json").ok());
  EXPECT_FALSE(parseDeviceCounters(R"({"devices": []})").ok());
  EXPECT_FALSE(parseDeviceCounters(R"({"devices": {"x": {"compilations": -1}}})").ok());
  auto missing = parseDeviceCounters(R"({"devices": {"x": {"compilations": 1}}})");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("inferences"), std::string::npos);
}

}  // namespace
}  // namespace annrt::tools
