// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "device_report.h"

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

TEST(DeviceReportTest, ListsNameTypeVersionFeatureLevel) {
  DeviceInfo info;
  info.name = "nnapi-reference";
  info.type = ANEURALNETWORKS_DEVICE_CPU;
  info.version = "annrt-0.1";
  info.featureLevel = ANEURALNETWORKS_FEATURE_LEVEL_8;
  const std::string text = formatDeviceList({info});
  EXPECT_NE(text.find("1 NNAPI device(s):\n  [0] nnapi-reference\n"), std::string::npos);
  EXPECT_NE(text.find("type:                    CPU\n"), std::string::npos);
  EXPECT_NE(text.find("version:                 annrt-0.1\n"), std::string::npos);
  EXPECT_NE(text.find("feature level:           FEATURE_LEVEL_8 (1000008)\n"), std::string::npos);
  EXPECT_NE(text.find("supported operand types: not reported"), std::string::npos);
}

TEST(DeviceReportTest, CapabilitiesWhenKnown) {
  DeviceInfo info;
  info.name = "npu";
  info.type = ANEURALNETWORKS_DEVICE_ACCELERATOR;
  DeviceCapabilities capabilities;
  capabilities.operandTypes = std::vector<std::string>{"TENSOR_FLOAT32", "TENSOR_QUANT8_ASYMM"};
  capabilities.performance = "float32 0.5x, quant8 0.1x of nnapi-reference";
  const std::string text = formatDeviceList({info}, {capabilities});
  EXPECT_NE(text.find("supported operand types: TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM\n"),
            std::string::npos);
  EXPECT_NE(text.find("performance:             float32 0.5x"), std::string::npos);
}

TEST(DeviceReportTest, FeatureLevelNames) {
  EXPECT_EQ(featureLevelName(ANEURALNETWORKS_FEATURE_LEVEL_5), "FEATURE_LEVEL_5 (31)");
  EXPECT_EQ(featureLevelName(42), "42");
  EXPECT_STREQ(deviceTypeName(ANEURALNETWORKS_DEVICE_GPU), "GPU");
  EXPECT_STREQ(deviceTypeName(77), "UNKNOWN");
}

}  // namespace
}  // namespace annrt::tools
