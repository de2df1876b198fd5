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
  void evict();
  CacheEntryInfo describe(const Listed& file, bool verifyPayload) const;

  UniqueFd dir_;
  std::string path_;
  uint32_t capacity_;
  std::atomic<uint64_t> writes_{0};
};

}  // namespace annrt::runtime
