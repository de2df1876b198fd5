// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Compile at first inference: a model with a dynamic batch, compiled by
// ANeuralNetworksCompilation_create, runs on annrt-cpu once an execution
// brings concrete input dims (one specialized plan per distinct dims, a
// bounded number kept; ANNRT_SPECIALIZE=0 turns it off). Where a plan ran is
// read from the runtime's device counters (ANNRT_STATS, written as each
// compilation is freed) and from its log lines.
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/device_lookup.h"
#include "common/temp_path.h"
#include "test_models.h"

namespace annrt::test {
namespace {

// Set before the runtime starts (its counters read ANNRT_STATS once).
const TempPath kStats{"annrt_specialization_stats.json"};
[[maybe_unused]] const bool kStatsSet = setenv("ANNRT_STATS", kStats.str().c_str(), 1) == 0;

constexpr uint32_t kSide = 4;
constexpr uint32_t kChannels = 2;
constexpr size_t kImage = size_t{kSide} * kSide * kChannels;  // floats per batch item

std::vector<float> patternValues(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = scale * static_cast<float>((i * 7) % 11) - 0.4f;
  return values;
}

// out = RELU(CONV_2D(in, 3x3 filter, SAME)), in and out of dims
// [0, 4, 4, 2]: the batch is only known at execution time.
Model dynamicBatchConvRelu() {
  client::GraphBuilder b;
  const uint32_t input = b.addTensor({0, kSide, kSide, kChannels});
  const uint32_t filter = b.addFloatConstant(
      {kChannels, 3, 3, kChannels}, patternValues(size_t{kChannels} * 9 * kChannels, 0.1f));
  const uint32_t bias = b.addFloatConstant({kChannels}, {0.05f, -0.1f});
  const uint32_t conv = b.addTensor({0, kSide, kSide, kChannels});
  b.addOperation(
      ANEURALNETWORKS_CONV_2D,
      {input, filter, bias, b.addInt32Scalar(ANEURALNETWORKS_PADDING_SAME), b.addInt32Scalar(1),
       b.addInt32Scalar(1), b.addInt32Scalar(ANEURALNETWORKS_FUSED_NONE)},
      {conv});
  const uint32_t output = b.addTensor({0, kSide, kSide, kChannels});
  b.addOperation(ANEURALNETWORKS_RELU, {conv}, {output});
  b.finish({input}, {output});
  return built(b);
}

// The device counters the runtime last wrote (zero before any write).
struct Counters {
  uint64_t compilations = 0;
  uint64_t inferences = 0;
};

Counters countersOf(const std::string& device) {
  std::ifstream in(kStats.str());
  const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
  if (stats.is_discarded() || !stats["devices"].contains(device)) return {};
  const nlohmann::json& counters = stats["devices"][device];
  return {counters["compilations"].get<uint64_t>(), counters["inferences"].get<uint64_t>()};
}

size_t occurrences(const std::string& text, const std::string& word) {
  size_t count = 0;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    ++count;
  }
  return count;
}

std::string specializedFor(uint32_t batch) {
  return "specializing compilation for input dims [" + std::to_string(batch) + "," +
         std::to_string(kSide) + "," + std::to_string(kSide) + "," + std::to_string(kChannels) +
         "]";
}

class SpecializationTest : public ::testing::Test {
 public:
  void SetUp() override {
    if (findDevice("annrt-cpu") == nullptr) GTEST_SKIP() << "built without annrt-cpu";
    model_ = dynamicBatchConvRelu();
  }
  void TearDown() override { unsetenv("ANNRT_SPECIALIZE"); }

  // The batch's input, distinct per batch size.
  static std::vector<float> inputFor(uint32_t batch) {
    return patternValues(batch * kImage, 0.3f + 0.01f * static_cast<float>(batch));
  }

  // Runs `compilation` on inputFor(batch) with the input's dims given, and
  // checks the output dims it reports.
  static std::vector<float> run(ANeuralNetworksCompilation* compilation, uint32_t batch) {
    const std::vector<float> input = inputFor(batch);
    std::vector<float> output(input.size());
    const OperandType type = floatTensor({batch, kSide, kSide, kChannels});
    const ANeuralNetworksOperandType dims = type.get();
    Execution execution = newExecution(compilation);
    EXPECT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, &dims, input.data(),
                                                input.size() * sizeof(float)));
    EXPECT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                                 output.size() * sizeof(float)));
    EXPECT_OK(ANeuralNetworksExecution_compute(execution.get()));
    expectOutputDims(execution.get(), batch);
    return output;
  }

  static void expectOutputDims(ANeuralNetworksExecution* execution, uint32_t batch) {
    std::vector<uint32_t> dims(4);
    EXPECT_OK(ANeuralNetworksExecution_getOutputOperandDimensions(execution, 0, dims.data()));
    EXPECT_EQ(dims, (std::vector<uint32_t>{batch, kSide, kSide, kChannels}));
  }

  // A finished compilation of model_ by createForDevices for `devices`, or
  // by ANeuralNetworksCompilation_create when there are none.
  Compilation compileFor(const std::vector<std::string_view>& devices) const {
    if (devices.empty()) return compile(model_.get());
    std::vector<const ANeuralNetworksDevice*> handles;
    handles.reserve(devices.size());
    for (std::string_view name : devices) handles.push_back(findDevice(name));
    ANeuralNetworksCompilation* raw = nullptr;
    EXPECT_OK(ANeuralNetworksCompilation_createForDevices(model_.get(), handles.data(),
                                                          handles.size(), &raw));
    return finishIf(raw, true);
  }

  // What nnapi-reference computes for the batch (it sizes shapes at run time).
  std::vector<float> expected(uint32_t batch) const {
    Compilation compilation = compileFor({"nnapi-reference"});
    return run(compilation.get(), batch);
  }

  static void expectNear(const std::vector<float>& got, const std::vector<float>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-5f * std::max(1.0f, std::fabs(want[i]))) << "at " << i;
    }
  }

  // Compiles for `devices` (compileFor), runs `batches` in order, checks
  // each result, and returns the log; the counters of annrt-cpu changed by
  // `cpu` (read once the compilation is freed).
  std::string runBatches(const std::vector<uint32_t>& batches, Counters& cpu,
                         const std::vector<std::string_view>& devices = {}) const {
    std::vector<std::vector<float>> want;
    want.reserve(batches.size());
    for (uint32_t batch : batches) want.push_back(expected(batch));
    const Counters before = countersOf("annrt-cpu");
    ::testing::internal::CaptureStderr();
    {
      Compilation compilation = compileFor(devices);
      for (size_t i = 0; i < batches.size(); ++i) {
        expectNear(run(compilation.get(), batches[i]), want[i]);
      }
    }
    std::string log = ::testing::internal::GetCapturedStderr();
    const Counters after = countersOf("annrt-cpu");
    cpu = {after.compilations - before.compilations, after.inferences - before.inferences};
    return log;
  }

 protected:
  Model model_;
};

TEST_F(SpecializationTest, DynamicBatchRunsOnAnnrtCpuOncePerDistinctDims) {
  Counters cpu;
  const std::string log = runBatches({1, 3, 1}, cpu);
  EXPECT_EQ(occurrences(log, specializedFor(1)), 1u) << log;
  EXPECT_EQ(occurrences(log, specializedFor(3)), 1u) << log;
  EXPECT_NE(log.find("2 operations on annrt-cpu"), std::string::npos) << log;
  EXPECT_EQ(cpu.compilations, 2u);  // batch 1's plan served its second execution
  EXPECT_EQ(cpu.inferences, 3u);
}

TEST_F(SpecializationTest, KeepsABoundedNumberOfPlans) {
  setenv("ANNRT_SPECIALIZE", "4", 1);
  Counters cpu;
  // Batch 5 is still kept when it comes again; batch 1 was dropped for it.
  const std::string log = runBatches({1, 2, 3, 4, 5, 5, 1}, cpu);
  for (uint32_t batch = 2; batch <= 5; ++batch) {
    EXPECT_EQ(occurrences(log, specializedFor(batch)), 1u) << log;
  }
  EXPECT_EQ(occurrences(log, specializedFor(1)), 2u) << log;
  EXPECT_EQ(occurrences(log, "dropping the plan specialized for input dims [1,4,4,2]"), 1u) << log;
  EXPECT_EQ(occurrences(log, "dropping the plan specialized"), 2u) << log;  // then batch 2
  EXPECT_EQ(cpu.compilations, 6u);
  EXPECT_EQ(cpu.inferences, 7u);
}

TEST_F(SpecializationTest, ZeroTurnsItOff) {
  setenv("ANNRT_SPECIALIZE", "0", 1);
  Counters cpu;
  const std::string log = runBatches({1, 3}, cpu);
  EXPECT_EQ(occurrences(log, "specializing"), 0u) << log;
  EXPECT_EQ(cpu.compilations, 0u);
  EXPECT_EQ(cpu.inferences, 0u);
}

// Android-like: the devices an application names are the ones it gets, and
// annrt-cpu among them specializes as with Compilation_create. With
// nnapi-reference alone there is nothing to gain.
TEST_F(SpecializationTest, CreateForDevicesSpecializesWhenAFastDeviceIsListed) {
  Counters cpu;
  std::string log = runBatches({2}, cpu, {"annrt-cpu", "nnapi-reference"});
  EXPECT_EQ(occurrences(log, specializedFor(2)), 1u) << log;
  EXPECT_EQ(cpu.inferences, 1u);

  log = runBatches({2}, cpu, {"nnapi-reference"});
  EXPECT_EQ(occurrences(log, "specializing"), 0u) << log;
  EXPECT_EQ(cpu.inferences, 0u);
}

// Every way to compute goes through the specialized plan: a burst, an
// asynchronous computation, a fenced one and a reusable execution run twice,
// each with the input dims given when it is bound.
TEST_F(SpecializationTest, EveryComputationPathRunsTheSpecializedPlan) {
  constexpr uint32_t kBatch = 2;
  const std::vector<float> want = expected(kBatch);
  const std::vector<float> input = inputFor(kBatch);
  const OperandType type = floatTensor({kBatch, kSide, kSide, kChannels});
  const ANeuralNetworksOperandType dims = type.get();
  const Counters before = countersOf("annrt-cpu");
  {
    Compilation compilation = compile(model_.get());
    Burst burst = newBurst(compilation.get());
    std::vector<float> output(input.size());
    auto bound = [&] {
      Execution execution = newExecution(compilation.get());
      EXPECT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, &dims, input.data(),
                                                  input.size() * sizeof(float)));
      // A fenced computation needs the output's dims too.
      EXPECT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, &dims, output.data(),
                                                   output.size() * sizeof(float)));
      std::fill(output.begin(), output.end(), -1.0f);
      return execution;
    };
    auto check = [&](ANeuralNetworksExecution* execution) {
      expectNear(output, want);
      expectOutputDims(execution, kBatch);
    };
    Execution inBurst = bound();
    ASSERT_OK(ANeuralNetworksExecution_burstCompute(inBurst.get(), burst.get()));
    check(inBurst.get());

    Execution async = bound();
    ANeuralNetworksEvent* rawEvent = nullptr;
    ASSERT_OK(ANeuralNetworksExecution_startCompute(async.get(), &rawEvent));
    Event event(rawEvent);
    ASSERT_OK(ANeuralNetworksEvent_wait(event.get()));
    check(async.get());

    Execution fenced = bound();
    rawEvent = nullptr;
    ASSERT_OK(ANeuralNetworksExecution_startComputeWithDependencies(fenced.get(), nullptr, 0, 0,
                                                                    &rawEvent));
    Event fencedEvent(rawEvent);
    ASSERT_OK(ANeuralNetworksEvent_wait(fencedEvent.get()));
    check(fenced.get());

    Execution reusable = bound();
    ASSERT_OK(ANeuralNetworksExecution_setReusable(reusable.get(), true));
    for (int run = 0; run < 2; ++run) {
      std::fill(output.begin(), output.end(), -1.0f);
      ASSERT_OK(ANeuralNetworksExecution_compute(reusable.get()));
      check(reusable.get());
    }
  }
  const Counters after = countersOf("annrt-cpu");
  EXPECT_EQ(after.compilations - before.compilations, 1u);
  EXPECT_EQ(after.inferences - before.inferences, 5u);
}

// Executions with `batches` different batches at once on one compilation
// keeping `bound` plans, each of `threads` threads running one batch
// `rounds` times: each gets its own batch's result; returns the compilations
// of annrt-cpu it made.
uint64_t runConcurrently(const SpecializationTest& test, uint32_t batches, uint32_t threads,
                         uint32_t rounds) {
  std::vector<std::vector<float>> want;
  for (uint32_t batch = 1; batch <= batches; ++batch) want.push_back(test.expected(batch));
  const Counters before = countersOf("annrt-cpu");
  {
    Compilation compilation = test.compileFor({});
    std::vector<std::thread> running;
    for (uint32_t t = 0; t < threads; ++t) {
      running.emplace_back([&, t] {
        const uint32_t batch = 1 + t % batches;
        for (uint32_t round = 0; round < rounds; ++round) {
          SpecializationTest::expectNear(SpecializationTest::run(compilation.get(), batch),
                                         want[batch - 1]);
        }
      });
    }
    for (std::thread& thread : running) thread.join();
  }
  const Counters after = countersOf("annrt-cpu");
  EXPECT_EQ(after.inferences - before.inferences, threads * rounds);
  return after.compilations - before.compilations;
}

TEST_F(SpecializationTest, ConcurrentExecutionsShareThePlans) {
  EXPECT_EQ(runConcurrently(*this, 2, 4, 5), 2u);  // each batch specialized once
}

// More batches than the bound: plans are dropped and made again while other
// executions run on them.
TEST_F(SpecializationTest, ConcurrentExecutionsPastTheBound) {
  setenv("ANNRT_SPECIALIZE", "2", 1);
  ::testing::internal::CaptureStderr();
  EXPECT_GE(runConcurrently(*this, 3, 6, 4), 3u);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_GE(occurrences(log, "dropping the plan specialized"), 1u) << log;
}

}  // namespace
}  // namespace annrt::test
