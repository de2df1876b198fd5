// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Plug-in drivers seen by an application: which devices load, what they
// claim, and that failures fall back (or not) with correct results.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "client/graph_builder.h"
#include "common/device_lookup.h"
#include "common/temp_path.h"

namespace {

using annrt::test::findDevice;

const std::string& profilePath();

constexpr int64_t kFutureFeatureLevel = ANEURALNETWORKS_FEATURE_LEVEL_8 + 1;

// Must run before the runtime's device registry is built (first NNAPI call).
const bool kEnvironmentReady = [] {
  const std::string path =
      std::string(ANNRT_SAMPLE_DRIVER_DIR) + ":" + std::string(ANNRT_BAD_VERSION_DRIVER);
  setenv("ANNRT_DRIVER_PATH", path.c_str(), 1);
  setenv("ANNRT_PROFILE", profilePath().c_str(), 1);
  // The samples are compared with the reference alone; annrt-cpu would take
  // float operations on its own merit.
  setenv("ANNRT_DISABLE_DEVICES", "^annrt-cpu$", 1);
  // The samples report a feature level past FEATURE_LEVEL_8, as a driver
  // newer than the runtime would.
  setenv("ANNRT_SAMPLE_FEATURE_LEVEL", std::to_string(kFutureFeatureLevel).c_str(), 1);
  return true;
}();

const std::string& profilePath() {
  static const annrt::test::TempPath path("annrt_driver_plugin_profile.json");
  return path.str();
}

// Devices of the steps of the last compilation freed (from ANNRT_PROFILE).
std::vector<std::string> lastPlanDevices() {
  std::ifstream in(profilePath());
  const nlohmann::json profile = nlohmann::json::parse(in, nullptr, false);
  std::vector<std::string> devices;
  if (profile.is_discarded() || profile["compilations"].empty()) return devices;
  for (const auto& step : profile["compilations"].back()["steps"]) {
    devices.push_back(step["device"]);
  }
  return devices;
}

// input [1,2,2,2] -> CONV_2D 1x1 (2->2) -> ADD constant -> LOGISTIC -> output
class SmallModel {
 public:
  SmallModel() {
    annrt::client::GraphBuilder& b = builder_;
    const uint32_t input = b.addFloatTensor({1, 2, 2, 2});
    const uint32_t filter = b.addFloatConstant({2, 1, 1, 2}, {1.0f, 0.5f, -0.5f, 2.0f});
    const uint32_t bias = b.addFloatConstant({2}, {0.1f, -0.2f});
    std::vector<uint32_t> convIn = {input, filter, bias};
    for (int32_t v : {0, 0, 0, 0, 1, 1, 0})
      convIn.push_back(b.addInt32Scalar(v));  // pads, strides, act
    const uint32_t conv = b.addFloatTensor({1, 2, 2, 2});
    b.addOperation(ANEURALNETWORKS_CONV_2D, convIn, {conv});
    const uint32_t offset = b.addFloatConstant({1, 2, 2, 2}, {1, 2, 3, 4, -1, -2, -3, -4});
    const uint32_t sum = b.addFloatTensor({1, 2, 2, 2});
    b.addOperation(ANEURALNETWORKS_ADD, {conv, offset, b.addInt32Scalar(0)}, {sum});
    const uint32_t output = b.addFloatTensor({1, 2, 2, 2});
    b.addOperation(ANEURALNETWORKS_LOGISTIC, {sum}, {output});
    b.finish({input}, {output});
    EXPECT_TRUE(b.ok()) << b.status().error().message;
    model_ = b.model();
  }

  ANeuralNetworksModel* get() const { return model_; }

  // Compiles for `devices` (empty: ANeuralNetworksCompilation_create) and runs once.
  int run(const std::vector<const ANeuralNetworksDevice*>& devices, std::vector<float>* out) const {
    ANeuralNetworksCompilation* compilation = nullptr;
    int status = devices.empty() ? ANeuralNetworksCompilation_create(model_, &compilation)
                                 : ANeuralNetworksCompilation_createForDevices(
                                       model_, devices.data(), devices.size(), &compilation);
    if (status == 0) status = ANeuralNetworksCompilation_finish(compilation);
    ANeuralNetworksExecution* execution = nullptr;
    if (status == 0) status = ANeuralNetworksExecution_create(compilation, &execution);
    const float input[8] = {0.5f, -1.0f, 2.0f, 0.25f, -0.75f, 1.5f, 0.0f, 3.0f};
    out->assign(8, 0.0f);
    if (status == 0) {
      ANeuralNetworksExecution_setInput(execution, 0, nullptr, input, sizeof(input));
      ANeuralNetworksExecution_setOutput(execution, 0, nullptr, out->data(), 8 * sizeof(float));
      status = ANeuralNetworksExecution_compute(execution);
    }
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
    return status;
  }

 private:
  annrt::client::GraphBuilder builder_;
  ANeuralNetworksModel* model_ = nullptr;
};

class DriverPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kEnvironmentReady);
    unsetenv("ANNRT_PARTITION");
    unsetenv("ANNRT_SAMPLE_FAILING_MODE");
    reference_ = findDevice("nnapi-reference");
    ASSERT_NE(reference_, nullptr);
    ASSERT_EQ(model_.run({reference_}, &expected_), 0);
  }

  SmallModel model_;
  const ANeuralNetworksDevice* reference_ = nullptr;
  std::vector<float> expected_;
};

TEST_F(DriverPluginTest, SamplesLoadAndTheMismatchedAbiIsRefused) {
  for (const char* name : {"sample-float-fast", "sample-quant", "sample-failing"}) {
    EXPECT_NE(findDevice(name), nullptr) << name;
  }
  EXPECT_EQ(findDevice("bad-version"), nullptr);
}

// AOSP reports at most the runtime's own feature level for any device.
TEST_F(DriverPluginTest, FeatureLevelIsCappedAtTheRuntimes) {
  const ANeuralNetworksDevice* sample = findDevice("sample-float-fast");
  ASSERT_NE(sample, nullptr);
  int64_t level = 0;
  ASSERT_EQ(ANeuralNetworksDevice_getFeatureLevel(sample, &level), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(level, ANeuralNetworks_getRuntimeFeatureLevel());
  EXPECT_LT(level, kFutureFeatureLevel);
}

TEST_F(DriverPluginTest, DevicesClaimOnlyWhatTheySupport) {
  bool supported[3] = {};
  const ANeuralNetworksDevice* fast = findDevice("sample-float-fast");
  ASSERT_EQ(
      ANeuralNetworksModel_getSupportedOperationsForDevices(model_.get(), &fast, 1, supported), 0);
  EXPECT_TRUE(supported[0]);   // CONV_2D
  EXPECT_TRUE(supported[1]);   // ADD
  EXPECT_FALSE(supported[2]);  // LOGISTIC
  const ANeuralNetworksDevice* quant = findDevice("sample-quant");
  ASSERT_EQ(
      ANeuralNetworksModel_getSupportedOperationsForDevices(model_.get(), &quant, 1, supported), 0);
  EXPECT_FALSE(supported[0] || supported[1] || supported[2]);
}

TEST_F(DriverPluginTest, TwoDevicePlanMatchesTheReference) {
  setenv("ANNRT_COST_MODEL", "0", 1);
  std::vector<float> out;
  ASSERT_EQ(model_.run({findDevice("sample-float-fast"), reference_}, &out), 0);
  unsetenv("ANNRT_COST_MODEL");
  EXPECT_EQ(lastPlanDevices(), (std::vector<std::string>{"sample-float-fast", "nnapi-reference"}));
  EXPECT_EQ(out, expected_);
}

TEST_F(DriverPluginTest, CostModelKeepsATinyModelOnOneDevice) {
  std::vector<float> out;
  ASSERT_EQ(model_.run({findDevice("sample-float-fast"), reference_}, &out), 0);
  EXPECT_EQ(lastPlanDevices(), (std::vector<std::string>{"nnapi-reference"}));
  EXPECT_EQ(out, expected_);
}

TEST_F(DriverPluginTest, ListedDevicesMustCoverTheModel) {
  std::vector<float> out;
  EXPECT_EQ(model_.run({findDevice("sample-float-fast")}, &out), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(DriverPluginTest, FailingDeviceFallsBackToTheCpu) {
  for (const char* mode : {"compile", "execute", "output-size"}) {
    setenv("ANNRT_SAMPLE_FAILING_MODE", mode, 1);
    std::vector<float> out;
    ASSERT_EQ(model_.run({}, &out), 0) << mode;
    EXPECT_EQ(out, expected_) << mode;
  }
}

TEST_F(DriverPluginTest, NoFallbackReturnsTheDeviceError) {
  setenv("ANNRT_PARTITION", "2", 1);
  std::vector<float> out;
  setenv("ANNRT_SAMPLE_FAILING_MODE", "compile", 1);
  EXPECT_EQ(model_.run({}, &out), ANEURALNETWORKS_OP_FAILED);
  setenv("ANNRT_SAMPLE_FAILING_MODE", "execute", 1);
  EXPECT_EQ(model_.run({}, &out), ANEURALNETWORKS_OP_FAILED);
}

TEST_F(DriverPluginTest, ExplicitFailingDeviceDoesNotFallBack) {
  std::vector<float> out;
  EXPECT_EQ(model_.run({findDevice("sample-failing")}, &out), ANEURALNETWORKS_OP_FAILED);
}

}  // namespace
