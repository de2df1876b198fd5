// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the runtime works out about one finished model and may need again in
// the same process: its content hash (the automatic compilation cache's key,
// modelContentHash) and which of its operations each device supports.
// TensorFlow Lite's NNAPI delegate, and annrt-benchmark like it, asks
// ANeuralNetworksModel_getSupportedOperationsForDevices before it compiles;
// each answer is worked out once per model for both, and for every
// compilation of the model. A finished model never changes, so neither do
// the answers. Shared by the model's handle and its compilations, any of
// which may run on its own thread.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/model.h"
#include "runtime/compilation_cache.h"

namespace annrt::runtime {

class ModelFacts {
 public:
  // `model`'s content hash, hashed on the first call; every call must pass
  // the model these facts are about.
  std::array<uint8_t, kCacheTokenSize> contentHash(const Model& model);

  // Which operations of the model's main graph `device` supports, under
  // its present settings (Device::cacheSettings), as someone found out with
  // the compilation cache entry `entry` (none: without a cache); nullopt
  // until then. With another cache, or none, the answer is the same, but
  // that cache may not have its entry yet (each cache gets its own, for the
  // next process): supportedWithAnyEntry gives it for the asking.
  std::optional<std::vector<bool>> supported(const Device& device,
                                             const std::optional<CacheKey>& entry) const;
  std::optional<std::vector<bool>> supportedWithAnyEntry(const Device& device) const;
  void setSupported(const Device& device, const std::optional<CacheKey>& entry,
                    const std::vector<bool>& flags);

 private:
  struct Answer {
    const Device* device;  // devices live in the registry as long as the process
    std::string settings;
    std::optional<CacheKey> entry;
    std::vector<bool> flags;
  };
  const Answer* find(const Device& device, const std::string& settings,
                     const std::optional<CacheKey>& entry) const;

  mutable std::mutex mutex_;
  std::optional<std::array<uint8_t, kCacheTokenSize>> contentHash_;
  std::vector<Answer> supported_;
};

}  // namespace annrt::runtime
