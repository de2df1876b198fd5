// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/device_manager.h"

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "common/log.h"
#include "driver_abi/plugin_device.h"
#include "drivers/reference/reference_driver.h"
#ifdef ANNRT_HAVE_CPU_DEVICE
#include "drivers/cpu/cpu_driver.h"
#endif
#include "runtime/driver_loader.h"
#include "runtime/trace.h"

namespace annrt::runtime {
namespace {

// ANNRT_ENABLED_DEVICES / ANNRT_DISABLE_DEVICES: regexes on device names.
bool isVisible(const std::string& name) {
  auto matches = [&](const char* variable) -> std::optional<bool> {
    const char* pattern = std::getenv(variable);
    if (pattern == nullptr || *pattern == '\0') return std::nullopt;
    try {
      return std::regex_search(name, std::regex(pattern));
    } catch (const std::regex_error&) {
      logError("{}={} is not a valid regular expression; ignored", variable, pattern);
      return std::nullopt;
    }
  };
  if (auto enabled = matches("ANNRT_ENABLED_DEVICES"); enabled && !*enabled) return false;
  if (auto disabled = matches("ANNRT_DISABLE_DEVICES"); disabled && *disabled) return false;
  return true;
}

}  // namespace

const DeviceManager& DeviceManager::get() {
  static const DeviceManager instance;
  return instance;
}

DeviceManager::DeviceManager() {
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::INITIALIZATION, "load devices");
  // In-tree devices go through the plug-in ABI like any other driver.
  const AnnrtDriver* reference = reference::referenceDriver();
  reference_ = abi::wrapDevice(nullptr, &reference->devices[0]);
  std::vector<std::shared_ptr<Device>> candidates{reference_};
  std::vector<std::string> names{reference_->name()};
#ifdef ANNRT_HAVE_CPU_DEVICE
  // annrt-cpu (XNNPACK) comes next, through the same ABI.
  const AnnrtDriver* cpu = cpu::cpuDriver();
  candidates.push_back(abi::wrapDevice(nullptr, &cpu->devices[0]));
  names.push_back(candidates.back()->name());
#endif
  for (auto& device : loadDrivers(driverLibraryPaths(), names)) candidates.push_back(device);
  for (auto& device : candidates) {
    if (!isVisible(device->name())) {
      ANNRT_VLOG(MANAGER, "device {} hidden by ANNRT_ENABLED_DEVICES/ANNRT_DISABLE_DEVICES",
                 device->name());
      continue;
    }
    ANNRT_VLOG(MANAGER, "device {} (version {}, type {}, feature level {})", device->name(),
               device->version(), device->type(), device->featureLevel());
    devices_.push_back(std::move(device));
  }
}

std::shared_ptr<Device> DeviceManager::find(std::string_view name) const {
  for (const auto& device : devices_) {
    if (device->name() == name) return device;
  }
  return nullptr;
}

std::shared_ptr<Device> DeviceManager::find(const Device* device) const {
  for (const auto& known : devices_) {
    if (known.get() == device) return known;
  }
  return nullptr;
}

Result<std::vector<std::shared_ptr<Device>>> DeviceManager::findAll(
    const std::vector<const Device*>& devices) const {
  std::vector<std::shared_ptr<Device>> found;
  for (auto it = devices.begin(); it != devices.end(); ++it) {
    const size_t i = it - devices.begin();
    ANNRT_CHECK_CODE(ErrorCode::UNEXPECTED_NULL, *it != nullptr, "devices[{}] is null", i);
    ANNRT_CHECK(std::find(it + 1, devices.end(), *it) == devices.end(), "devices[{}] listed twice",
                i);
    found.push_back(find(*it));
  }
  for (size_t i = 0; i < found.size(); ++i) {
    ANNRT_CHECK(found[i] != nullptr, "devices[{}] is not a device of this runtime", i);
  }
  return found;
}

std::shared_ptr<CacheDirectory> DeviceManager::automaticCache() const {
  std::call_once(automaticCacheOnce_, [this] {
    const AutomaticCacheSettings settings = AutomaticCacheSettings::fromEnvironment();
    if (settings.path.empty() || settings.capacity == 0) return;
    auto directory = CacheDirectory::openAutomatic(settings);
    if (!directory.ok()) {
      logWarning("the automatic compilation cache is off: {}", directory.error().message);
      return;
    }
    automaticCache_ = std::move(directory).value();
    ANNRT_VLOG(MANAGER, "automatic compilation cache: {} (at most {} entries)",
               automaticCache_->path(), settings.capacity);
  });
  return automaticCache_;
}

}  // namespace annrt::runtime
