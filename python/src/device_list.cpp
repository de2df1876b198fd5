// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "device_list.h"

#include "devices.h"
#include "errors.h"

namespace py = pybind11;

namespace annrt::python {

py::list deviceList() {
  const std::vector<tools::DeviceInfo> devices = unwrap(tools::listDevices());
  py::list list;
  for (const tools::DeviceInfo& device : devices) {
    py::dict entry;
    entry["name"] = device.name;
    entry["type"] = tools::deviceTypeName(device.type);
    entry["feature_level"] = device.featureLevel;
    entry["version"] = device.version;
    list.append(entry);
  }
  return list;
}

}  // namespace annrt::python
