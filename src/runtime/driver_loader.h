// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Finds and loads driver plug-ins: every library named by ANNRT_DRIVER_PATH
// (files or directories, ':'-separated) and in the config directories
// $XDG_CONFIG_HOME/annrt/drivers (~/.config/annrt/drivers) and
// /etc/annrt/drivers. A library whose ABI version or structs do not match is
// refused with a log line. ANNRT_DRIVER_ISOLATION runs the libraries in
// annrt-driver-host processes instead (docs/driver-isolation.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/device.h"

namespace annrt::runtime {

// Library paths to try, in order, without duplicates.
std::vector<std::string> driverLibraryPaths();

// Loads the drivers at `paths`; devices whose name is in `taken` (or repeats)
// are refused.
std::vector<std::shared_ptr<Device>> loadDrivers(const std::vector<std::string>& paths,
                                                 std::vector<std::string> taken);

}  // namespace annrt::runtime
