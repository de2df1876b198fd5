// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/reference/reference_driver.h"

#include "driver_abi/exported_device.h"
#include "drivers/reference/reference_device.h"

namespace annrt::reference {

const AnnrtDriver* referenceDriver() {
  static const abi::DeviceExporter exporter("annrt-reference", {createReferenceDevice()});
  return exporter.driver();
}

}  // namespace annrt::reference
