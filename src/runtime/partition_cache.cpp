// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/partition_cache.h"

#include <algorithm>

#include "common/log.h"
#include "runtime/build_id.h"
#include "runtime/device_manager.h"
#include "runtime/supported_operations_entry.h"
#include "runtime/trace.h"

namespace annrt::runtime {
namespace {

bool anyCaches(const std::vector<std::shared_ptr<Device>>& devices) {
  return std::any_of(devices.begin(), devices.end(),
                     [](const auto& device) { return device && device->supportsCaching(); });
}

// The application's directory, opened for this compilation; a directory that
// cannot be used means no caching, as AOSP compiles on when its cache files
// cannot be created.
std::shared_ptr<CacheDirectory> applicationDirectory(const std::string& path) {
  auto directory = CacheDirectory::openApplication(path);
  if (directory.ok()) return std::move(directory).value();
  logWarning("compilation cache: {}; compiling without it", directory.error().message);
  return nullptr;
}

}  // namespace

std::shared_ptr<const PartitionCache> PartitionCache::forCompilation(
    const Model& model, const PrepareOptions& options,
    const std::vector<std::shared_ptr<Device>>& devices, ModelFacts* facts) {
  if (!anyCaches(devices)) return nullptr;
  const bool relaxed = model.relaxComputationFloat32toFloat16;
  if (!options.cacheDir.empty()) {
    auto directory = applicationDirectory(options.cacheDir);
    if (!directory) return nullptr;
    return std::shared_ptr<const PartitionCache>(
        new PartitionCache(std::move(directory), options.token, relaxed));
  }
  auto automatic = DeviceManager::get().automaticCache();
  if (!automatic) return nullptr;
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::COMPILATION, "hash model for the cache");
  return std::shared_ptr<const PartitionCache>(new PartitionCache(
      std::move(automatic), facts != nullptr ? facts->contentHash(model) : modelContentHash(model),
      relaxed));
}

PartitionCacheIdentity PartitionCache::identityFor(const Device& device, const Model& submodel,
                                                   const std::vector<uint32_t>& operations,
                                                   const PrepareOptions& options) const {
  PartitionCacheIdentity identity;
  identity.base = base_;
  identity.operations = operations;
  identity.deviceName = device.name();
  identity.deviceVersion = device.version();
  identity.deviceSettings = device.cacheSettings();
  identity.preference = options.preference;
  identity.priority = options.priority;
  identity.relaxed = relaxed_;
  identity.numThreads = options.numThreads;
  identity.runtimeBuild = runtimeBuildId();
  // A compilation specialized for its inputs' dims (or a token reused for
  // another input size) must not find the entry of other dims.
  for (uint32_t input : submodel.main.inputIndexes) {
    identity.inputDims.push_back(submodel.main.operands[input].shape.dims);
  }
  return identity;
}

CacheKey PartitionCache::keyFor(const Device& device, const Model& submodel,
                                const std::vector<uint32_t>& operations,
                                const PrepareOptions& options) const {
  return partitionCacheKey(identityFor(device, submodel, operations, options));
}

CacheKey PartitionCache::supportedKey(const Device& device, const Model& model) const {
  return supportedOperationsCacheKey(identityFor(device, model, {}, {}));
}

std::optional<std::vector<bool>> PartitionCache::loadSupported(const Device& device,
                                                               const CacheKey& key,
                                                               size_t operationCount) const {
  std::optional<CachedBytes> cached = directory_->load(key, device.name(), device.version());
  if (!cached) return std::nullopt;
  auto flags = decodeSupportedOperations(cached->bytes, operationCount);
  if (!flags.ok()) {
    logWarning(
        "compilation cache: entry {} in {} is not {}'s supported operations of this "
        "model ({}); asking the device",
        toHex(key), directory_->path(), device.name(), flags.error().message);
    return std::nullopt;
  }
  return std::move(flags).value();
}

void PartitionCache::storeSupported(const Device& device, const CacheKey& key,
                                    const std::vector<bool>& flags) const {
  const std::vector<uint8_t> payload = encodeSupportedOperations(flags);
  auto written =
      directory_->store(key, device.name(), device.version(), std::span<const uint8_t>(payload));
  if (!written.ok()) {
    logWarning("compilation cache: not storing {}'s supported operations {} in {}: {}",
               device.name(), toHex(key), directory_->path(), written.error().message);
  }
}

std::optional<std::shared_ptr<PreparedModel>> PartitionCache::load(
    Device& device, const std::shared_ptr<const Model>& submodel, const CacheKey& key,
    const PrepareOptions& options) const {
  TraceSpan span(TraceLayer::DRIVER, TracePhase::COMPILATION, "prepareModelFromCache");
  std::optional<CachedBytes> cached = directory_->load(key, device.name(), device.version());
  if (!cached) return std::nullopt;
  auto prepared = device.prepareModelFromCache(submodel, *cached, options);
  if (!prepared.ok()) {
    logWarning("compilation cache: {} could not use entry {} in {} ({}); compiling the model",
               device.name(), toHex(key), directory_->path(), prepared.error().message);
    return std::nullopt;
  }
  ANNRT_VLOG(COMPILATION, "compilation cache: {} prepared from entry {}", device.name(),
             toHex(key));
  return std::move(prepared).value();
}

void PartitionCache::store(const Device& device, const PreparedModel& prepared,
                           const CacheKey& key) const {
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::COMPILATION, "store in the cache");
  auto written =
      directory_->store(key, device.name(), device.version(),
                        [&prepared](CacheWriter& out) { return prepared.serialize(out); });
  if (!written.ok()) {
    logWarning("compilation cache: not storing {}'s entry {} in {}: {}", device.name(), toHex(key),
               directory_->path(), written.error().message);
  }
}

Result<std::shared_ptr<PreparedModel>> PartitionCache::prepare(
    Device& device, std::shared_ptr<const Model> submodel, const std::vector<uint32_t>& operations,
    const PrepareOptions& options) const {
  if (!device.supportsCaching()) return device.prepareModel(std::move(submodel), options);
  Telemetry& telemetry = DeviceManager::get().telemetry();
  const CacheKey key = keyFor(device, *submodel, operations, options);
  if (auto cached = load(device, submodel, key, options)) {
    telemetry.countCache(device.name(), true);
    return std::move(*cached);
  }
  telemetry.countCache(device.name(), false);
  ANNRT_ASSIGN_OR_RETURN(std::shared_ptr<PreparedModel> prepared,
                         device.prepareModel(std::move(submodel), options));
  store(device, *prepared, key);
  return prepared;
}

}  // namespace annrt::runtime
