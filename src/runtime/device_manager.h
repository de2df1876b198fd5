// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The process-wide device registry: in-tree devices first, then plug-ins.
// It is the only global mutable state of the runtime, built once on first use.
#pragma once

#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "common/device.h"
#include "runtime/compilation_cache.h"
#include "runtime/telemetry.h"

namespace annrt::runtime {

class DeviceManager {
 public:
  static const DeviceManager& get();

  const std::vector<std::shared_ptr<Device>>& devices() const { return devices_; }
  std::shared_ptr<Device> find(std::string_view name) const;
  // The registered device at `device` (an ANeuralNetworksDevice handle), or null.
  std::shared_ptr<Device> find(const Device* device) const;
  // The registered devices of a device list as createForDevices takes it:
  // UNEXPECTED_NULL for a null entry, BAD_DATA for one listed twice or not
  // registered (checked after the nulls and repeats, as AOSP does).
  Result<std::vector<std::shared_ptr<Device>>> findAll(
      const std::vector<const Device*>& devices) const;
  // The device of last resort, which supports every operation.
  std::shared_ptr<Device> reference() const { return reference_; }
  // Counters and profiles; thread-safe.
  Telemetry& telemetry() const { return telemetry_; }
  // The automatic compilation cache (ANNRT_CACHE_PATH, ANNRT_CACHE_CAPACITY),
  // opened on first use; null when disabled or unusable (logged once).
  std::shared_ptr<CacheDirectory> automaticCache() const;

 private:
  DeviceManager();

  std::vector<std::shared_ptr<Device>> devices_;
  std::shared_ptr<Device> reference_;
  mutable Telemetry telemetry_;
  mutable std::once_flag automaticCacheOnce_;
  mutable std::shared_ptr<CacheDirectory> automaticCache_;
};

}  // namespace annrt::runtime
