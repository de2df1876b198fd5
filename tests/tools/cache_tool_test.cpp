// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cache on a directory holding good, damaged and foreign files made
// through the runtime's cache API.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cache_commands.h"
#include "common/scoped_environment.h"
#include "common/temp_path.h"
#include "runtime/cache_file.h"

namespace annrt::tools {
namespace {

using runtime::CacheKey;

CacheKey key(uint8_t n) {
  CacheKey k;
  k.fill(n);
  return k;
}

struct ToolRun {
  int status;
  std::string out, err;
};

ToolRun run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int status = runCacheTool(args, out, err);
  return {status, out.str(), err.str()};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class CacheToolTest : public ::testing::Test {
 protected:
  // Entries 1 (good), 2 (good, another device), 3 (payload damaged), 4
  // (truncated inside its header) and a file that is not the cache's.
  void SetUp() override {
    ASSERT_EQ(mkdir(dir_.str().c_str(), 0700), 0);
    auto cache = runtime::CacheDirectory::openApplication(dir_.str());
    ASSERT_TRUE(cache.ok());
    const std::vector<uint8_t> payload(1000, 0x5a);
    for (uint8_t n : {1, 3, 4}) ASSERT_TRUE((*cache)->store(key(n), "dev-a", "1.0", payload).ok());
    ASSERT_TRUE((*cache)->store(key(2), "dev-b", "2.0", payload).ok());
    std::fstream damaged(path(3), std::ios::in | std::ios::out | std::ios::binary);
    damaged.seekp(700);
    damaged.put('x');
    damaged.close();
    std::filesystem::resize_file(path(4), 100);
    std::ofstream(dir_.str() + "/notes.txt") << "mine";
  }
  std::string path(uint8_t n) const { return dir_.str() + "/" + runtime::entryFileName(key(n)); }

  test::TempPath dir_{"cache_tool"};
};

TEST_F(CacheToolTest, ListShowsEveryEntryAndItsHeader) {
  const ToolRun listed = run({"--path", dir_.str(), "list"});
  EXPECT_EQ(listed.status, 0) << listed.err;
  EXPECT_EQ(std::count(listed.out.begin(), listed.out.end(), '\n'), 5) << listed.out;
  EXPECT_TRUE(contains(listed.out, runtime::toHex(key(1)) + "  dev-a")) << listed.out;
  EXPECT_TRUE(contains(listed.out, runtime::toHex(key(2)) + "  dev-b")) << listed.out;
  EXPECT_TRUE(contains(listed.out, std::string(runtime::annrtVersion())));
  EXPECT_TRUE(contains(listed.out, std::to_string(runtime::kCacheHeaderSize + 1000)));
  EXPECT_TRUE(contains(listed.out, "BAD: the file has 100 bytes, shorter than a header"))
      << listed.out;
  EXPECT_FALSE(contains(listed.out, "notes"));
}

TEST_F(CacheToolTest, VerifyNamesTheBadEntries) {
  const ToolRun verified = run({"--path=" + dir_.str(), "verify"});
  EXPECT_EQ(verified.status, 1);
  EXPECT_TRUE(contains(verified.err, "BAD " + path(3) + ": the payload checksum")) << verified.err;
  EXPECT_TRUE(contains(verified.err, "BAD " + path(4) + ": ")) << verified.err;
  EXPECT_FALSE(contains(verified.err, runtime::toHex(key(1))));
  EXPECT_FALSE(contains(verified.err, runtime::toHex(key(2))));
  EXPECT_EQ(verified.out, dir_.str() + ": 4 entries, 2 bad\n");
}

TEST_F(CacheToolTest, ClearRemovesEntriesOnly) {
  const ToolRun cleared = run({"--path", dir_.str(), "clear"});
  EXPECT_EQ(cleared.status, 0) << cleared.err;
  EXPECT_EQ(cleared.out, dir_.str() + ": removed 4 files\n");
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.str())) {
    left.push_back(entry.path().filename());
  }
  EXPECT_EQ(left, std::vector<std::string>{"notes.txt"});
  const ToolRun verified = run({"--path", dir_.str(), "verify"});
  EXPECT_EQ(verified.status, 0);
  EXPECT_EQ(verified.out, dir_.str() + ": 0 entries, 0 bad\n");
}

TEST_F(CacheToolTest, DefaultsToTheAutomaticCache) {
  test::ScopedEnvironment env;
  env.set("ANNRT_CACHE_CAPACITY", nullptr);
  env.set("ANNRT_CACHE_PATH", dir_.str().c_str());
  const ToolRun listed = run({"list"});
  EXPECT_EQ(listed.status, 0);
  EXPECT_TRUE(contains(listed.out, runtime::toHex(key(2))));
}

TEST_F(CacheToolTest, BadUsageAndMissingDirectory) {
  EXPECT_EQ(run({}).status, 2);
  EXPECT_TRUE(contains(run({"--path", dir_.str(), "purge"}).err, "unknown command 'purge'"));
  EXPECT_EQ(run({"list", "extra"}).status, 2);
  EXPECT_EQ(run({"--help"}).status, 0);
  const ToolRun missing = run({"--path", dir_.str() + "/none", "list"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_TRUE(contains(missing.err, "No such file")) << missing.err;
}

TEST_F(CacheToolTest, TheProgramExitsWithTheCommandsStatus) {
  const std::string command = std::string(ANNRT_CACHE_TOOL) + " --path " + dir_.str();
  const int verified = std::system((command + " verify >/dev/null 2>&1").c_str());
  EXPECT_TRUE(WIFEXITED(verified) && WEXITSTATUS(verified) == 1);
  const int cleared = std::system((command + " clear >/dev/null").c_str());
  EXPECT_TRUE(WIFEXITED(cleared) && WEXITSTATUS(cleared) == 0);
  EXPECT_FALSE(std::filesystem::exists(path(1)));
}

TEST(CacheToolFormatTest, AgesInTheLargestFittingUnit) {
  using std::chrono::seconds;
  EXPECT_EQ(formatAge(seconds(5)), "5s");
  EXPECT_EQ(formatAge(seconds(-3)), "0s");  // a clock set back
  EXPECT_EQ(formatAge(seconds(180)), "3m");
  EXPECT_EQ(formatAge(seconds(3 * 3600 + 5)), "3h");
  EXPECT_EQ(formatAge(seconds(50 * 3600)), "2d");
}

}  // namespace
}  // namespace annrt::tools
