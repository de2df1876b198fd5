// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Opening one driver plug-in library: dlopen, annrt_driver_init, the ABI
// checks. Shared by the runtime's loader and annrt-driver-host.
#pragma once

#include <annrt/driver.h>

#include <memory>
#include <string>

#include "common/result.h"

namespace annrt::abi {

struct DriverLibrary {
  // Keeps the code loaded (and calls the driver's shutdown when it goes).
  std::shared_ptr<void> handle;
  const AnnrtDriver* driver = nullptr;
};

// The error names the library and what was wrong with it.
Result<DriverLibrary> openDriverLibrary(const std::string& path);

}  // namespace annrt::abi
