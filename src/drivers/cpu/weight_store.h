// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The bytes a compilation of annrt-cpu computes from a model's constants:
// its own kernels' packed weights (native_kernel.h) and float16 weights
// converted to float32 (lowering_context.h). On a cold compile the store
// records the packed weights it hands out, so that a prepared model can
// write them into the compilation cache (cpu_cache.h); on a warm start it
// hands out the cached bytes instead, mapped read-only (shared by the
// processes that load one cached model), and nothing is packed or converted.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/result.h"

namespace annrt::cpu {

// One packed buffer of a native kernel: stage `stage` of the staged graph,
// operation `operation` of that stage's model, buffer `slot` of its kernel.
struct WeightKey {
  uint32_t stage = 0;
  uint32_t operation = 0;
  uint32_t slot = 0;
  bool operator==(const WeightKey&) const = default;
};

struct WeightKeyHash {
  size_t operator()(const WeightKey& key) const {
    return (size_t{key.stage} * 0x9E3779B1u ^ key.operation) * 0x85EBCA6Bu ^ key.slot;
  }
};

// Read-only floats on a 64-byte boundary; `owner` keeps `data` valid.
struct WeightBuffer {
  const float* data = nullptr;
  std::shared_ptr<const void> owner;
};

// `floats` zeroed floats on a 64-byte boundary, filled by `fill`.
WeightBuffer packWeights(size_t floats, const std::function<void(float*)>& fill);

class WeightStore {
 public:
  // Cached bytes of a packed buffer or of converted float16 weights.
  struct CachedEntry {
    const float* data = nullptr;
    size_t floats = 0;
  };

  // A store for a cold compile: it packs and records.
  WeightStore() = default;
  // A store for a warm start over cached bytes kept alive by `owner`:
  // `packed` by key, and float16 weights converted by the address of their
  // float16 data in the model (shared by every stage's submodel).
  WeightStore(std::shared_ptr<const void> owner,
              std::unordered_map<WeightKey, CachedEntry, WeightKeyHash> packed,
              std::unordered_map<const uint8_t*, CachedEntry> halves);

  bool cached() const { return cached_; }

  // The buffer of `key`, of `floats` floats: on a cold compile packed by
  // `fill` (and recorded), on a warm start the cached one, where a missing
  // key or another size is BAD_DATA (the cache does not match this
  // compile).
  Result<WeightBuffer> packed(const WeightKey& key, size_t floats,
                              const std::function<void(float*)>& fill);
  // The cached float32 values of the `count` float16 values at `half`, or
  // null (a cold compile converts them itself).
  const float* convertedHalf(const uint8_t* half, size_t count) const;
  // Warm start, once every stage is compiled: asks the kernel to reclaim the
  // pages of the converted float16 weights (XNNPACK has packed its own
  // copies; a later read brings them back), so that a warm start does not
  // hold more memory than a cold one.
  void releaseConvertedHalves() const;

  struct Recorded {
    WeightKey key;
    size_t floats = 0;
    std::shared_ptr<const float> data;
  };
  // What a cold compile packed, or the cached buffers a warm start holds
  // (so that its prepared model serializes them again).
  const std::vector<Recorded>& recorded() const { return recorded_; }

 private:
  bool cached_ = false;
  std::shared_ptr<const void> owner_;
  std::unordered_map<WeightKey, CachedEntry, WeightKeyHash> cachedPacked_;
  std::unordered_map<const uint8_t*, CachedEntry> cachedHalves_;
  std::vector<Recorded> recorded_;
};

}  // namespace annrt::cpu
