// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Which operations of one model each device supports, asked of each device
// once per model. A compilation needs the answer twice (to check that every
// operation runs somewhere, then to partition), and asking annrt-cpu costs a
// conversion across the plug-in ABI and a trial lowering of every operation:
// on a warm start of a small model that was a third of the compile. With a
// compilation cache, the answer of a device that caches, or of one built
// into the runtime, is kept in the cache too (PartitionCache::supportedKey),
// so a warm start does not ask it. The model's ModelFacts keep the answers
// for the rest of the process: for ANeuralNetworksModel_getSupportedOperationsForDevices
// and every compilation of the model.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "common/device.h"
#include "runtime/model_facts.h"
#include "runtime/partition_cache.h"

namespace annrt::runtime {

class SupportedOperations {
 public:
  // `cache` (may be null) is the compilation's; `facts` (may be null) are
  // those of `model` (not of another model, such as a specialization).
  explicit SupportedOperations(const Model& model,
                               std::shared_ptr<const PartitionCache> cache = nullptr,
                               std::shared_ptr<ModelFacts> facts = nullptr)
      : model_(model), cache_(std::move(cache)), facts_(std::move(facts)) {}

  const Model& model() const { return model_; }
  const std::shared_ptr<const PartitionCache>& cache() const { return cache_; }
  // One flag per operation of the model's main graph.
  const std::vector<bool>& of(const Device& device);
  // Per operation: whether any of `devices` supports it.
  std::vector<bool> anyOf(const std::vector<std::shared_ptr<Device>>& devices);

 private:
  // Whether the compilation cache keeps `device`'s answers.
  bool cached(const Device& device) const;
  // From the compilation cache's `entry` (none: no cache) when it has them,
  // else from the model's facts or the device (and stored in the entry).
  std::vector<bool> fromCacheOrDevice(const Device& device,
                                      const std::optional<CacheKey>& entry) const;
  std::vector<bool> ask(const Device& device) const;

  const Model& model_;
  std::shared_ptr<const PartitionCache> cache_;
  std::shared_ptr<ModelFacts> facts_;
  std::vector<std::pair<const Device*, std::vector<bool>>> known_;
};

}  // namespace annrt::runtime
