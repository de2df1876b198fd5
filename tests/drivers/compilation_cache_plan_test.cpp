// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The runtime's compilation cache as an application meets it: setCaching's
// directory and token, and the automatic cache that needs nothing, on
// annrt-cpu and on plug-ins through the driver ABI; one entry per partition;
// bad entries are misses with a log line and correct results; a driver of
// ABI 1.0 keeps working. Hits and misses are read from the runtime's own
// counters (ANNRT_STATS).
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "annrt/compilation_attributes.h"
#include "client/graph_builder.h"
#include "common/device_lookup.h"
#include "common/scoped_environment.h"
#include "common/temp_path.h"

namespace {

namespace fs = std::filesystem;
using annrt::test::findDevice;
using annrt::test::TempPath;

const TempPath& statsPath() {
  static const TempPath path("annrt_cache_plan_stats.json");
  return path;
}
const TempPath& automaticDir() {
  static const TempPath path("annrt_cache_plan_automatic");
  return path;
}

// Must run before the runtime's device registry is built (first NNAPI call).
const bool kEnvironmentReady = [] {
  const std::string drivers =
      std::string(ANNRT_SAMPLE_DRIVER_DIR) + ":" + std::string(ANNRT_SAMPLE_ABI10_DRIVER);
  setenv("ANNRT_DRIVER_PATH", drivers.c_str(), 1);
  setenv("ANNRT_STATS", statsPath().str().c_str(), 1);
  setenv("ANNRT_CACHE_PATH", automaticDir().str().c_str(), 1);
  unsetenv("ANNRT_CACHE_CAPACITY");
  // Keep multi-step plans for this tiny model (the cost model would not).
  setenv("ANNRT_COST_MODEL", "0", 1);
  return true;
}();

struct CacheCounts {
  uint64_t hits = 0;
  uint64_t misses = 0;
};

// The counters the runtime wrote as the last compilation was freed.
// Since the process started (the runtime's counters are cumulative).
CacheCounts cumulativeCountsOf(const std::string& device) {
  std::ifstream in(statsPath().str());
  const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
  if (stats.is_discarded() || !stats.contains("devices") || !stats["devices"].contains(device)) {
    return {};
  }
  const nlohmann::json& d = stats["devices"][device];
  return {d.value("cache_hits", uint64_t{0}), d.value("cache_misses", uint64_t{0})};
}

size_t entriesIn(const std::string& dir) {
  size_t count = 0;
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    // Entries only: the automatic cache also keeps its entry count in a file.
    if (it->is_regular_file() && it->path().extension() == ".annrtcc") ++count;
  }
  return count;
}

// input [1,4,4,2] -> CONV_2D 1x1 -> FLOOR -> CONV_2D 3x3 -> output [1,4,4,2]:
// sample-float-fast takes the convolutions (two partitions), the reference
// FLOOR; annrt-cpu takes all of it.
class ConvFloorConv {
 public:
  // `bias`: the convolutions' first bias value (another value, another model).
  explicit ConvFloorConv(float bias = 0.25f) : bias_(bias) {
    annrt::client::GraphBuilder& b = builder_;
    const uint32_t input = b.addFloatTensor({1, 4, 4, 2});
    const uint32_t first = conv(input, 1, {1.0f, 0.5f, -0.5f, 2.0f});
    const uint32_t floored = b.addFloatTensor({1, 4, 4, 2});
    b.addOperation(ANEURALNETWORKS_FLOOR, {first}, {floored});
    std::vector<float> weights(size_t{2} * 3 * 3 * 2);
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = 0.125f * float(int(i % 7) - 3);
    const uint32_t output = conv(floored, 3, weights);
    b.finish({input}, {output});
    EXPECT_TRUE(b.ok()) << b.status().error().message;
  }

  ANeuralNetworksModel* model() const { return builder_.model(); }

  // Compiles (setCaching when `dir` is given) and runs once; 0 or the first error.
  int run(const std::vector<const ANeuralNetworksDevice*>& devices, const std::string& dir,
          uint8_t tokenByte, std::vector<float>* out, uint32_t threads = 0) const {
    ANeuralNetworksCompilation* compilation = nullptr;
    int status = ANeuralNetworksCompilation_createForDevices(builder_.model(), devices.data(),
                                                             devices.size(), &compilation);
    const std::vector<uint8_t> token(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, tokenByte);
    if (status == 0 && !dir.empty()) {
      status = ANeuralNetworksCompilation_setCaching(compilation, dir.c_str(), token.data());
    }
    if (status == 0 && threads != 0) {
      status = ANeuralNetworksCompilation_addExtensionAttribute(
          compilation, ANNRT_COMPILATION_EXTENSION, ANNRT_COMPILATION_NUM_THREADS, &threads,
          sizeof(threads));
    }
    if (status == 0) status = ANeuralNetworksCompilation_finish(compilation);
    ANeuralNetworksExecution* execution = nullptr;
    if (status == 0) status = ANeuralNetworksExecution_create(compilation, &execution);
    std::vector<float> input(32);
    for (size_t i = 0; i < input.size(); ++i) input[i] = 0.37f * float(int(i % 11) - 5);
    out->assign(32, 0.0f);
    if (status == 0) {
      ANeuralNetworksExecution_setInput(execution, 0, nullptr, input.data(),
                                        input.size() * sizeof(float));
      ANeuralNetworksExecution_setOutput(execution, 0, nullptr, out->data(),
                                         out->size() * sizeof(float));
      status = ANeuralNetworksExecution_compute(execution);
    }
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
    return status;
  }

 private:
  uint32_t conv(uint32_t input, uint32_t size, const std::vector<float>& weights) {
    annrt::client::GraphBuilder& b = builder_;
    const uint32_t filter = b.addFloatConstant({2, size, size, 2}, weights);
    const uint32_t bias = b.addFloatConstant({2}, {bias_, -0.5f});
    const int32_t pad = static_cast<int32_t>(size / 2);
    std::vector<uint32_t> inputs = {input, filter, bias};
    for (int32_t v : {pad, pad, pad, pad, 1, 1, 0}) inputs.push_back(b.addInt32Scalar(v));
    const uint32_t output = b.addFloatTensor({1, 4, 4, 2});
    b.addOperation(ANEURALNETWORKS_CONV_2D, inputs, {output});
    return output;
  }

  float bias_;
  annrt::client::GraphBuilder builder_;
};

class CompilationCachePlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kEnvironmentReady);
    reference_ = findDevice("nnapi-reference");
    ASSERT_NE(reference_, nullptr);
    ASSERT_EQ(model_.run({reference_}, "", 0, &expected_), 0);
    fs::create_directories(dir_.str());
    for (const char* device : {"annrt-cpu", "sample-float-fast", "sample-abi10"}) {
      baseline_[device] = cumulativeCountsOf(device);
    }
  }

  // Since this test started, so that tests sharing a process (the binary run
  // alone rather than a case per process by ctest) do not see each other's.
  CacheCounts countsOf(const std::string& device) {
    const CacheCounts now = cumulativeCountsOf(device);
    const CacheCounts& before = baseline_[device];
    return {now.hits - before.hits, now.misses - before.misses};
  }

  // Corrupts every entry of dir_ by flipping one byte at `offsetFromEnd`.
  void flipByteOfEveryEntry(size_t offsetFromEnd) const {
    for (const auto& entry : fs::directory_iterator(dir_.str())) {
      std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
      file.seekg(-static_cast<std::streamoff>(offsetFromEnd), std::ios::end);
      const char byte = static_cast<char>(file.get() ^ 0x5a);
      file.seekp(-static_cast<std::streamoff>(offsetFromEnd), std::ios::end);
      file.put(byte);
    }
  }

  ConvFloorConv model_;
  const ANeuralNetworksDevice* reference_ = nullptr;
  std::vector<float> expected_;
  std::map<std::string, CacheCounts> baseline_;
  const TempPath dir_{"annrt_cache_plan_dir"};
};

TEST_F(CompilationCachePlanTest, AnnrtCpuPreparesTheSecondCompilationFromTheCache) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built";
  std::vector<float> cold, warm;
  ASSERT_EQ(model_.run({cpu}, dir_.str(), 1, &cold), 0);
  EXPECT_EQ(countsOf("annrt-cpu").misses, 1u);
  // The partition's entry and annrt-cpu's supported operations.
  EXPECT_EQ(entriesIn(dir_.str()), 2u);
  ASSERT_EQ(model_.run({cpu}, dir_.str(), 1, &warm), 0);
  EXPECT_EQ(countsOf("annrt-cpu").hits, 1u);
  EXPECT_EQ(entriesIn(dir_.str()), 2u);
  EXPECT_EQ(warm, cold);
  for (size_t i = 0; i < expected_.size(); ++i) EXPECT_NEAR(warm[i], expected_[i], 1e-4f) << i;
}

TEST_F(CompilationCachePlanTest, TokensAndThreadCountsHaveTheirOwnEntries) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built";
  std::vector<float> out;
  ASSERT_EQ(model_.run({cpu}, dir_.str(), 1, &out, 1), 0);
  ASSERT_EQ(model_.run({cpu}, dir_.str(), 2, &out, 1), 0);
  ASSERT_EQ(model_.run({cpu}, dir_.str(), 1, &out, 2), 0);
  EXPECT_EQ(countsOf("annrt-cpu").misses, 3u);
  EXPECT_EQ(countsOf("annrt-cpu").hits, 0u);
  // Per token and thread count a partition; per token the supported
  // operations (the thread count does not change them).
  EXPECT_EQ(entriesIn(dir_.str()), 5u);
  ASSERT_EQ(model_.run({cpu}, dir_.str(), 2, &out, 1), 0);
  EXPECT_EQ(countsOf("annrt-cpu").hits, 1u);
}

// annrt-cpu reaches the runtime through the driver ABI like a plug-in: its
// settings (here ANNRT_CPU_NATIVE_KERNELS) must cross it into the keys, or a
// process with other settings finds entries it cannot use (a miss and a
// warning each time, the entry rewritten back and forth).
TEST_F(CompilationCachePlanTest, AnnrtCpuNativeKernelModesHaveTheirOwnEntries) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built";
  annrt::test::ScopedEnvironment environment;
  std::vector<float> out;
  for (const char* mode : {"0", "all", "0", "all"}) {
    environment.set("ANNRT_CPU_NATIVE_KERNELS", mode);
    ASSERT_EQ(model_.run({cpu}, dir_.str(), 1, &out), 0) << mode;
    for (size_t i = 0; i < expected_.size(); ++i) EXPECT_NEAR(out[i], expected_[i], 1e-4f) << i;
  }
  EXPECT_EQ(countsOf("annrt-cpu").misses, 2u);
  EXPECT_EQ(countsOf("annrt-cpu").hits, 2u);
  // Per mode: a partition and the supported operations.
  EXPECT_EQ(entriesIn(dir_.str()), 4u);
}

TEST_F(CompilationCachePlanTest, APluginsSettingsAreInItsKeys) {
  const std::vector<const ANeuralNetworksDevice*> devices = {findDevice("sample-float-fast"),
                                                             reference_};
  ASSERT_NE(devices[0], nullptr);
  annrt::test::ScopedEnvironment environment;
  std::vector<float> out;
  environment.set("ANNRT_SAMPLE_CACHE_SETTINGS", "firmware 1");
  ASSERT_EQ(model_.run(devices, dir_.str(), 1, &out), 0);
  const size_t entries = entriesIn(dir_.str());
  environment.set("ANNRT_SAMPLE_CACHE_SETTINGS", "firmware 2");
  ASSERT_EQ(model_.run(devices, dir_.str(), 1, &out), 0);
  EXPECT_EQ(countsOf("sample-float-fast").hits, 0u);
  // Its two partitions and its supported operations again; the reference's
  // supported operations are the same entry.
  EXPECT_EQ(entriesIn(dir_.str()), entries + 3);
  environment.set("ANNRT_SAMPLE_CACHE_SETTINGS", "firmware 1");
  ASSERT_EQ(model_.run(devices, dir_.str(), 1, &out), 0);
  EXPECT_EQ(countsOf("sample-float-fast").hits, 2u);  // its two partitions
  for (size_t i = 0; i < expected_.size(); ++i) EXPECT_NEAR(out[i], expected_[i], 1e-4f) << i;
}

TEST_F(CompilationCachePlanTest, EveryPartitionOfAPluginHasItsOwnEntry) {
  const std::vector<const ANeuralNetworksDevice*> devices = {findDevice("sample-float-fast"),
                                                             reference_};
  ASSERT_NE(devices[0], nullptr);
  std::vector<float> cold, warm;
  ASSERT_EQ(model_.run(devices, dir_.str(), 3, &cold), 0);
  EXPECT_EQ(countsOf("sample-float-fast").misses, 2u);
  // Two partitions, and the supported operations of the model of the
  // plug-in and of the (built-in) reference.
  EXPECT_EQ(entriesIn(dir_.str()), 4u);
  ASSERT_EQ(model_.run(devices, dir_.str(), 3, &warm), 0);
  EXPECT_EQ(countsOf("sample-float-fast").hits, 2u);
  EXPECT_EQ(entriesIn(dir_.str()), 4u);
  EXPECT_EQ(cold, expected_);
  EXPECT_EQ(warm, expected_);
}

TEST_F(CompilationCachePlanTest, ACorruptEntryIsAMissWithALogLineAndIsRewritten) {
  const std::vector<const ANeuralNetworksDevice*> devices = {findDevice("sample-float-fast"),
                                                             reference_};
  ASSERT_NE(devices[0], nullptr);
  std::vector<float> out;
  ASSERT_EQ(model_.run(devices, dir_.str(), 4, &out), 0);
  flipByteOfEveryEntry(1);
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(model_.run(devices, dir_.str(), 4, &out), 0);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("cache"), std::string::npos) << log;
  EXPECT_EQ(countsOf("sample-float-fast").misses, 4u);
  EXPECT_EQ(countsOf("sample-float-fast").hits, 0u);
  EXPECT_EQ(out, expected_);
  ASSERT_EQ(model_.run(devices, dir_.str(), 4, &out), 0);
  EXPECT_EQ(countsOf("sample-float-fast").hits, 2u);
  EXPECT_EQ(out, expected_);
}

TEST_F(CompilationCachePlanTest, TheAutomaticCacheNeedsNothingFromTheApplication) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built";
  std::vector<float> cold, warm;
  ASSERT_EQ(model_.run({cpu}, "", 0, &cold), 0);
  EXPECT_EQ(countsOf("annrt-cpu").misses, 1u);
  EXPECT_GE(entriesIn(automaticDir().str()), 1u);
  ASSERT_EQ(model_.run({cpu}, "", 0, &warm), 0);
  EXPECT_EQ(countsOf("annrt-cpu").hits, 1u);
  EXPECT_EQ(warm, cold);
}

// ANeuralNetworksModel_getSupportedOperationsForDevices, which TensorFlow
// Lite's NNAPI delegate calls before it compiles, keeps annrt-cpu's answer in
// the automatic cache, for the next process; the compilation after it in this
// one finds the answer with the model and stores only its partition.
TEST_F(CompilationCachePlanTest, SupportedOperationsForDevicesAreKeptInTheAutomaticCache) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built";
  const ConvFloorConv model(0.75f);  // a model no other test compiles
  const size_t before = entriesIn(automaticDir().str());
  bool supported[3] = {};
  ASSERT_EQ(
      ANeuralNetworksModel_getSupportedOperationsForDevices(model.model(), &cpu, 1, supported),
      ANEURALNETWORKS_NO_ERROR);
  EXPECT_TRUE(supported[0] && supported[1] && supported[2]);
  EXPECT_EQ(entriesIn(automaticDir().str()), before + 1);
  std::vector<float> out;
  ASSERT_EQ(model.run({cpu}, "", 0, &out), 0);
  EXPECT_EQ(entriesIn(automaticDir().str()), before + 2);
}

TEST_F(CompilationCachePlanTest, ADriverOfAbi10LoadsAndCachesNothing) {
  const std::vector<const ANeuralNetworksDevice*> devices = {findDevice("sample-abi10"),
                                                             reference_};
  ASSERT_NE(devices[0], nullptr) << "a driver of ABI 1.0 must still load";
  std::vector<float> out;
  ASSERT_EQ(model_.run(devices, dir_.str(), 5, &out), 0);
  ASSERT_EQ(model_.run(devices, dir_.str(), 5, &out), 0);
  EXPECT_EQ(entriesIn(dir_.str()), 0u);
  EXPECT_EQ(countsOf("sample-abi10").hits + countsOf("sample-abi10").misses, 0u);
  EXPECT_EQ(out, expected_);
}

}  // namespace
