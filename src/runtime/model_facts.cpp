// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/model_facts.h"

#include <algorithm>

namespace annrt::runtime {

std::array<uint8_t, kCacheTokenSize> ModelFacts::contentHash(const Model& model) {
  std::lock_guard lock(mutex_);
  if (!contentHash_) contentHash_ = modelContentHash(model);
  return *contentHash_;
}

const ModelFacts::Answer* ModelFacts::find(const Device& device, const std::string& settings,
                                           const std::optional<CacheKey>& entry) const {
  auto it = std::find_if(supported_.begin(), supported_.end(), [&](const Answer& answer) {
    return answer.device == &device && answer.settings == settings && answer.entry == entry;
  });
  return it == supported_.end() ? nullptr : &*it;
}

std::optional<std::vector<bool>> ModelFacts::supported(const Device& device,
                                                       const std::optional<CacheKey>& entry) const {
  const std::string settings = device.cacheSettings();
  std::lock_guard lock(mutex_);
  const Answer* answer = find(device, settings, entry);
  if (answer == nullptr) return std::nullopt;
  return answer->flags;
}

std::optional<std::vector<bool>> ModelFacts::supportedWithAnyEntry(const Device& device) const {
  const std::string settings = device.cacheSettings();
  std::lock_guard lock(mutex_);
  auto it = std::find_if(supported_.begin(), supported_.end(), [&](const Answer& answer) {
    return answer.device == &device && answer.settings == settings;
  });
  if (it == supported_.end()) return std::nullopt;
  return it->flags;
}

void ModelFacts::setSupported(const Device& device, const std::optional<CacheKey>& entry,
                              const std::vector<bool>& flags) {
  std::string settings = device.cacheSettings();
  std::lock_guard lock(mutex_);
  if (find(device, settings, entry) == nullptr) {
    supported_.push_back({&device, std::move(settings), entry, flags});
  }
}

}  // namespace annrt::runtime
