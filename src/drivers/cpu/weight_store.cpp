// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/weight_store.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <new>

#include "common/page_size.h"

namespace annrt::cpu {
namespace {

// Packed weights start on a cache line, so that 64-byte vector loads of
// them do not straddle two lines (malloc aligns to 16 bytes).
constexpr std::align_val_t kWeightAlignment{64};

}  // namespace

WeightBuffer packWeights(size_t floats, const std::function<void(float*)>& fill) {
  // Whole cache lines, so that the size rounds the same way as the cached
  // blobs do (cpu_cache.cpp).
  const size_t bytes = std::max<size_t>((floats * sizeof(float) + 63) / 64 * 64, 64);
  auto* raw = static_cast<float*>(::operator new[](bytes, kWeightAlignment));
  std::fill_n(reinterpret_cast<uint8_t*>(raw), bytes, uint8_t{0});
  std::shared_ptr<const float> data(
      raw, [](const float* p) { ::operator delete[](const_cast<float*>(p), kWeightAlignment); });
  fill(raw);
  return {data.get(), std::move(data)};
}

WeightStore::WeightStore(std::shared_ptr<const void> owner,
                         std::unordered_map<WeightKey, CachedEntry, WeightKeyHash> packed,
                         std::unordered_map<const uint8_t*, CachedEntry> halves)
    : cached_(true),
      owner_(std::move(owner)),
      cachedPacked_(std::move(packed)),
      cachedHalves_(std::move(halves)) {
  for (const auto& [key, entry] : cachedPacked_) {
    recorded_.push_back({key, entry.floats, std::shared_ptr<const float>(owner_, entry.data)});
  }
}

Result<WeightBuffer> WeightStore::packed(const WeightKey& key, size_t floats,
                                         const std::function<void(float*)>& fill) {
  if (!cached()) {
    WeightBuffer buffer = packWeights(floats, fill);
    recorded_.push_back({key, floats, std::shared_ptr<const float>(buffer.owner, buffer.data)});
    return buffer;
  }
  auto entry = cachedPacked_.find(key);
  ANNRT_CHECK(entry != cachedPacked_.end(),
              "annrt-cpu: the cache has no weights for stage {} operation {} buffer {}", key.stage,
              key.operation, key.slot);
  ANNRT_CHECK(entry->second.floats == floats,
              "annrt-cpu: the cache has {} floats for stage {} operation {} buffer {}, the kernel "
              "packs {}",
              entry->second.floats, key.stage, key.operation, key.slot, floats);
  return WeightBuffer{entry->second.data, owner_};
}

const float* WeightStore::convertedHalf(const uint8_t* half, size_t count) const {
  auto entry = cachedHalves_.find(half);
  if (entry == cachedHalves_.end() || entry->second.floats != count) return nullptr;
  return entry->second.data;
}

void WeightStore::releaseConvertedHalves() const {
  const uintptr_t kPage = pageSize();
  for (const auto& [half, entry] : cachedHalves_) {
    const auto begin = reinterpret_cast<uintptr_t>(entry.data);
    const uintptr_t first = (begin + kPage - 1) / kPage * kPage;
    const uintptr_t last = (begin + entry.floats * sizeof(float)) / kPage * kPage;
    // Only whole pages of this entry: its neighbours share the others.
    // PAGEOUT keeps the contents whatever backs them (the runtime maps the
    // cache file; tests and plug-ins may hand over heap memory, which
    // DONTNEED would zero); a kernel without it refuses, which is harmless.
    if (last > first) {
      // NOLINTNEXTLINE(performance-no-int-to-ptr): page arithmetic needs the address as a number.
      madvise(reinterpret_cast<void*>(first), last - first, MADV_PAGEOUT);
    }
  }
}

}  // namespace annrt::cpu
