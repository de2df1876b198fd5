// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The compilation cache's entry of a device's supported operations: a warm
// compilation takes the flags from it instead of asking the device, and an
// entry that does not check out (corrupt, another model's, a bad payload)
// is a miss with one log line after which the device is asked.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/temp_path.h"
#include "counting_device.h"
#include "internal_model.h"
#include "runtime/supported_operations.h"
#include "runtime/supported_operations_entry.h"

namespace annrt::runtime {
namespace {

namespace fs = std::filesystem;
using test::CountingDevice;

// input [2] -> FLOOR x `operations` -> output.
std::shared_ptr<const Model> floorChain(size_t operations) {
  test::InternalModel m;
  const uint32_t input = m.tensor({2});
  uint32_t value = input;
  for (size_t i = 0; i < operations; ++i) {
    const uint32_t next = m.tensor({2});
    m.operation(ANEURALNETWORKS_FLOOR, {value}, {next});
    value = next;
  }
  return m.finish({input}, {value});
}

std::vector<bool> expectedFlags(size_t operations) {
  std::vector<bool> flags(operations, true);
  flags[1] = false;
  return flags;
}

class SupportedOperationsCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mkdir(dir_.str().c_str(), 0700), 0);
    options_.cacheDir = dir_.str();
    options_.token.fill(7);
  }

  // What a compilation of `model` for device_ and `other` learns of
  // `asked` (one of them), through the cache.
  std::vector<bool> compile(const Model& model, const std::shared_ptr<CountingDevice>& other,
                            const CountingDevice& asked) {
    auto cache = PartitionCache::forCompilation(model, options_, {device_, other});
    EXPECT_NE(cache, nullptr);
    SupportedOperations supported(model, cache);
    return supported.of(asked);
  }
  std::vector<bool> compile(const Model& model) { return compile(model, device_, *device_); }

  std::vector<fs::path> entries() const {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir_.str())) files.push_back(entry.path());
    return files;
  }

  const test::TempPath dir_{"supported_operations_cache"};
  PrepareOptions options_;
  std::shared_ptr<CountingDevice> device_ =
      std::make_shared<CountingDevice>("caching-plug-in", true, false);
};

TEST_F(SupportedOperationsCacheTest, AWarmCompilationDoesNotAskTheDevice) {
  const auto model = floorChain(4);
  EXPECT_EQ(compile(*model), expectedFlags(4));
  EXPECT_EQ(device_->asked, 1);
  EXPECT_EQ(entries().size(), 1u);
  EXPECT_EQ(compile(*model), expectedFlags(4));
  EXPECT_EQ(device_->asked, 1);
}

// Answers given under other settings of the device (annrt-cpu's instruction
// set or ANNRT_CPU_NATIVE_KERNELS) are other entries.
TEST_F(SupportedOperationsCacheTest, OtherDeviceSettingsAreOtherEntries) {
  const auto model = floorChain(4);
  compile(*model);
  device_->settings = "native kernels 0";
  EXPECT_EQ(compile(*model), expectedFlags(4));
  EXPECT_EQ(device_->asked, 2);
  EXPECT_EQ(entries().size(), 2u);
  device_->settings.clear();
  compile(*model);
  EXPECT_EQ(device_->asked, 2) << "the first settings' entry was not found again";
}

// A built-in device's answers change only with the runtime's build (in the
// key); a plug-in's that caches nothing are not the cache's to keep.
TEST_F(SupportedOperationsCacheTest, BuiltInDevicesAreKeptPlugInsThatCacheNothingAreNot) {
  const auto model = floorChain(4);
  const auto builtIn = std::make_shared<CountingDevice>("built-in", false, true);
  const auto plugIn = std::make_shared<CountingDevice>("plain-plug-in", false, false);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(compile(*model, builtIn, *builtIn), expectedFlags(4));
    EXPECT_EQ(compile(*model, plugIn, *plugIn), expectedFlags(4));
  }
  EXPECT_EQ(builtIn->asked, 1);
  EXPECT_EQ(plugIn->asked, 2);
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(SupportedOperationsCacheTest, OneCompilationAsksEachDeviceOnce) {
  const auto model = floorChain(3);
  SupportedOperations supported(*model);
  EXPECT_EQ(supported.of(*device_), expectedFlags(3));
  EXPECT_EQ(supported.anyOf({device_}), expectedFlags(3));
  EXPECT_EQ(device_->asked, 1);
}

// The answer does not depend on how a compilation is set up, so compilations
// of other settings (and ANeuralNetworksModel_getSupportedOperationsForDevices,
// which has none) find the same entry.
TEST_F(SupportedOperationsCacheTest, CompilationsOfOtherSettingsShareTheEntry) {
  const auto model = floorChain(4);
  compile(*model);
  options_.numThreads = 2;
  options_.preference = ANEURALNETWORKS_PREFER_SUSTAINED_SPEED;
  options_.priority = ANEURALNETWORKS_PRIORITY_HIGH;
  EXPECT_EQ(compile(*model), expectedFlags(4));
  EXPECT_EQ(device_->asked, 1);
  EXPECT_EQ(entries().size(), 1u);
}

// The model's facts keep each device's answer for every later question about
// the model in the process: the device is asked once. A cache the answer was
// not found with gets its entry all the same (for the next process), and
// once it has it, it is not read again. Another model's facts are its own.
TEST_F(SupportedOperationsCacheTest, TheModelsFactsAnswerEveryLaterQuestion) {
  const auto model = floorChain(4);
  const auto facts = std::make_shared<ModelFacts>();
  EXPECT_EQ(SupportedOperations(*model, nullptr, facts).of(*device_), expectedFlags(4));
  EXPECT_EQ(SupportedOperations(*model, nullptr, facts).anyOf({device_}), expectedFlags(4));
  auto cache = PartitionCache::forCompilation(*model, options_, {device_}, facts.get());
  EXPECT_EQ(SupportedOperations(*model, cache, facts).of(*device_), expectedFlags(4));
  EXPECT_EQ(device_->asked, 1);
  ASSERT_EQ(entries().size(), 1u) << "the cache did not get its entry";
  fs::remove(entries()[0]);
  EXPECT_EQ(SupportedOperations(*model, cache, facts).of(*device_), expectedFlags(4));
  EXPECT_TRUE(entries().empty()) << "an answer the facts had with this cache was stored again";
  // Other settings of the device may answer otherwise.
  device_->settings = "native kernels 0";
  EXPECT_EQ(SupportedOperations(*model, nullptr, facts).of(*device_), expectedFlags(4));
  EXPECT_EQ(device_->asked, 2);
  const auto other = floorChain(3);
  EXPECT_EQ(SupportedOperations(*other, nullptr, std::make_shared<ModelFacts>()).of(*device_),
            expectedFlags(3));
  EXPECT_EQ(device_->asked, 3);
}

TEST(ModelFactsTest, TheContentHashIsTheModels) {
  const auto model = floorChain(4);
  ModelFacts facts;
  EXPECT_EQ(facts.contentHash(*model), modelContentHash(*model));
  EXPECT_EQ(facts.contentHash(*model), modelContentHash(*model));
  EXPECT_NE(ModelFacts().contentHash(*floorChain(3)), modelContentHash(*model));
}

TEST_F(SupportedOperationsCacheTest, ACorruptEntryIsAMissWithALogLineAndIsRewritten) {
  const auto model = floorChain(4);
  compile(*model);
  ASSERT_EQ(entries().size(), 1u);
  const fs::path file = entries()[0];
  std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
  io.seekg(-1, std::ios::end);
  const char last = static_cast<char>(io.get());
  io.seekp(-1, std::ios::end);
  io.put(static_cast<char>(last ^ 0x01));
  io.close();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(compile(*model), expectedFlags(4));
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
  EXPECT_EQ(device_->asked, 2);
  EXPECT_EQ(compile(*model), expectedFlags(4));
  EXPECT_EQ(device_->asked, 2) << "the entry was not rewritten";
}

// A token reused for another model with the same inputs finds the first
// model's entry: its operation count gives it away.
TEST_F(SupportedOperationsCacheTest, AnotherModelsEntryIsAMissWithALogLine) {
  compile(*floorChain(3));
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(compile(*floorChain(5)), expectedFlags(5));
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
  EXPECT_NE(log.find("3 operations, but the model has 5"), std::string::npos) << log;
  EXPECT_EQ(device_->asked, 2);
}

TEST(SupportedOperationsEntryTest, RoundTrips) {
  const std::vector<bool> flags = {true, false, false, true, true};
  auto decoded = decodeSupportedOperations(encodeSupportedOperations(flags), flags.size());
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(*decoded, flags);
  auto empty = decodeSupportedOperations(encodeSupportedOperations({}), 0);
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_TRUE(empty->empty());
}

TEST(SupportedOperationsEntryTest, EveryMalformedPayloadIsRefused) {
  const std::vector<uint8_t> good = encodeSupportedOperations({true, false, true});
  ASSERT_TRUE(decodeSupportedOperations(good, 3).ok());
  struct Case {
    const char* what;
    std::vector<uint8_t> payload;
    std::string reason;
  };
  std::vector<Case> cases;
  for (size_t size = 0; size < good.size(); ++size) {
    cases.push_back({"truncated", {good.begin(), good.begin() + static_cast<long>(size)}, ""});
  }
  std::vector<uint8_t> longer = good;
  longer.push_back(1);
  cases.push_back({"a byte too many", longer, "4 flag bytes for 3 operations"});
  std::vector<uint8_t> version = good;
  version[0] = 2;
  cases.push_back({"another format version", version, "format version 2"});
  std::vector<uint8_t> count = good;
  count[4] = 4;
  cases.push_back({"another operation count", count, "4 operations, but the model has 3"});
  std::vector<uint8_t> flag = good;
  flag.back() = 2;
  cases.push_back({"a flag neither 0 nor 1", flag, "operation 2's flag is 2"});
  for (const Case& c : cases) {
    auto decoded = decodeSupportedOperations(c.payload, 3);
    ASSERT_FALSE(decoded.ok()) << c.what << " (" << c.payload.size() << " bytes)";
    EXPECT_NE(decoded.error().message.find(c.reason), std::string::npos)
        << c.what << ": " << decoded.error().message;
  }
}

}  // namespace
}  // namespace annrt::runtime
