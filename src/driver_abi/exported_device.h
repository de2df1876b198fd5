// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Driver side of the plug-in ABI: exposes annrt::Device implementations
// through an AnnrtDriver, so drivers written against annrt's C++ interface
// (the in-tree devices, the sample plug-ins) load like any other plug-in.
#pragma once

#include <annrt/driver.h>

#include <memory>
#include <string>
#include <vector>

#include "common/device.h"

namespace annrt::abi {

class DeviceExporter {
 public:
  DeviceExporter(std::string driverName, std::vector<std::shared_ptr<Device>> devices);
  DeviceExporter(const DeviceExporter&) = delete;
  DeviceExporter& operator=(const DeviceExporter&) = delete;

  const AnnrtDriver* driver() const { return &driver_; }

  // What an AnnrtDevice's context points to.
  struct Exported {
    std::shared_ptr<Device> device;
    std::vector<AnnrtOperandPerformance> operandPerformance;
  };

 private:
  std::string name_;
  std::vector<std::unique_ptr<Exported>> exported_;
  std::vector<AnnrtDevice> devices_;
  AnnrtDriver driver_{};
};

}  // namespace annrt::abi
