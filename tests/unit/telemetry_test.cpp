// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/telemetry.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/temp_path.h"

namespace annrt::runtime {
namespace {

// Telemetry reads ANNRT_STATS when it is built; each test sets it first.
class TelemetryStatsTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv("ANNRT_STATS", path_.c_str(), 1); }
  void TearDown() override { unsetenv("ANNRT_STATS"); }

  nlohmann::json readStats() const {
    std::ifstream in(path_);
    return nlohmann::json::parse(in, nullptr, false);
  }

  const test::TempPath stats_{"annrt_telemetry_stats.json"};
  const std::string& path_ = stats_.str();
};

TEST_F(TelemetryStatsTest, ExitWritesOnlyWhatChangedSinceTheLastWrite) {
  {
    Telemetry telemetry;
    telemetry.countCompilation("dev");
    telemetry.writeStats();
    EXPECT_EQ(readStats()["devices"]["dev"]["compilations"], 1);
    // A reader (annrt-benchmark) takes the file away once it has read it.
    std::filesystem::remove(path_);
  }
  EXPECT_FALSE(std::filesystem::exists(path_));

  {
    Telemetry telemetry;
    telemetry.countCompilation("dev");
    telemetry.writeStats();
    telemetry.countInference("dev");
    telemetry.countCache("dev", /*hit=*/true);
  }
  const nlohmann::json stats = readStats();
  ASSERT_FALSE(stats.is_discarded());
  EXPECT_EQ(stats["devices"]["dev"]["inferences"], 1);
  EXPECT_EQ(stats["devices"]["dev"]["cache_hits"], 1);
}

TEST_F(TelemetryStatsTest, NothingCountedWritesNothing) {
  { Telemetry telemetry; }
  EXPECT_FALSE(std::filesystem::exists(path_));
}

}  // namespace
}  // namespace annrt::runtime
