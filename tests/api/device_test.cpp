// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworks_getDevice*, ANeuralNetworksDevice_* and
// ANeuralNetworksModel_getSupportedOperationsForDevices.
#include <set>
#include <string>

#include "test_models.h"

namespace annrt::test {
namespace {

uint32_t deviceCount() {
  uint32_t count = 0;
  EXPECT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  return count;
}

TEST(DeviceTest, CountAndLookup) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworks_getDeviceCount(nullptr));
  const uint32_t count = deviceCount();
  ASSERT_GE(count, 1u);
  ANeuralNetworksDevice* device = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworks_getDevice(0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworks_getDevice(count, &device));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworks_getDevice(UINT32_MAX, &device));
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworks_getDevice(i, &device));
    EXPECT_NE(device, nullptr);
    EXPECT_EQ(device, deviceAt(i)) << "the same representation every time";
  }
}

TEST(DeviceTest, Properties) {
  const int64_t runtimeLevel = ANeuralNetworks_getRuntimeFeatureLevel();
  const std::set<int64_t> levels = {
      ANEURALNETWORKS_FEATURE_LEVEL_1, ANEURALNETWORKS_FEATURE_LEVEL_2,
      ANEURALNETWORKS_FEATURE_LEVEL_3, ANEURALNETWORKS_FEATURE_LEVEL_4,
      ANEURALNETWORKS_FEATURE_LEVEL_5, ANEURALNETWORKS_FEATURE_LEVEL_6,
      ANEURALNETWORKS_FEATURE_LEVEL_7, ANEURALNETWORKS_FEATURE_LEVEL_8};
  EXPECT_TRUE(levels.count(runtimeLevel)) << runtimeLevel;
  std::set<std::string> names;
  for (uint32_t i = 0; i < deviceCount(); ++i) {
    SCOPED_TRACE(i);
    const ANeuralNetworksDevice* device = deviceAt(i);
    const char* name = nullptr;
    const char* version = nullptr;
    int32_t type = -1;
    int64_t level = 0;
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksDevice_getName(device, &name));
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksDevice_getVersion(device, &version));
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksDevice_getType(device, &type));
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksDevice_getFeatureLevel(device, &level));
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksDevice_wait(device));
    ASSERT_NE(name, nullptr);
    ASSERT_NE(version, nullptr);
    EXPECT_GT(std::strlen(name), 0u);
    EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
    EXPECT_GE(type, ANEURALNETWORKS_DEVICE_UNKNOWN);
    EXPECT_LE(type, ANEURALNETWORKS_DEVICE_ACCELERATOR);
    EXPECT_TRUE(levels.count(level)) << level;
    EXPECT_LE(level, runtimeLevel);

    EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_getName(device, nullptr));
    EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_getVersion(device, nullptr));
    EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_getType(device, nullptr));
    EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
              ANeuralNetworksDevice_getFeatureLevel(device, nullptr));
  }
  const char* text = nullptr;
  int32_t type = 0;
  int64_t level = 0;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_getName(nullptr, &text));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_getVersion(nullptr, &text));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_getType(nullptr, &type));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksDevice_getFeatureLevel(nullptr, &level));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksDevice_wait(nullptr));
}

TEST(DeviceTest, ExtensionSupport) {
  const ANeuralNetworksDevice* device = deviceAt(0);
  bool supported = true;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksDevice_getExtensionSupport(nullptr, "org.annrt.none", &supported));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksDevice_getExtensionSupport(device, nullptr, &supported));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksDevice_getExtensionSupport(device, "org.annrt.none", nullptr));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksDevice_getExtensionSupport(device, "org.annrt.none", &supported));
  EXPECT_FALSE(supported);
}

TEST(DeviceTest, SupportedOperationsForDevices) {
  Model model = oemAndFloorModel();
  const ANeuralNetworksDevice* device = deviceAt(0);
  bool supported[2] = {true, false};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getSupportedOperationsForDevices(nullptr, &device, 1, supported));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                                 model.get(), nullptr, 1, supported));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                                 model.get(), &device, 1, nullptr));
  const ANeuralNetworksDevice* withNull[] = {device, nullptr};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                                 model.get(), withNull, 2, supported));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                          model.get(), &device, 0, supported));
  const ANeuralNetworksDevice* duplicates[] = {device, device};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                          model.get(), duplicates, 2, supported));
  Model unfinished = floorModel(kDims, kDims, /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                           unfinished.get(), &device, 1, supported));
  // In the order the operations were added: OEM_OPERATION, then FLOOR.
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                          model.get(), &device, 1, supported));
  EXPECT_FALSE(supported[0]);
  EXPECT_TRUE(supported[1]);
}

}  // namespace
}  // namespace annrt::test
