// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/cache_directory.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <ctime>
#include <optional>

#include "common/log.h"
#include "runtime/cache_file.h"
#include "runtime/crc32c.h"
#include "runtime/file_write.h"

namespace annrt::runtime {
namespace {

constexpr std::string_view kTemporarySuffix = ".tmp";
// The lock file of annrt before the directory itself was locked (removed by
// clear()).
constexpr const char* kLegacyLockName = ".lock";
// How many entries the directory holds, as decimal text, kept under the lock
// by every store (cache_directory.h).
constexpr const char* kCountName = ".count";
// A temporary file this old belongs to a writer that died.
constexpr int64_t kStaleTemporaryNs = int64_t{3600} * 1000000000;

int64_t nanoseconds(const timespec& t) {
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

int64_t nowNs() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

// Sets both times to the current time at full precision: the file system's
// own timestamps may be as coarse as a clock tick, which would order
// entries used in quick succession arbitrarily.
void markUsed(int fd) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const timespec times[2] = {now, now};
  futimens(fd, times);
}

// "." + entry name + "." + writer + ".tmp": hidden, and never an entry name.
bool isTemporaryName(std::string_view name) {
  const size_t entryLength = entryFileName(CacheKey{}).size();
  return name.size() > 1 + entryLength && name[0] == '.' && name.ends_with(kTemporarySuffix) &&
         keyFromFileName(name.substr(1, entryLength)).has_value();
}

std::string errnoText(int error) {
  if (error == ELOOP) return "it is a symbolic link";
  return std::strerror(error);
}

struct MappedFile {
  std::shared_ptr<const void> owner;
  std::span<const uint8_t> bytes;
};

// The whole of a regular file the user owns, mapped read-only.
Result<MappedFile> mapFile(int fd) {
  struct stat st {};
  ANNRT_CHECK(fstat(fd, &st) == 0, "fstat failed: {}", std::strerror(errno));
  ANNRT_CHECK(S_ISREG(st.st_mode), "not a regular file");
  ANNRT_CHECK(st.st_uid == geteuid(), "owned by user {}, not by this process's user {}", st.st_uid,
              geteuid());
  const auto size = static_cast<uint64_t>(st.st_size);
  ANNRT_CHECK(size >= kCacheHeaderSize, "the file has {} bytes, shorter than a header", size);
  void* address = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ANNRT_CHECK(address != MAP_FAILED, "mmap failed: {}", std::strerror(errno));
  MappedFile mapped;
  mapped.owner = std::shared_ptr<const void>(
      address, [size](const void* p) { munmap(const_cast<void*>(p), size); });
  mapped.bytes = {static_cast<const uint8_t*>(address), size};
  return mapped;
}

// The payload, once the file checks out for `key` on this device.
Result<std::span<const uint8_t>> checkEntry(std::span<const uint8_t> file, const CacheKey& key,
                                            const std::string& deviceName,
                                            const std::string& deviceVersion) {
  ANNRT_ASSIGN_OR_RETURN(const CacheHeader header, parseCacheHeader(file));
  ANNRT_CHECK(header.key == key, "the key in its header is {}, not the one its name gives",
              toHex(header.key));
  ANNRT_CHECK(header.annrtVersion == annrtVersion(), "written by annrt {}, this is annrt {}",
              header.annrtVersion, annrtVersion());
  ANNRT_CHECK(header.deviceName == deviceName && header.deviceVersion == deviceVersion,
              "written for device {} version {}, not {} version {}", header.deviceName,
              header.deviceVersion, deviceName, deviceVersion);
  return checkedPayload(file, header);
}

}  // namespace

namespace {

// kCountName's number; nullopt for a file that is absent, empty or not one
// (then the directory is counted).
std::optional<uint64_t> readCount(int fd) {
  if (fd < 0) return std::nullopt;
  char text[24] = {};
  const ssize_t length = pread(fd, text, sizeof(text) - 1, 0);
  if (length <= 0) return std::nullopt;
  uint64_t count = 0;
  const auto [end, error] = std::from_chars(text, text + length, count);
  if (error != std::errc() || end == text || (end != text + length && *end != '\n')) {
    return std::nullopt;
  }
  return count;
}

void writeCount(int fd, uint64_t count) {
  if (fd < 0) return;
  const std::string text = fmt::format("{}\n", count);
  if (pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size())) {
    if (ftruncate(fd, static_cast<off_t>(text.size())) == 0) return;
  }
  // A count half written would be read as another number: none is safer.
  if (ftruncate(fd, 0) != 0) return;
}

}  // namespace

FileCacheDirectory::FileCacheDirectory(UniqueFd directory, std::string path, uint32_t capacity)
    : dir_(std::move(directory)), path_(std::move(path)), capacity_(capacity) {}

std::optional<CachedBytes> FileCacheDirectory::load(const CacheKey& key,
                                                    const std::string& deviceName,
                                                    const std::string& deviceVersion) {
  const std::string name = entryFileName(key);
  const UniqueFd fd(openat(dir_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    // Absence is the ordinary cold miss, not worth a line.
    if (errno != ENOENT) {
      logWarning("compilation cache: cannot open {}/{}: {}", path_, name, errnoText(errno));
    }
    return std::nullopt;
  }
  auto mapped = mapFile(fd.get());
  Result<std::span<const uint8_t>> payload =
      mapped.ok() ? checkEntry(mapped->bytes, key, deviceName, deviceVersion)
                  : Result<std::span<const uint8_t>>(mapped.takeError());
  if (!payload.ok()) {
    logWarning("compilation cache: ignoring {}/{}: {}", path_, name, payload.error().message);
    return std::nullopt;
  }
  if (capacity_ > 0) markUsed(fd.get());
  return CachedBytes{std::move(mapped->owner), *payload};
}

Result<void> FileCacheDirectory::store(const CacheKey& key, const std::string& deviceName,
                                       const std::string& deviceVersion,
                                       const PayloadWriter& payload) {
  ANNRT_RETURN_IF_ERROR(writeEntry(key, deviceName, deviceVersion, payload));
  if (capacity_ > 0) noteStored();
  return {};
}

namespace {

// The payload's stream into the file, counting its bytes and checksum; the
// first failure is kept (the device sees `false` and stops).
class PayloadStream final : public CacheWriter {
 public:
  explicit PayloadStream(GuardedFileWriter& file) : file_(file) {}
  bool write(std::span<const uint8_t> bytes) override {
    if (!status_.ok()) return false;
    status_ = file_.write(bytes);
    size_ += bytes.size();
    crc_ = crc32c(crc_, bytes);
    return status_.ok();
  }
  const Result<void>& status() const { return status_; }
  uint64_t size() const { return size_; }
  uint32_t crc() const { return crc_; }

 private:
  GuardedFileWriter& file_;
  Result<void> status_;
  uint64_t size_ = 0;
  uint32_t crc_ = 0;
};

// Header (written last, once the payload's size and checksum are known),
// then the payload.
Result<void> writeHeaderAndPayload(int fd, const CacheKey& key, const std::string& deviceName,
                                   const std::string& deviceVersion, const PayloadWriter& payload) {
  GuardedFileWriter file(fd);
  const CacheHeaderBytes placeholder{};
  ANNRT_RETURN_IF_ERROR(file.write(placeholder));
  PayloadStream stream(file);
  ANNRT_RETURN_IF_ERROR(payload(stream));
  ANNRT_RETURN_IF_ERROR(stream.status());
  ANNRT_ASSIGN_OR_RETURN(
      const CacheHeaderBytes header,
      encodeCacheHeader(key, deviceName, deviceVersion, stream.size(), stream.crc()));
  return file.writeAt(0, header);
}

}  // namespace

// Writes under a name no other writer uses and renames it into place, so
// that readers see the old file or the whole new one, never a part.
Result<void> FileCacheDirectory::writeEntry(const CacheKey& key, const std::string& deviceName,
                                            const std::string& deviceVersion,
                                            const PayloadWriter& payload) {
  const std::string name = entryFileName(key);
  const std::string temporary =
      fmt::format(".{}.{}-{}{}", name, getpid(), writes_++, kTemporarySuffix);
  const UniqueFd fd(openat(dir_.get(), temporary.c_str(),
                           O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fd.valid(), "compilation cache: cannot create {}/{}: {}",
                   path_, temporary, errnoText(errno));
  Result<void> written = writeHeaderAndPayload(fd.get(), key, deviceName, deviceVersion, payload);
  if (written.ok()) {
    markUsed(fd.get());
    if (renameat(dir_.get(), temporary.c_str(), dir_.get(), name.c_str()) == 0) return {};
    written = makeError(ErrorCode::OP_FAILED, "rename failed: {}", std::strerror(errno));
  }
  unlinkat(dir_.get(), temporary.c_str(), 0);
  return makeError(ErrorCode::OP_FAILED, "compilation cache: cannot write {}/{}: {}", path_, name,
                   written.error().message);
}

std::vector<FileCacheDirectory::Listed> FileCacheDirectory::list(bool temporaries,
                                                                 bool withTimes) const {
  std::vector<Listed> files;
  // fdopendir takes its descriptor's offset: give it its own.
  const int fd = openat(dir_.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* dir = fd >= 0 ? fdopendir(fd) : nullptr;
  if (dir == nullptr) {
    if (fd >= 0) close(fd);
    return files;
  }
  while (const dirent* entry = readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (temporaries ? !isTemporaryName(name) : !keyFromFileName(name)) continue;
    if (!withTimes) {
      files.push_back({std::string(name), 0});
      continue;
    }
    struct stat st {};
    // Another process may remove it meanwhile: then it is simply not listed.
    if (fstatat(dir_.get(), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    files.push_back({std::string(name), nanoseconds(st.st_mtim)});
  }
  closedir(dir);
  return files;
}

// Listing a directory of thousands of entries costs milliseconds, which
// every process's first compilation paid (docs/caching.md): the count is
// kept in kCountName instead, read and rewritten under the lock at every
// store, and the directory is listed
// only to evict, or to count it once where the file is absent or unreadable
// (a directory an older annrt filled). The count can only run high (an entry
// replaced under the same key, files removed by hand), and eviction lists
// and sets it to what is there, so it corrects itself.
void FileCacheDirectory::noteStored() {
  std::lock_guard<std::mutex> guard(countMutex_);  // flock does not tell threads apart
  const DirectoryLock lock(dir_.get());
  const UniqueFd countFile = openCountFile();
  const std::optional<uint64_t> counted = readCount(countFile.get());
  uint64_t entries = 0;
  if (counted) {
    entries = *counted + 1;
  } else {
    entries = list(false, false).size();
    removeStaleTemporaries();  // a listing anyway; also done at every eviction
  }
  if (entries > capacity_) entries = evictLocked();
  writeCount(countFile.get(), entries);
}

// The directory itself is locked, through a descriptor of its own (flock
// locks an open file description: a process's children share its
// descriptors but not this one), so that no lock file has to be created
// (a file creation costs more than the rest of a store). Unlocked by
// closing it.
FileCacheDirectory::DirectoryLock::DirectoryLock(int directory)
    : fd_(openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_.valid()) flock(fd_.get(), LOCK_EX);
}

UniqueFd FileCacheDirectory::openCountFile() const {
  return UniqueFd(openat(dir_.get(), kCountName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
}

// Removes the least recently used entries down to the eviction target, and
// what dead writers left. The caller holds the lock, so that two processes do
// not both remove the oldest entries for one excess; removal tolerates files
// that vanish under it.
size_t FileCacheDirectory::evictLocked() {
  std::vector<Listed> files = list(false);
  size_t left = files.size();
  if (files.size() > capacity_) {
    const size_t excess = files.size() - evictionTarget();
    std::partial_sort(files.begin(), files.begin() + static_cast<std::ptrdiff_t>(excess),
                      files.end(), [](const Listed& a, const Listed& b) {
                        return a.mtimeNs != b.mtimeNs ? a.mtimeNs < b.mtimeNs : a.name < b.name;
                      });
    for (size_t i = 0; i < excess; ++i) unlinkat(dir_.get(), files[i].name.c_str(), 0);
    left -= excess;
  }
  removeStaleTemporaries();
  return left;
}

// What writers that died left (older than any write takes).
void FileCacheDirectory::removeStaleTemporaries() {
  const int64_t staleBefore = nowNs() - kStaleTemporaryNs;
  for (const Listed& file : list(true)) {
    if (file.mtimeNs < staleBefore) unlinkat(dir_.get(), file.name.c_str(), 0);
  }
}

CacheEntryInfo FileCacheDirectory::describe(const Listed& file, bool verifyPayload) const {
  CacheEntryInfo info;
  info.fileName = file.name;
  // list() gives only names that hold a key.
  if (const std::optional<CacheKey> key = keyFromFileName(file.name)) info.key = *key;
  info.lastUsed = std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::nanoseconds(file.mtimeNs)));
  const UniqueFd fd(openat(dir_.get(), file.name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    info.problem = "cannot open: " + errnoText(errno);
    return info;
  }
  auto mapped = mapFile(fd.get());
  if (!mapped.ok()) {
    info.problem = mapped.error().message;
    return info;
  }
  info.fileSize = mapped->bytes.size();
  auto header = parseCacheHeader(mapped->bytes);
  if (!header.ok()) {
    info.problem = header.error().message;
    return info;
  }
  info.annrtVersion = header->annrtVersion;
  info.deviceName = header->deviceName;
  info.deviceVersion = header->deviceVersion;
  info.payloadSize = header->payloadSize;
  if (verifyPayload) {
    auto payload = checkEntry(mapped->bytes, info.key, header->deviceName, header->deviceVersion);
    if (!payload.ok()) info.problem = payload.error().message;
  }
  return info;
}

std::vector<CacheEntryInfo> FileCacheDirectory::entries(bool verifyPayloads) {
  std::vector<Listed> files = list(false);
  std::sort(files.begin(), files.end(),
            [](const Listed& a, const Listed& b) { return a.name < b.name; });
  std::vector<CacheEntryInfo> infos;
  infos.reserve(files.size());
  for (const Listed& file : files) infos.push_back(describe(file, verifyPayloads));
  return infos;
}

Result<size_t> FileCacheDirectory::clear() {
  size_t removed = 0;
  for (const bool temporaries : {false, true}) {
    for (const Listed& file : list(temporaries)) {
      if (unlinkat(dir_.get(), file.name.c_str(), 0) == 0) {
        ++removed;
      } else if (errno != ENOENT) {
        return makeError(ErrorCode::OP_FAILED, "cannot remove {}/{}: {}", path_, file.name,
                         std::strerror(errno));
      }
    }
  }
  // And the count, which the next store makes again from a listing of what
  // is there (a store running meanwhile may write one that is a few high,
  // which the next eviction corrects).
  for (const char* name : {kCountName, kLegacyLockName}) unlinkat(dir_.get(), name, 0);
  return removed;
}

}  // namespace annrt::runtime
