// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/compilation_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "common/log.h"
#include "runtime/cache_directory.h"
#include "runtime/cache_file.h"
#include "runtime/hash_writer.h"

namespace annrt::runtime {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// The program's name made safe for a file name: /proc/self/comm's (at most
// 15 bytes), with anything but letters, digits, '.', '-' and '_' replaced.
std::string programName() {
  std::string name = program_invocation_short_name;
  for (char& c : name) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    if (!safe) c = '_';
  }
  if (name.empty() || name == "." || name == "..") name = "unknown";
  return name;
}

std::string defaultCachePath() {
  if (std::string path = environment("ANNRT_CACHE_PATH"); !path.empty()) return path;
  // The XDG base directory specification ignores a relative XDG_CACHE_HOME.
  if (std::string xdg = environment("XDG_CACHE_HOME"); xdg.starts_with('/')) return xdg + "/annrt";
  if (std::string home = environment("HOME"); !home.empty()) return home + "/.cache/annrt";
  return "/tmp/annrt-cache." + programName();
}

// "dir/" would follow a symbolic link `dir` despite O_NOFOLLOW.
std::string withoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

Result<UniqueFd> openDirectory(const std::string& path) {
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.valid()) return fd;
  const int error = errno;
  return makeError(ErrorCode::BAD_DATA, "cache directory {}: {}", path,
                   error == ELOOP     ? "it is a symbolic link"
                   : error == ENOTDIR ? "not a directory (or a symbolic link)"
                                      : std::strerror(error));
}

// mkdir of the leaf, and of its parent when only that is missing (a fresh
// $HOME without ~/.cache).
Result<void> makeDirectory(const std::string& path) {
  if (mkdir(path.c_str(), 0700) == 0 || errno == EEXIST) return {};
  if (errno == ENOENT) {
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      const std::string parent = path.substr(0, slash);
      if ((mkdir(parent.c_str(), 0700) == 0 || errno == EEXIST) &&
          (mkdir(path.c_str(), 0700) == 0 || errno == EEXIST)) {
        return {};
      }
    }
  }
  return makeError(ErrorCode::BAD_DATA, "cannot create cache directory {}: {}", path,
                   std::strerror(errno));
}

// Another user's directory, or one others may write, could hold files
// planted for this process to load.
Result<void> checkPrivate(int fd, const std::string& path) {
  struct stat st {};
  ANNRT_CHECK(fstat(fd, &st) == 0, "cache directory {}: {}", path, std::strerror(errno));
  ANNRT_CHECK(st.st_uid == geteuid(), "cache directory {} is owned by user {}, not by user {}",
              path, st.st_uid, geteuid());
  ANNRT_CHECK((st.st_mode & (S_IWGRP | S_IWOTH)) == 0,
              "cache directory {} is writable by other users (mode {:o})", path,
              st.st_mode & 07777);
  return {};
}

}  // namespace

namespace {

// `kind` keeps the key spaces of different entries apart.
CacheKey identityKey(std::string_view kind, const PartitionCacheIdentity& identity) {
  HashWriter hash;
  hash.text(kind);
  hash.text(annrtVersion());
  hash.bytes(identity.base);
  hash.u32s(identity.operations);
  hash.text(identity.deviceName);
  hash.text(identity.deviceVersion);
  hash.text(identity.deviceSettings);
  hash.i32(identity.preference);
  hash.i32(identity.priority);
  hash.flag(identity.relaxed);
  hash.u32(identity.numThreads);
  hash.u64(identity.inputDims.size());
  for (const auto& dims : identity.inputDims) hash.u32s(dims);
  hash.text(identity.runtimeBuild);
  return hash.finish();
}

}  // namespace

CacheKey partitionCacheKey(const PartitionCacheIdentity& identity) {
  return identityKey("annrt partition cache key v1", identity);
}

CacheKey supportedOperationsCacheKey(const PartitionCacheIdentity& identity) {
  return identityKey("annrt supported operations cache key v1", identity);
}

AutomaticCacheSettings AutomaticCacheSettings::fromEnvironment() {
  AutomaticCacheSettings settings;
  if (const std::string text = environment("ANNRT_CACHE_CAPACITY"); !text.empty()) {
    uint32_t capacity = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), capacity);
    if (error == std::errc() && end == text.data() + text.size()) {
      settings.capacity = capacity;
    } else {
      logWarning("ANNRT_CACHE_CAPACITY='{}' is not a number of entries (0 to {}); using {}", text,
                 UINT32_MAX, settings.capacity);
    }
  }
  if (settings.capacity > 0) settings.path = defaultCachePath();
  return settings;
}

Result<void> CacheDirectory::store(const CacheKey& key, const std::string& deviceName,
                                   const std::string& deviceVersion,
                                   std::span<const uint8_t> payload) {
  return store(key, deviceName, deviceVersion, [payload](CacheWriter& out) -> Result<void> {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, out.write(payload), "the payload was not written");
    return {};
  });
}

Result<std::shared_ptr<CacheDirectory>> CacheDirectory::openApplication(const std::string& path) {
  const std::string clean = withoutTrailingSlashes(path);
  ANNRT_CHECK(!clean.empty(), "the cache directory is an empty path");
  ANNRT_ASSIGN_OR_RETURN(UniqueFd fd, openDirectory(clean));
  return std::shared_ptr<CacheDirectory>(
      std::make_shared<FileCacheDirectory>(std::move(fd), clean, 0));
}

Result<std::shared_ptr<CacheDirectory>> CacheDirectory::openAutomatic(
    const AutomaticCacheSettings& settings) {
  const std::string path = withoutTrailingSlashes(settings.path);
  ANNRT_CHECK(!path.empty() && settings.capacity > 0,
              "the automatic compilation cache is disabled");
  ANNRT_RETURN_IF_ERROR(makeDirectory(path));
  ANNRT_ASSIGN_OR_RETURN(UniqueFd fd, openDirectory(path));
  ANNRT_RETURN_IF_ERROR(checkPrivate(fd.get(), path));
  return std::shared_ptr<CacheDirectory>(
      std::make_shared<FileCacheDirectory>(std::move(fd), path, settings.capacity));
}

}  // namespace annrt::runtime
