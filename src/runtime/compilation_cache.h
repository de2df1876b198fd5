// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The runtime's compilation cache: one file per prepared partition, owned by
// the runtime (drivers only give and take bytes, Device::serialize and
// Device::prepareModelFromCache). Two kinds of directory: the application's
// (ANeuralNetworksCompilation_setCaching, keyed by its token) and the
// automatic cache (ANNRT_CACHE_PATH, ANNRT_CACHE_CAPACITY; keyed by the
// model's contents), as Synaptics' SyNAP runtime keeps one.
//
// A file is a header (magic, format version, annrt version, device name and
// version, payload size, checksum) and the payload at a 64-byte aligned
// offset. Files are created with mode 0600 and O_NOFOLLOW under a temporary
// name and renamed into place, so readers never see half a file. Anything
// that does not check out (truncated, flipped bytes, another device's or an
// older format's file, a symlink) is a miss with one log line; the
// compilation then goes on from the model.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/model.h"
#include "common/result.h"

namespace annrt::runtime {

// Names one cache entry: 32 bytes, shown as 64 hex digits in file names.
using CacheKey = std::array<uint8_t, 32>;

std::string toHex(const CacheKey& key);

// What, besides the model, decides what a device prepares: everything in
// the key of a partition's entry.
struct PartitionCacheIdentity {
  // The application's token (setCaching), or the model's content hash for
  // the automatic cache.
  std::array<uint8_t, kCacheTokenSize> base{};
  // The partition's place in the plan: the main-model indexes of its
  // operations (two plans of one model may cut it differently).
  std::vector<uint32_t> operations;
  std::string deviceName, deviceVersion;
  // Device::cacheSettings.
  std::string deviceSettings;
  int32_t preference = 0, priority = 0;
  bool relaxed = false;
  uint32_t numThreads = 0;
  // The input dims a specialized compilation was made for (empty: as the
  // model declares).
  std::vector<std::vector<uint32_t>> inputDims;
  // The runtime's build (build_id.h): in-tree devices change with it.
  std::string runtimeBuild;
};

// The key of one partition's entry: a hash of every field and annrt's
// version, so that no two partitions, devices or settings share a file.
CacheKey partitionCacheKey(const PartitionCacheIdentity& identity);

// The key of the entry holding which operations of a whole model a device
// supports (SupportedOperations): the same fields (`operations` empty), in a
// key space of its own.
CacheKey supportedOperationsCacheKey(const PartitionCacheIdentity& identity);

// A hash of everything a model computes with: operands (types, dims,
// quantization, lifetimes, constant values), operations, subgraphs, inputs
// and outputs, the relaxed flag and extensions. The automatic cache's base.
std::array<uint8_t, kCacheTokenSize> modelContentHash(const Model& model);

// How the automatic cache is set up, from the environment.
struct AutomaticCacheSettings {
  std::string path;  // "": disabled
  uint32_t capacity = 10000;
  // ANNRT_CACHE_PATH, else $XDG_CACHE_HOME/annrt, else $HOME/.cache/annrt,
  // else /tmp/annrt-cache.<program>; ANNRT_CACHE_CAPACITY (entries; 0
  // disables the cache; a malformed value is logged and the default used).
  static AutomaticCacheSettings fromEnvironment();
};

// One entry of a cache directory as annrt-cache shows it: its file and what
// its header says.
struct CacheEntryInfo {
  std::string fileName;
  CacheKey key{};  // from the file name
  uint64_t fileSize = 0;
  std::chrono::system_clock::time_point lastUsed;  // the file's mtime
  std::string annrtVersion, deviceName, deviceVersion;
  uint64_t payloadSize = 0;
  // Why no device would load the entry ("": nothing found wrong).
  std::string problem;
};

// Writes one entry's payload (a device's PreparedModel::serialize).
using PayloadWriter = std::function<Result<void>(CacheWriter& out)>;

// One cache directory. Thread-safe, and safe with other processes using the
// same directory at once.
class CacheDirectory {
 public:
  // The application's directory (setCaching): it must exist; nothing is
  // created above it and nothing is evicted (capacity 0: unbounded).
  static Result<std::shared_ptr<CacheDirectory>> openApplication(const std::string& path);
  // The automatic cache: created (mode 0700) if missing; at most `capacity`
  // entries, the least recently used evicted first.
  static Result<std::shared_ptr<CacheDirectory>> openAutomatic(
      const AutomaticCacheSettings& settings);

  virtual ~CacheDirectory() = default;
  // The payload of entry `key` if it is there and checks out for this
  // device; nullopt otherwise (logging why, unless the entry is absent).
  virtual std::optional<CachedBytes> load(const CacheKey& key, const std::string& deviceName,
                                          const std::string& deviceVersion) = 0;
  // Writes the entry (replacing an older one atomically), evicting beyond
  // the capacity. Errors (a read-only directory, a full disk) are returned
  // for the caller to log; the cache is never left with a partial file.
  // `payload` writes the entry's payload (streamed into the file).
  virtual Result<void> store(const CacheKey& key, const std::string& deviceName,
                             const std::string& deviceVersion, const PayloadWriter& payload) = 0;
  // The same with the payload in memory.
  Result<void> store(const CacheKey& key, const std::string& deviceName,
                     const std::string& deviceVersion, std::span<const uint8_t> payload);
  virtual const std::string& path() const = 0;
  // Every file named as an entry (others are not the cache's), sorted by
  // name, with its header checked; `verifyPayloads` also checks every
  // payload's checksum and that the header's key matches the file name.
  virtual std::vector<CacheEntryInfo> entries(bool verifyPayloads) = 0;
  // Removes every entry and temporary file of the cache, leaving other
  // files; returns how many it removed.
  virtual Result<size_t> clear() = 0;
};

}  // namespace annrt::runtime
