// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Where a compilation keeps its prepared partitions: the application's
// directory and token (ANeuralNetworksCompilation_setCaching) when given,
// else the automatic cache (compilation_cache.h) keyed by the model's
// contents. Each partition has its own entry (partitionCacheKey): a device
// that caches (Device::supportsCaching) is first asked to rebuild its
// prepared model from the entry, and on a miss prepares it from the model
// and the result is stored. A device that caches, and one built into the
// runtime, also gets an entry holding which operations of the whole model it
// supports, so that a warm start need not ask it (SupportedOperations).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "common/device.h"
#include "runtime/compilation_cache.h"
#include "runtime/model_facts.h"

namespace annrt::runtime {

class PartitionCache {
 public:
  // Null when nothing is cached: neither setCaching nor an automatic cache,
  // or no device of `devices` caches. `facts` (may be null) are `model`'s:
  // they keep its content hash (the automatic cache's base) once hashed.
  static std::shared_ptr<const PartitionCache> forCompilation(
      const Model& model, const PrepareOptions& options,
      const std::vector<std::shared_ptr<Device>>& devices, ModelFacts* facts = nullptr);

  // `submodel`'s prepared model on `device`: from the cache when its entry
  // checks out, else prepared and stored (a failed store is logged, not an
  // error). `operations` are the partition's main-model operation indexes.
  Result<std::shared_ptr<PreparedModel>> prepare(Device& device,
                                                 std::shared_ptr<const Model> submodel,
                                                 const std::vector<uint32_t>& operations,
                                                 const PrepareOptions& options) const;

  // The key of the entry saying which operations of `model` (a
  // compilation's whole model) `device` supports. It leaves out the
  // compilation's settings, which do not change the answer, so that
  // ANeuralNetworksModel_getSupportedOperationsForDevices and compilations
  // of any settings share the entry.
  CacheKey supportedKey(const Device& device, const Model& model) const;
  // That entry (`key`, from supportedKey) as an earlier process stored it,
  // for a model of `operationCount` operations; nullopt when there is no
  // such entry or it does not check out (logged).
  std::optional<std::vector<bool>> loadSupported(const Device& device, const CacheKey& key,
                                                 size_t operationCount) const;
  // Stores it (a failed store is logged).
  void storeSupported(const Device& device, const CacheKey& key,
                      const std::vector<bool>& flags) const;

 private:
  PartitionCache(std::shared_ptr<CacheDirectory> directory,
                 std::array<uint8_t, kCacheTokenSize> base, bool relaxed)
      : directory_(std::move(directory)), base_(base), relaxed_(relaxed) {}

  PartitionCacheIdentity identityFor(const Device& device, const Model& submodel,
                                     const std::vector<uint32_t>& operations,
                                     const PrepareOptions& options) const;
  CacheKey keyFor(const Device& device, const Model& submodel,
                  const std::vector<uint32_t>& operations, const PrepareOptions& options) const;
  std::optional<std::shared_ptr<PreparedModel>> load(Device& device,
                                                     const std::shared_ptr<const Model>& submodel,
                                                     const CacheKey& key,
                                                     const PrepareOptions& options) const;
  void store(const Device& device, const PreparedModel& prepared, const CacheKey& key) const;

  std::shared_ptr<CacheDirectory> directory_;
  std::array<uint8_t, kCacheTokenSize> base_;
  bool relaxed_;
};

}  // namespace annrt::runtime
