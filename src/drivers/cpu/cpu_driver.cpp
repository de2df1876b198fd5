// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_driver.h"

#include "driver_abi/exported_device.h"
#include "drivers/cpu/cpu_device.h"

namespace annrt::cpu {

const AnnrtDriver* cpuDriver() {
  static const abi::DeviceExporter exporter("annrt-cpu", {createCpuDevice()});
  return exporter.driver();
}

}  // namespace annrt::cpu
