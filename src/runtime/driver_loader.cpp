// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/driver_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "common/log.h"
#include "common/sanitizers.h"
#include "driver_abi/driver_library.h"
#include "driver_abi/isolated_device.h"
#include "driver_abi/plugin_device.h"
#include "runtime/device_manager.h"

namespace annrt::runtime {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kDefaultHostTimeoutMs = 10000;
// Address space, not resident memory: room for a driver's own threads and
// mappings, less than a runaway allocation.
constexpr uint64_t kDefaultHostMemoryMb = 8192;

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

// ANNRT_DRIVER_ISOLATION: unset or "inprocess", "process" (every plug-in) or
// "process:NAME[,NAME]" (plug-ins with a driver or device of those names).
struct Isolation {
  bool all = false;
  std::vector<std::string> names;
  bool any() const { return all || !names.empty(); }
};

Isolation isolationFromEnvironment() {
  const char* env = std::getenv("ANNRT_DRIVER_ISOLATION");
  Isolation isolation;
  if (env == nullptr || *env == '\0' || std::string_view(env) == "inprocess") return isolation;
  const std::string_view value(env);
  if (value == "process") {
    isolation.all = true;
  } else if (value.starts_with("process:")) {
    std::stringstream stream(std::string(value.substr(8)));
    std::string name;
    while (std::getline(stream, name, ',')) {
      if (!name.empty()) isolation.names.push_back(name);
    }
  }
  if (!isolation.any()) {
    logError(
        "ANNRT_DRIVER_ISOLATION={} is not inprocess, process or process:NAME[,NAME]; "
        "plug-ins run in process",
        env);
  }
  return isolation;
}

uint64_t environmentNumber(const char* variable, uint64_t fallback) {
  const char* env = std::getenv(variable);
  if (env == nullptr || *env == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(env, &end, 10);
  if (*end != '\0') {
    logError("{}={} is not a number; using {}", variable, env, fallback);
    return fallback;
  }
  return value;
}

// annrt/annrt-driver-host beside the library holding this code (the build
// tree and installs put it there), unless ANNRT_DRIVER_HOST names another.
std::string driverHostPath() {
  if (const char* env = std::getenv("ANNRT_DRIVER_HOST"); env && *env) return env;
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&driverHostPath), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "annrt-driver-host";
  }
  return (fs::path(info.dli_fname).parent_path() / "annrt" / "annrt-driver-host").string();
}

abi::HostSettings hostSettings(const std::string& library) {
  abi::HostSettings settings;
  settings.hostPath = driverHostPath();
  settings.library = library;
  settings.timeout = std::chrono::milliseconds(
      environmentNumber("ANNRT_DRIVER_HOST_TIMEOUT_MS", kDefaultHostTimeoutMs));
  settings.memoryMb = environmentNumber("ANNRT_DRIVER_HOST_MEMORY_MB", kDefaultHostMemoryMb);
  if (kAddressSpaceSanitized && settings.memoryMb > 0) {
    logInfo(
        "annrt-driver-host runs without its memory limit in this sanitizer build (the "
        "sanitizer's shadow memory needs the address space)");
    settings.memoryMb = 0;
  }
  return settings;
}

abi::HostEvents hostEvents() {
  abi::HostEvents events;
  events.failed = [](const std::vector<std::string>& devices) {
    for (const std::string& device : devices) {
      DeviceManager::get().telemetry().countHostFailure(device);
    }
  };
  events.restarted = [](const std::vector<std::string>& devices) {
    for (const std::string& device : devices) {
      DeviceManager::get().telemetry().countHostRestart(device);
    }
  };
  return events;
}

bool selected(const Isolation& isolation, const abi::Hello& hello) {
  if (isolation.all) return true;
  auto listed = [&](const std::string& name) {
    return std::find(isolation.names.begin(), isolation.names.end(), name) != isolation.names.end();
  };
  if (listed(hello.driverName)) return true;
  return std::any_of(hello.devices.begin(), hello.devices.end(),
                     [&](const abi::HostDeviceInfo& device) { return listed(device.name); });
}

// The devices of `path` run by a host, or nothing: `inProcess` tells whether
// the library is not isolated after all (ANNRT_DRIVER_ISOLATION names other drivers).
std::vector<std::shared_ptr<Device>> isolatedDevicesOf(const std::string& path,
                                                       const Isolation& isolation,
                                                       bool* inProcess) {
  *inProcess = false;
  auto channel = abi::HostChannel::start(hostSettings(path), hostEvents());
  if (!channel.ok()) {
    logError("cannot run driver {} isolated: {}", path, channel.error().message);
    return {};
  }
  if (!selected(isolation, (*channel)->hello())) {
    *inProcess = true;
    return {};
  }
  ANNRT_VLOG(MANAGER, "driver {} runs in annrt-driver-host pid {}", path, (*channel)->pid());
  return abi::isolatedDevices(std::move(channel).value());
}

std::vector<std::shared_ptr<Device>> inProcessDevicesOf(const std::string& path) {
  auto library = abi::openDriverLibrary(path);
  if (!library.ok()) {
    logError("{}", library.error().message);
    return {};
  }
  std::vector<std::shared_ptr<Device>> devices;
  for (uint32_t i = 0; i < library->driver->deviceCount; ++i) {
    devices.push_back(abi::wrapDevice(library->handle, abi::driverDevice(*library->driver, i)));
  }
  return devices;
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
  const Isolation isolation = isolationFromEnvironment();
  std::vector<std::shared_ptr<Device>> devices;
  for (const std::string& path : paths) {
    bool inProcess = !isolation.any();
    std::vector<std::shared_ptr<Device>> found;
    if (!inProcess) found = isolatedDevicesOf(path, isolation, &inProcess);
    if (inProcess) found = inProcessDevicesOf(path);
    for (auto& device : found) {
      if (std::find(taken.begin(), taken.end(), device->name()) != taken.end()) {
        logError("refusing device {} of driver {}: the name is already taken", device->name(),
                 path);
        continue;
      }
      taken.push_back(device->name());
      ANNRT_VLOG(MANAGER, "loaded device {} from {}", device->name(), path);
      devices.push_back(std::move(device));
    }
  }
  return devices;
}

}  // namespace annrt::runtime
