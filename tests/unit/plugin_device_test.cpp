// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The runtime's view of a driver's devices through the plug-in ABI: the
// settings a device keys its cache entries by cross the ABI (1.2), drivers
// built against an older header (smaller AnnrtDevice structs) keep working,
// each device found at its own place in the array, and a driver whose
// structs disagree in size is refused.
#include "driver_abi/plugin_device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "counting_device.h"
#include "driver_abi/exported_device.h"

namespace annrt::abi {
namespace {

using test::CountingDevice;

class PluginDeviceTest : public ::testing::Test {
 protected:
  // Devices of `size` bytes, as a driver built against an older header lays
  // them out, in an array of that stride.
  AnnrtDriver olderDriver(uint32_t size, uint32_t abiMinor) {
    const AnnrtDriver& exported = *exporter_.driver();
    older_.assign(size_t{size} * exported.deviceCount, 0);
    for (uint32_t i = 0; i < exported.deviceCount; ++i) {
      AnnrtDevice device = exported.devices[i];
      device.size = size;
      std::memcpy(older_.data() + size_t{size} * i, &device, size);
    }
    AnnrtDriver driver = exported;
    driver.abiVersion = (1u << 16) | abiMinor;
    driver.devices = reinterpret_cast<const AnnrtDevice*>(older_.data());
    return driver;
  }

  std::shared_ptr<CountingDevice> first_ = std::make_shared<CountingDevice>("first", true, false);
  std::shared_ptr<CountingDevice> second_ = std::make_shared<CountingDevice>("second", true, false);
  DeviceExporter exporter_{"test-driver", {first_, second_}};
  std::vector<uint8_t> older_;  // operator new aligns it for the structs
};

TEST_F(PluginDeviceTest, CacheSettingsCrossTheAbi) {
  const std::shared_ptr<Device> device = wrapDevice(nullptr, driverDevice(*exporter_.driver(), 1));
  ASSERT_EQ(device->name(), "second");
  second_->settings = "kernels: table";
  const std::string table = device->cacheSettings();
  EXPECT_NE(table.find("kernels: table"), std::string::npos) << table;
  second_->settings = "kernels: off";
  EXPECT_NE(device->cacheSettings(), table);
  // None given is still not what a driver without the callback reports.
  second_->settings.clear();
  EXPECT_NE(device->cacheSettings(), "");
}

TEST_F(PluginDeviceTest, ADriverThatCannotWriteItsSettingsHasAKeyOfItsOwn) {
  AnnrtDevice failing = exporter_.driver()->devices[0];
  failing.writeCacheSettings = [](void*, const AnnrtCacheWriter*) -> int32_t { return 4; };
  const std::shared_ptr<Device> device = wrapDevice(nullptr, &failing);
  first_->settings.clear();
  const std::string unknown = device->cacheSettings();
  EXPECT_NE(unknown, wrapDevice(nullptr, exporter_.driver()->devices)->cacheSettings());
  EXPECT_NE(unknown, "");
}

TEST_F(PluginDeviceTest, DevicesOfAbi11CacheWithoutSettings) {
  const AnnrtDriver driver = olderDriver(ANNRT_DEVICE_SIZE_1_1, 1);
  ASSERT_TRUE(validateDriver(&driver).ok());
  second_->settings = "ignored: the struct ends before the callback";
  const std::shared_ptr<Device> device = wrapDevice(nullptr, driverDevice(driver, 1));
  EXPECT_EQ(device->name(), "second");
  EXPECT_TRUE(device->supportsCaching());
  EXPECT_EQ(device->cacheSettings(), "");
}

TEST_F(PluginDeviceTest, DevicesOfAbi10AreSteppedByTheirSize) {
  const AnnrtDriver driver = olderDriver(ANNRT_DEVICE_SIZE_1_0, 0);
  ASSERT_TRUE(validateDriver(&driver).ok());
  const std::shared_ptr<Device> first = wrapDevice(nullptr, driverDevice(driver, 0));
  const std::shared_ptr<Device> second = wrapDevice(nullptr, driverDevice(driver, 1));
  EXPECT_EQ(first->name(), "first");
  EXPECT_EQ(second->name(), "second");
  EXPECT_FALSE(second->supportsCaching());
  EXPECT_EQ(second->cacheSettings(), "");
}

TEST_F(PluginDeviceTest, DevicesOfDifferentSizesAreRefused) {
  const AnnrtDriver driver = olderDriver(ANNRT_DEVICE_SIZE_1_1, 1);
  reinterpret_cast<AnnrtDevice*>(older_.data() + ANNRT_DEVICE_SIZE_1_1)->size =
      ANNRT_DEVICE_SIZE_1_0;
  const Result<void> validated = validateDriver(&driver);
  ASSERT_FALSE(validated.ok());
  EXPECT_NE(validated.error().message.find("one size"), std::string::npos)
      << validated.error().message;
}

TEST_F(PluginDeviceTest, DeviceStructsOfAnOddSizeAreRefused) {
  const AnnrtDriver driver = olderDriver(ANNRT_DEVICE_SIZE_1_0 + 4, 0);
  EXPECT_FALSE(validateDriver(&driver).ok());
}

}  // namespace
}  // namespace annrt::abi
