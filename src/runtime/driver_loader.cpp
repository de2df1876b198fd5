// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/driver_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "common/log.h"
#include "driver_abi/plugin_device.h"

namespace annrt::runtime {
namespace {

namespace fs = std::filesystem;

void addLibraries(const fs::path& path, std::vector<std::string>& out) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(path, error)) {
      if (entry.path().extension() == ".so") found.push_back(entry.path().string());
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  } else if (fs::exists(path, error)) {
    out.push_back(path.string());
  }
}

std::vector<fs::path> configDirectories() {
  std::vector<fs::path> directories;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    directories.emplace_back(fs::path(xdg) / "annrt" / "drivers");
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    directories.emplace_back(fs::path(home) / ".config" / "annrt" / "drivers");
  }
  directories.emplace_back("/etc/annrt/drivers");
  return directories;
}

std::shared_ptr<void> openLibrary(const std::string& path, const AnnrtDriver** driver) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    logError("cannot load driver {}: {}", path, dlerror());
    return nullptr;
  }
  std::shared_ptr<void> library(handle, [](void* h) { dlclose(h); });
  auto init = reinterpret_cast<AnnrtDriverInitFunction>(dlsym(handle, ANNRT_DRIVER_INIT_SYMBOL));
  if (init == nullptr) {
    logError("driver {} has no {} function", path, ANNRT_DRIVER_INIT_SYMBOL);
    return nullptr;
  }
  *driver = init(ANNRT_DRIVER_ABI_VERSION);
  if (auto valid = abi::validateDriver(*driver); !valid.ok()) {
    logError("refusing driver {}: {}", path, valid.error().message);
    return nullptr;
  }
  if ((*driver)->shutdown) {
    auto shutdown = (*driver)->shutdown;
    return std::shared_ptr<void>(handle, [library, shutdown](void*) { shutdown(); });
  }
  return library;
}

}  // namespace

std::vector<std::string> driverLibraryPaths() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("ANNRT_DRIVER_PATH"); env && *env) {
    std::stringstream stream(env);
    std::string item;
    while (std::getline(stream, item, ':')) {
      if (!item.empty()) addLibraries(item, paths);
    }
  }
  for (const fs::path& directory : configDirectories()) addLibraries(directory, paths);
  std::vector<std::string> unique;
  for (const std::string& path : paths) {
    if (std::find(unique.begin(), unique.end(), path) == unique.end()) unique.push_back(path);
  }
  return unique;
}

std::vector<std::shared_ptr<Device>> loadDrivers(const std::vector<std::string>& paths,
                                                 std::vector<std::string> taken) {
  std::vector<std::shared_ptr<Device>> devices;
  for (const std::string& path : paths) {
    const AnnrtDriver* driver = nullptr;
    std::shared_ptr<void> library = openLibrary(path, &driver);
    if (!library) continue;
    for (uint32_t i = 0; i < driver->deviceCount; ++i) {
      const AnnrtDevice* device = &driver->devices[i];
      if (std::find(taken.begin(), taken.end(), device->name) != taken.end()) {
        logError("refusing device {} of driver {}: the name is already taken", device->name, path);
        continue;
      }
      taken.emplace_back(device->name);
      devices.push_back(abi::wrapDevice(library, device));
      ANNRT_VLOG(MANAGER, "loaded device {} from {}", device->name, path);
    }
  }
  return devices;
}

}  // namespace annrt::runtime
