// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/driver_library.h"

#include <dlfcn.h>

#include "driver_abi/plugin_device.h"

namespace annrt::abi {

Result<DriverLibrary> openDriverLibrary(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, handle != nullptr, "cannot load driver {}: {}", path,
                   dlerror());
  std::shared_ptr<void> library(handle, [](void* h) { dlclose(h); });
  auto init = reinterpret_cast<AnnrtDriverInitFunction>(dlsym(handle, ANNRT_DRIVER_INIT_SYMBOL));
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, init != nullptr, "driver {} has no {} function", path,
                   ANNRT_DRIVER_INIT_SYMBOL);
  const AnnrtDriver* driver = init(ANNRT_DRIVER_ABI_VERSION);
  if (auto valid = validateDriver(driver); !valid.ok()) {
    return makeError(ErrorCode::OP_FAILED, "refusing driver {}: {}", path, valid.error().message);
  }
  if (driver->shutdown) {
    auto shutdown = driver->shutdown;
    return DriverLibrary{std::shared_ptr<void>(handle, [library, shutdown](void*) { shutdown(); }),
                         driver};
  }
  return DriverLibrary{std::move(library), driver};
}

}  // namespace annrt::abi
