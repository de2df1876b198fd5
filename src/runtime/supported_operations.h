// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Which operations of one model each device supports, asked of each device
// once per model. A compilation needs the answer twice (to check that every
// operation runs somewhere, then to partition), and asking annrt-cpu costs a
// conversion across the plug-in ABI and a trial lowering of every operation:
// on a warm start of a small model that was a third of the compile. With a
// compilation cache, the answer of a device that caches, or of one built
// into the runtime, is kept in the cache too (PartitionCache::loadSupported),
// so a warm start does not ask it.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "common/device.h"
#include "runtime/partition_cache.h"

namespace annrt::runtime {

class SupportedOperations {
 public:
  // `cache` (may be null) is the compilation's, `options` its settings.
  explicit SupportedOperations(const Model& model,
                               std::shared_ptr<const PartitionCache> cache = nullptr,
                               PrepareOptions options = {})
      : model_(model), cache_(std::move(cache)), options_(std::move(options)) {}

  const Model& model() const { return model_; }
  const std::shared_ptr<const PartitionCache>& cache() const { return cache_; }
  // One flag per operation of the model's main graph.
  const std::vector<bool>& of(const Device& device);
  // Per operation: whether any of `devices` supports it.
  std::vector<bool> anyOf(const std::vector<std::shared_ptr<Device>>& devices);

 private:
  std::vector<bool> ask(const Device& device) const;

  const Model& model_;
  std::shared_ptr<const PartitionCache> cache_;
  PrepareOptions options_;
  std::vector<std::pair<const Device*, std::vector<bool>>> known_;
};

}  // namespace annrt::runtime
