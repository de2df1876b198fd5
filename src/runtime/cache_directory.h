// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The CacheDirectory of compilation_cache.h on a directory file descriptor:
// every file is reached with *at() calls relative to it and O_NOFOLLOW, so
// that renaming or replacing the path after it was opened cannot redirect
// reads or writes.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/compilation_cache.h"
#include "runtime/unique_fd.h"

namespace annrt::runtime {

class FileCacheDirectory final : public CacheDirectory {
 public:
  // capacity 0: unbounded, and loads do not record their use.
  FileCacheDirectory(UniqueFd directory, std::string path, uint32_t capacity);

  std::optional<CachedBytes> load(const CacheKey& key, const std::string& deviceName,
                                  const std::string& deviceVersion) override;
  using CacheDirectory::store;
  Result<void> store(const CacheKey& key, const std::string& deviceName,
                     const std::string& deviceVersion, const PayloadWriter& payload) override;
  const std::string& path() const override { return path_; }
  std::vector<CacheEntryInfo> entries(bool verifyPayloads) override;
  Result<size_t> clear() override;

 private:
  struct Listed {
    std::string name;
    int64_t mtimeNs;
  };
  // The entries (or, with `temporaries`, the temporary files) in the
  // directory; their times only `withTimes` (a stat per file).
  std::vector<Listed> list(bool temporaries, bool withTimes = true) const;
  Result<void> writeEntry(const CacheKey& key, const std::string& deviceName,
                          const std::string& deviceVersion, const PayloadWriter& payload);
  // Counts this store in the directory's count file, evicting when the
  // count passes the capacity.
  void noteStored();
  // Removes the least recently used entries down to evictionTarget() (and
  // stale temporaries), the caller holding the directory's lock; returns the
  // entries left.
  size_t evictLocked();
  size_t evictionTarget() const { return capacity_ - capacity_ / 10; }
  void removeStaleTemporaries();
  // The directory locked against other processes' stores and evictions
  // while it lives (nothing locked where flock fails).
  class DirectoryLock {
   public:
    explicit DirectoryLock(int directory);

   private:
    UniqueFd fd_;
  };
  UniqueFd openCountFile() const;
  CacheEntryInfo describe(const Listed& file, bool verifyPayload) const;

  UniqueFd dir_;
  std::string path_;
  uint32_t capacity_;
  std::mutex countMutex_;  // this process's threads, one store's count at a time
  std::atomic<uint64_t> writes_{0};
};

}  // namespace annrt::runtime
