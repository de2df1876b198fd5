// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The compilation cache's directories and files: round trips, damaged,
// foreign and hostile files (each a miss with one log line, never a crash),
// unwritable and full file systems, several processes at once, LRU
// eviction, and the automatic cache's settings.
#include "runtime/compilation_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>

#include "common/scoped_environment.h"
#include "common/temp_path.h"
#include "runtime/cache_file.h"

namespace annrt::runtime {
namespace {

namespace fs = std::filesystem;
using test::ScopedEnvironment;
using test::TempPath;

const std::string kDevice = "annrt-cpu";
const std::string kVersion = "1.2";

CacheKey makeKey(uint8_t n) {
  CacheKey key;
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(size_t{n} * 31 + i);
  return key;
}

std::vector<uint8_t> payloadBytes(size_t size, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> bytes(size);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
  return bytes;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void writeFile(const std::string& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

std::vector<std::string> fileNames(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// Runs `body` in a child process; true if it exited with status 0 (a signal
// that ended it, SIGXFSZ for one, is a failure).
bool inChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status)) << "the child ended by signal "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

class CacheDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(mkdir(dir_.str().c_str(), 0700), 0); }

  std::shared_ptr<CacheDirectory> open() {
    auto cache = CacheDirectory::openApplication(dir_.str());
    EXPECT_TRUE(cache.ok()) << cache.error().message;
    return cache.ok() ? *cache : nullptr;
  }
  std::string entryPath(const CacheKey& key) const { return dir_.str() + "/" + entryFileName(key); }

  // Loads `key`, expecting a miss logged in exactly one line that names the
  // entry's file and contains `reason`.
  void expectLoggedMiss(CacheDirectory& cache, const CacheKey& key, const std::string& reason,
                        const std::string& context = "") {
    ::testing::internal::CaptureStderr();
    const auto loaded = cache.load(key, kDevice, kVersion);
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(loaded.has_value()) << context;
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << context << ": " << log;
    EXPECT_NE(log.find(entryFileName(key)), std::string::npos) << context << ": " << log;
    EXPECT_NE(log.find(reason), std::string::npos) << context << ": " << log;
  }

  TempPath dir_{"compilation_cache"};
};

TEST_F(CacheDirectoryTest, RoundTripGivesTheBytesAlignedFromAPrivateFile) {
  auto cache = open();
  const auto payload = payloadBytes(100000, 1);
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, payload).ok());
  const auto loaded = cache->load(makeKey(1), kDevice, kVersion);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_TRUE(
      std::equal(payload.begin(), payload.end(), loaded->bytes.begin(), loaded->bytes.end()));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(loaded->bytes.data()) % 64, 0u);
  EXPECT_EQ(fileNames(dir_.str()), std::vector<std::string>{entryFileName(makeKey(1))});
  struct stat st {};
  ASSERT_EQ(stat(entryPath(makeKey(1)).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(static_cast<size_t>(st.st_size), kCacheHeaderSize + payload.size());
  // A second store replaces the entry; the first mapping stays valid.
  const auto second = payloadBytes(10, 2);
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, second).ok());
  EXPECT_TRUE(std::equal(payload.begin(), payload.end(), loaded->bytes.begin()));
  const auto reloaded = cache->load(makeKey(1), kDevice, kVersion);
  ASSERT_TRUE(reloaded.has_value());
  EXPECT_TRUE(
      std::equal(second.begin(), second.end(), reloaded->bytes.begin(), reloaded->bytes.end()));
  // An empty payload is an entry too.
  ASSERT_TRUE(cache->store(makeKey(2), kDevice, kVersion, std::span<const uint8_t>()).ok());
  const auto empty = cache->load(makeKey(2), kDevice, kVersion);
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->bytes.empty());
}

TEST_F(CacheDirectoryTest, AbsentEntryIsASilentMiss) {
  auto cache = open();
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(cache->load(makeKey(1), kDevice, kVersion).has_value());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST_F(CacheDirectoryTest, EveryFlippedByteIsAMiss) {
  auto cache = open();
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, payloadBytes(3000, 3)).ok());
  const std::vector<uint8_t> original = readFile(entryPath(makeKey(1)));
  std::mt19937 random(4);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint8_t> damaged = original;
    // Half the trials in the header, where every field matters.
    const size_t at = trial % 2 == 0 ? random() % kCacheHeaderSize : random() % damaged.size();
    damaged[at] ^= static_cast<uint8_t>(1 + random() % 255);
    writeFile(entryPath(makeKey(1)), damaged);
    expectLoggedMiss(*cache, makeKey(1), "", "byte " + std::to_string(at));
  }
  writeFile(entryPath(makeKey(1)), original);
  EXPECT_TRUE(cache->load(makeKey(1), kDevice, kVersion).has_value());
}

TEST_F(CacheDirectoryTest, TruncatedFilesAreMisses) {
  auto cache = open();
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, payloadBytes(5000, 5)).ok());
  const std::vector<uint8_t> original = readFile(entryPath(makeKey(1)));
  std::vector<size_t> lengths = {0, 1, 7, 8, 12, 63, 64, 128, 255, 256, 257, original.size() - 1};
  for (size_t length = 300; length < original.size(); length += 397) lengths.push_back(length);
  for (size_t length : lengths) {
    writeFile(entryPath(makeKey(1)), std::span(original).first(length));
    expectLoggedMiss(*cache, makeKey(1), length < kCacheHeaderSize ? "shorter than a header" : "",
                     "length " + std::to_string(length));
  }
  // Bytes appended after the payload are damage too.
  std::vector<uint8_t> longer = original;
  longer.push_back(0);
  writeFile(entryPath(makeKey(1)), longer);
  expectLoggedMiss(*cache, makeKey(1), "payload");
}

TEST_F(CacheDirectoryTest, AnotherDevicesEntryIsAMiss) {
  auto cache = open();
  ASSERT_TRUE(cache->store(makeKey(1), "other-device", kVersion, payloadBytes(10, 6)).ok());
  expectLoggedMiss(*cache, makeKey(1), "written for device other-device version 1.2");
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, "1.3", payloadBytes(10, 6)).ok());
  expectLoggedMiss(*cache, makeKey(1), "version 1.3, not annrt-cpu version 1.2");
}

// Rewrites a header field of `path` and seals the header's checksum again,
// as a file another annrt wrote would be.
void rewriteHeader(const std::string& path, size_t at, std::span<const uint8_t> bytes) {
  std::vector<uint8_t> file = readFile(path);
  std::copy(bytes.begin(), bytes.end(), file.begin() + static_cast<ptrdiff_t>(at));
  std::fill_n(file.begin() + 12, 4, 0);
  const uint32_t checksum = cacheHeaderChecksum(std::span(file).first<kCacheHeaderSize>());
  for (int i = 0; i < 4; ++i) file[12 + i] = static_cast<uint8_t>(checksum >> (8 * i));
  writeFile(path, file);
}

TEST_F(CacheDirectoryTest, OtherFormatOrAnnrtVersionIsAMiss) {
  auto cache = open();
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, payloadBytes(10, 7)).ok());
  const std::vector<uint8_t> original = readFile(entryPath(makeKey(1)));
  const uint8_t olderFormat[4] = {0, 0, 0, 0};
  rewriteHeader(entryPath(makeKey(1)), 8, olderFormat);
  expectLoggedMiss(*cache, makeKey(1), "format version 0, this annrt reads version 1");
  writeFile(entryPath(makeKey(1)), original);
  const uint8_t otherAnnrt[32] = {'9', '.', '9'};  // the whole field, NUL-padded
  rewriteHeader(entryPath(makeKey(1)), 64, otherAnnrt);
  expectLoggedMiss(*cache, makeKey(1), "written by annrt 9.9,");
  // The sealing itself is right: the original bytes sealed again still load.
  writeFile(entryPath(makeKey(1)), original);
  rewriteHeader(entryPath(makeKey(1)), 8, std::span(original).subspan(8, 4));
  EXPECT_TRUE(cache->load(makeKey(1), kDevice, kVersion).has_value());
}

TEST_F(CacheDirectoryTest, KeyInTheHeaderMustMatchTheFileName) {
  auto cache = open();
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, payloadBytes(10, 8)).ok());
  fs::rename(entryPath(makeKey(1)), entryPath(makeKey(2)));
  expectLoggedMiss(*cache, makeKey(2), "the key in its header is " + toHex(makeKey(1)));
}

TEST_F(CacheDirectoryTest, SymbolicLinkOrDirectoryAsEntryIsAMiss) {
  auto cache = open();
  TempPath elsewhere("compilation_cache_elsewhere");
  ASSERT_EQ(mkdir(elsewhere.str().c_str(), 0700), 0);
  auto other = CacheDirectory::openApplication(elsewhere.str());
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE((*other)->store(makeKey(1), kDevice, kVersion, payloadBytes(10, 9)).ok());
  fs::create_symlink(elsewhere.str() + "/" + entryFileName(makeKey(1)), entryPath(makeKey(1)));
  expectLoggedMiss(*cache, makeKey(1), "symbolic link");
  fs::create_directory(entryPath(makeKey(2)));
  expectLoggedMiss(*cache, makeKey(2), "not a regular file");
}

TEST_F(CacheDirectoryTest, NamesTooLongForTheHeaderAreAStoreError) {
  auto cache = open();
  const auto stored =
      cache->store(makeKey(1), std::string(64, 'd'), kVersion, std::span<const uint8_t>());
  ASSERT_FALSE(stored.ok());
  EXPECT_NE(stored.error().message.find("device name"), std::string::npos);
  EXPECT_TRUE(fileNames(dir_.str()).empty());
}

TEST_F(CacheDirectoryTest, ReadOnlyDirectoryIsAStoreError) {
  // Root writes through a mode of 0500, so as root the child drops to an
  // unprivileged user who owns the directory, for whom 0500 holds.
  const bool root = geteuid() == 0;
  if (root) {
    ASSERT_EQ(chown(dir_.str().c_str(), 65534, 65534), 0);
  }
  ASSERT_EQ(chmod(dir_.str().c_str(), 0500), 0);
  EXPECT_TRUE(inChild([&] {
    if (root && (setgid(65534) != 0 || setuid(65534) != 0)) return 10;
    auto cache = CacheDirectory::openApplication(dir_.str());
    if (!cache.ok()) return 11;
    const auto stored = (*cache)->store(makeKey(1), kDevice, kVersion, payloadBytes(10, 10));
    if (stored.ok() || stored.error().message.find("Permission denied") == std::string::npos) {
      return 12;
    }
    return 0;
  }));
  chmod(dir_.str().c_str(), 0700);
  EXPECT_TRUE(fileNames(dir_.str()).empty());
}

TEST_F(CacheDirectoryTest, FullFileSystemIsAStoreErrorAndLeavesNoFile) {
  auto cache = open();
  EXPECT_TRUE(inChild([&] {
    const rlimit limit{8192, 8192};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 10;
    const auto stored = (*cache).store(makeKey(1), kDevice, kVersion, payloadBytes(100000, 11));
    if (stored.ok() || stored.error().message.find("File too large") == std::string::npos) {
      return 11;
    }
    if (!fileNames(dir_.str()).empty()) return 12;
    // The signal's disposition and this thread's mask are as they were.
    struct sigaction action {};
    sigaction(SIGXFSZ, nullptr, &action);
    sigset_t mask;
    pthread_sigmask(SIG_SETMASK, nullptr, &mask);
    if (action.sa_handler != SIG_DFL || sigismember(&mask, SIGXFSZ)) return 13;
    // What fits under the limit is still written.
    if (!cache->store(makeKey(2), kDevice, kVersion, payloadBytes(1000, 12)).ok()) return 14;
    return cache->load(makeKey(2), kDevice, kVersion).has_value() ? 0 : 15;
  }));
}

TEST_F(CacheDirectoryTest, OpenApplicationNeedsARealDirectory) {
  const auto missing = CacheDirectory::openApplication(dir_.str() + "/missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("No such file"), std::string::npos);
  const std::string link = dir_.str() + "/link";
  const std::string target = dir_.str() + "/target";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
  fs::create_directory_symlink(target, link);
  for (const std::string& path : {link, link + "/", link + "//"}) {
    const auto linked = CacheDirectory::openApplication(path);
    ASSERT_FALSE(linked.ok()) << path;
    EXPECT_NE(linked.error().message.find("symbolic link"), std::string::npos) << path;
  }
  writeFile(dir_.str() + "/file", {});
  EXPECT_FALSE(CacheDirectory::openApplication(dir_.str() + "/file").ok());
  EXPECT_TRUE(CacheDirectory::openApplication(target + "/").ok());
}

TEST_F(CacheDirectoryTest, OpenAutomaticCreatesAPrivateDirectory) {
  // The leaf and a missing parent (a fresh $HOME/.cache) are created.
  const std::string path = dir_.str() + "/dot-cache/annrt";
  const auto cache = CacheDirectory::openAutomatic({path, 10});
  ASSERT_TRUE(cache.ok()) << cache.error().message;
  EXPECT_EQ((*cache)->path(), path);
  struct stat st {};
  ASSERT_EQ(lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0077, 0u);
  // Not more than that.
  EXPECT_FALSE(CacheDirectory::openAutomatic({dir_.str() + "/a/b/c", 10}).ok());
  EXPECT_FALSE(CacheDirectory::openAutomatic({path, 0}).ok());
  EXPECT_FALSE(CacheDirectory::openAutomatic({"", 10}).ok());
}

TEST_F(CacheDirectoryTest, OpenAutomaticRefusesUnsafeDirectories) {
  const std::string target = dir_.str() + "/target";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
  fs::create_directory_symlink(target, dir_.str() + "/link");
  const auto linked = CacheDirectory::openAutomatic({dir_.str() + "/link", 10});
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.error().message.find("symbolic link"), std::string::npos);
  ASSERT_EQ(chmod(target.c_str(), 0777), 0);
  const auto open = CacheDirectory::openAutomatic({target, 10});
  ASSERT_FALSE(open.ok());
  EXPECT_NE(open.error().message.find("writable by other users (mode 777)"), std::string::npos);
  ASSERT_EQ(chmod(target.c_str(), 0700), 0);
  EXPECT_TRUE(CacheDirectory::openAutomatic({target, 10}).ok());
  if (geteuid() != 0) GTEST_SKIP() << "another user's directory needs root to make";
  ASSERT_EQ(chown(target.c_str(), 65534, 65534), 0);
  const auto foreign = CacheDirectory::openAutomatic({target, 10});
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.error().message.find("owned by user 65534"), std::string::npos);
}

TEST_F(CacheDirectoryTest, LeastRecentlyUsedEntriesAreEvicted) {
  auto opened = CacheDirectory::openAutomatic({dir_.str(), 3});
  ASSERT_TRUE(opened.ok());
  CacheDirectory& cache = **opened;
  for (uint8_t n = 1; n <= 3; ++n)
    ASSERT_TRUE(cache.store(makeKey(n), kDevice, kVersion, std::span<const uint8_t>()).ok());
  ASSERT_TRUE(cache.load(makeKey(1), kDevice, kVersion).has_value());
  for (uint8_t n = 4; n <= 5; ++n)
    ASSERT_TRUE(cache.store(makeKey(n), kDevice, kVersion, std::span<const uint8_t>()).ok());
  std::vector<std::string> expected = {entryFileName(makeKey(1)), entryFileName(makeKey(4)),
                                       entryFileName(makeKey(5))};
  std::sort(expected.begin(), expected.end());
  std::vector<std::string> entries;
  for (const CacheEntryInfo& info : cache.entries(false)) entries.push_back(info.fileName);
  EXPECT_EQ(entries, expected);
}

TEST_F(CacheDirectoryTest, EvictionRemovesTemporaryFilesOfDeadWriters) {
  const std::string stale = dir_.str() + "/." + entryFileName(makeKey(8)) + ".1-0.tmp";
  const std::string fresh = dir_.str() + "/." + entryFileName(makeKey(9)) + ".1-1.tmp";
  writeFile(stale, payloadBytes(10, 17));
  writeFile(fresh, payloadBytes(10, 18));
  timespec twoHoursAgo{};
  clock_gettime(CLOCK_REALTIME, &twoHoursAgo);
  twoHoursAgo.tv_sec -= 7200;
  const timespec times[2] = {twoHoursAgo, twoHoursAgo};
  ASSERT_EQ(utimensat(AT_FDCWD, stale.c_str(), times, 0), 0);
  auto cache = CacheDirectory::openAutomatic({dir_.str(), 10});
  ASSERT_TRUE(cache.ok());
  ASSERT_TRUE((*cache)->store(makeKey(1), kDevice, kVersion, std::span<const uint8_t>()).ok());
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // its writer may still be writing
}

// The directory's entry count is kept in its .count file by every store
// (listing thousands of entries took milliseconds per process): stores of
// two processes (two handles) add to one count, eviction sets it to what it
// left, and a count that does not read as one is made again from a listing.
TEST_F(CacheDirectoryTest, StoresKeepTheDirectorysCountWithoutListingIt) {
  const std::string countPath = dir_.str() + "/.count";
  auto readCount = [&] {
    const std::vector<uint8_t> bytes = readFile(countPath);
    return std::string(bytes.begin(), bytes.end());
  };
  auto first = CacheDirectory::openAutomatic({dir_.str(), 10});
  auto second = CacheDirectory::openAutomatic({dir_.str(), 10});
  ASSERT_TRUE(first.ok() && second.ok());
  for (uint8_t n = 1; n <= 3; ++n) {
    ASSERT_TRUE((*first)->store(makeKey(n), kDevice, kVersion, payloadBytes(10, n)).ok());
  }
  ASSERT_TRUE((*second)->store(makeKey(4), kDevice, kVersion, payloadBytes(10, 4)).ok());
  EXPECT_EQ(readCount(), "4\n");
  // Files the count does not know of are not listed at a store: 20 more
  // entries than the capacity stay until the count itself passes it.
  for (uint8_t n = 100; n < 120; ++n) writeFile(entryPath(makeKey(n)), payloadBytes(10, n));
  ASSERT_TRUE((*first)->store(makeKey(5), kDevice, kVersion, payloadBytes(10, 5)).ok());
  EXPECT_EQ(readCount(), "5\n");
  EXPECT_EQ((*first)->entries(false).size(), 25u);
  for (uint8_t n = 6; n <= 11; ++n) {
    ASSERT_TRUE((*second)->store(makeKey(n), kDevice, kVersion, payloadBytes(10, n)).ok());
  }
  EXPECT_EQ((*first)->entries(false).size(), 9u) << "evicted down to 90% of the capacity";
  EXPECT_EQ(readCount(), "9\n");
  writeFile(countPath, std::vector<uint8_t>{'x', '7'});
  ASSERT_TRUE((*first)->store(makeKey(12), kDevice, kVersion, payloadBytes(10, 12)).ok());
  EXPECT_EQ(readCount(), "10\n") << "counted from a listing";
}

TEST_F(CacheDirectoryTest, ApplicationDirectoryIsNeverEvicted) {
  auto cache = open();
  for (uint8_t n = 1; n <= 20; ++n)
    ASSERT_TRUE(cache->store(makeKey(n), kDevice, kVersion, std::span<const uint8_t>()).ok());
  EXPECT_EQ(cache->entries(false).size(), 20u);
}

TEST_F(CacheDirectoryTest, EntriesDescribeAndClearRemovesOnlyTheCachesFiles) {
  auto cache = open();
  ASSERT_TRUE(cache->store(makeKey(1), kDevice, kVersion, payloadBytes(100, 13)).ok());
  ASSERT_TRUE(cache->store(makeKey(2), "other", "7", payloadBytes(50, 14)).ok());
  std::vector<uint8_t> damaged = readFile(entryPath(makeKey(2)));
  damaged.back() ^= 1;
  writeFile(entryPath(makeKey(2)), damaged);
  writeFile(dir_.str() + "/notes.txt", payloadBytes(5, 15));
  writeFile(dir_.str() + "/." + entryFileName(makeKey(3)) + ".99-0.tmp", payloadBytes(5, 16));
  const auto listed = cache->entries(false);
  ASSERT_EQ(listed.size(), 2u);
  const CacheEntryInfo& first = listed[0].key == makeKey(1) ? listed[0] : listed[1];
  const CacheEntryInfo& second = listed[0].key == makeKey(1) ? listed[1] : listed[0];
  EXPECT_EQ(first.deviceName, kDevice);
  EXPECT_EQ(first.deviceVersion, kVersion);
  EXPECT_EQ(first.annrtVersion, annrtVersion());
  EXPECT_EQ(first.payloadSize, 100u);
  EXPECT_EQ(first.fileSize, kCacheHeaderSize + 100);
  EXPECT_EQ(first.problem, "");
  EXPECT_EQ(second.problem, "");  // without verification, the header is fine
  const auto verified = cache->entries(true);
  ASSERT_EQ(verified.size(), 2u);
  for (const CacheEntryInfo& info : verified) {
    EXPECT_EQ(info.problem.find("payload checksum") != std::string::npos, info.key == makeKey(2))
        << info.fileName << ": " << info.problem;
  }
  const auto removed = cache->clear();
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 3u);
  EXPECT_EQ(fileNames(dir_.str()), std::vector<std::string>{"notes.txt"});
}

// Payloads that say what they should hold: writer, round and length, then
// bytes derived from them, so a reader can tell a whole payload from a
// mixture of two.
std::vector<uint8_t> selfDescribingPayload(uint32_t writer, uint32_t round) {
  const uint32_t seed = writer * 1000 + round;
  std::vector<uint8_t> bytes = payloadBytes(1000 + (seed * 7919) % 60000, seed);
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<uint8_t>(seed >> (8 * i));
  return bytes;
}

bool wholePayload(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4) return false;
  uint32_t seed = 0;
  for (int i = 0; i < 4; ++i) seed |= uint32_t{bytes[i]} << (8 * i);
  const std::vector<uint8_t> expected = selfDescribingPayload(seed / 1000, seed % 1000);
  return std::equal(bytes.begin(), bytes.end(), expected.begin(), expected.end());
}

// Four processes store and load shared and own keys 200 times each; every
// load that hits has a whole payload, and no process logs a thing (a torn
// file would be a logged checksum miss). With `capacity`, eviction runs
// under them too and a load may find its entry gone.
void hammer(const std::string& dir, uint32_t capacity) {
  std::vector<pid_t> children;
  for (uint32_t writer = 1; writer <= 4; ++writer) {
    const pid_t pid = fork();
    if (pid == 0) {
      const int log = open((dir + ".log" + std::to_string(writer)).c_str(),
                           O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      dup2(log, STDERR_FILENO);
      auto cache = capacity > 0 ? CacheDirectory::openAutomatic({dir, capacity})
                                : CacheDirectory::openApplication(dir);
      if (!cache.ok()) _exit(10);
      for (uint32_t round = 0; round < 200; ++round) {
        const CacheKey key =
            makeKey(static_cast<uint8_t>(round % 2 == 0 ? round % 3 : 10 + writer));
        if (!(*cache)->store(key, kDevice, kVersion, selfDescribingPayload(writer, round)).ok()) {
          _exit(11);
        }
        const auto loaded = (*cache)->load(key, kDevice, kVersion);
        if (loaded ? !wholePayload(loaded->bytes) : capacity == 0) _exit(12);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  for (uint32_t writer = 1; writer <= 4; ++writer) {
    const std::string log = dir + ".log" + std::to_string(writer);
    const std::vector<uint8_t> text = readFile(log);
    EXPECT_TRUE(text.empty()) << std::string(text.begin(), text.end());
    fs::remove(log);
  }
}

TEST_F(CacheDirectoryTest, ProcessesSharingADirectoryNeverSeeTornFiles) {
  hammer(dir_.str(), 0);
  EXPECT_EQ(fileNames(dir_.str()).size(), 7u);  // 3 shared keys, one own key per writer
}

TEST_F(CacheDirectoryTest, ProcessesSharingAnEvictedDirectoryNeverSeeTornFiles) {
  hammer(dir_.str(), 3);
  EXPECT_LE(open()->entries(false).size(), 3u);
}

TEST(AutomaticCacheSettingsTest, PathFollowsTheEnvironmentInOrder) {
  ScopedEnvironment env;
  env.set("ANNRT_CACHE_CAPACITY", nullptr);
  env.set("ANNRT_CACHE_PATH", "/some/cache");
  env.set("XDG_CACHE_HOME", "/xdg");
  env.set("HOME", "/home/user");
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path, "/some/cache");
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().capacity, 10000u);
  env.set("ANNRT_CACHE_PATH", "");
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path, "/xdg/annrt");
  env.set("XDG_CACHE_HOME", "relative");  // ignored, as the XDG specification says
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path, "/home/user/.cache/annrt");
  env.set("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path, "/home/user/.cache/annrt");
  env.set("HOME", nullptr);
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path,
            std::string("/tmp/annrt-cache.") + program_invocation_short_name);
}

TEST(AutomaticCacheSettingsTest, CapacityFromTheEnvironment) {
  ScopedEnvironment env;
  env.set("ANNRT_CACHE_PATH", "/some/cache");
  env.set("ANNRT_CACHE_CAPACITY", "5");
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().capacity, 5u);
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path, "/some/cache");
  env.set("ANNRT_CACHE_CAPACITY", "0");
  EXPECT_EQ(AutomaticCacheSettings::fromEnvironment().path, "");
  for (const char* bad : {"many", "-1", "5x", "99999999999"}) {
    env.set("ANNRT_CACHE_CAPACITY", bad);
    ::testing::internal::CaptureStderr();
    const auto settings = AutomaticCacheSettings::fromEnvironment();
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(settings.capacity, 10000u) << bad;
    EXPECT_EQ(settings.path, "/some/cache") << bad;
    EXPECT_NE(log.find(std::string("ANNRT_CACHE_CAPACITY='") + bad + "'"), std::string::npos)
        << log;
  }
}

}  // namespace
}  // namespace annrt::runtime
