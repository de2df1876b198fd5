// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/supported_operations.h"

#include <algorithm>
#include <optional>

#include "runtime/trace.h"

namespace annrt::runtime {

const std::vector<bool>& SupportedOperations::of(const Device& device) {
  auto it = std::find_if(known_.begin(), known_.end(),
                         [&](const auto& entry) { return entry.first == &device; });
  if (it != known_.end()) return it->second;
  std::optional<CacheKey> entry;
  if (cached(device)) entry = cache_->supportedKey(device, model_);
  std::optional<std::vector<bool>> flags;
  if (facts_) flags = facts_->supported(device, entry);
  if (!flags) {
    flags = fromCacheOrDevice(device, entry);
    if (facts_) facts_->setSupported(device, entry, *flags);
  }
  known_.emplace_back(&device, std::move(*flags));
  return known_.back().second;
}

bool SupportedOperations::cached(const Device& device) const {
  return cache_ != nullptr && (device.supportsCaching() || device.isBuiltIn());
}

std::vector<bool> SupportedOperations::fromCacheOrDevice(
    const Device& device, const std::optional<CacheKey>& entry) const {
  if (entry) {
    TraceSpan span(TraceLayer::RUNTIME, TracePhase::COMPILATION, "cached supported operations");
    std::optional<std::vector<bool>> flags =
        cache_->loadSupported(device, *entry, model_.main.operations.size());
    if (flags) return std::move(*flags);
  }
  std::optional<std::vector<bool>> flags;
  if (facts_) flags = facts_->supportedWithAnyEntry(device);
  if (!flags) {
    TraceSpan span(TraceLayer::RUNTIME, TracePhase::COMPILATION, "supported operations");
    flags = ask(device);
  }
  if (entry) cache_->storeSupported(device, *entry, *flags);
  return std::move(*flags);
}

std::vector<bool> SupportedOperations::ask(const Device& device) const {
  std::vector<bool> flags = device.supportedOperations(model_);
  // A device answering for fewer operations supports none of the rest.
  flags.resize(model_.main.operations.size(), false);
  return flags;
}

std::vector<bool> SupportedOperations::anyOf(const std::vector<std::shared_ptr<Device>>& devices) {
  std::vector<bool> any(model_.main.operations.size(), false);
  for (const auto& device : devices) {
    const std::vector<bool>& supported = of(*device);
    for (size_t i = 0; i < any.size(); ++i) any[i] = any[i] || supported[i];
  }
  return any;
}

}  // namespace annrt::runtime
