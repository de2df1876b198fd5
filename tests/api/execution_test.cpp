// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksExecution_*: binding inputs and outputs, the execution state
// machine (preparation -> computation -> completed, and back only when
// reusable), padding, timing, timeouts, loop timeouts and dynamic output shapes.
#include <limits>

#include "test_models.h"

namespace annrt::test {
namespace {

using ExecutionTest = FloorTest;

TEST_F(ExecutionTest, CreateChecksNullsAndAnUnfinishedCompilation) {
  ANeuralNetworksExecution* execution = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_create(nullptr, &execution));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_create(compilation_.get(), nullptr));
  Compilation unfinished = compile(model_.get(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_create(unfinished.get(), &execution));
  EXPECT_EQ(execution, nullptr);
  ANeuralNetworksExecution_free(nullptr);  // documented as a no-op
}

TEST_F(ExecutionTest, SetInputAndOutputRejectBadArguments) {
  float* in = input_.data();
  float* out = output_.data();
  const size_t bytes = sizeof(input_);
  ANeuralNetworksExecution* e = execution_.get();
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setInput(nullptr, 0, nullptr, in, bytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setInput(e, 0, nullptr, nullptr, bytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setOutput(nullptr, 0, nullptr, out, bytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setOutput(e, 0, nullptr, nullptr, bytes));
  for (int32_t index : {-1, 1, std::numeric_limits<int32_t>::max()}) {
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setInput(e, index, nullptr, in, bytes));
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setOutput(e, index, nullptr, out, bytes));
  }
  for (size_t length : {bytes - 4, bytes + 4, size_t{0}}) {
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setInput(e, 0, nullptr, in, length));
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, length));
  }
  const uint32_t one = 1;
  // (Another type code is accepted, as AOSP does: execution_validation_test.)
  const OperandType flat = floatTensor({4}), wider = floatTensor({2, 3});
  const ANeuralNetworksOperandType mismatched[] = {
      flat.get(),                                                     // other rank
      wider.get(),                                                    // overrides a fixed dim
      {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .dimensionCount = 1},  // null dims
      {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .dimensions = &one},   // dims with count 0
  };
  for (const auto& type : mismatched) {
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setInput(e, 0, &type, in, bytes));
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setOutput(e, 0, &type, out, bytes));
  }
  // The model's own type may be restated.
  const OperandType sameOwner = floatTensor(kDims);
  const ANeuralNetworksOperandType same = sameOwner.get();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setInput(e, 0, &same, in, bytes));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setOutput(e, 0, &same, out, bytes));
  // An argument is set once.
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setInput(e, 0, nullptr, in, bytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, bytes));
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  expectFloored();
}

TEST_F(ExecutionTest, SetFromMemoryRejectsBadRanges) {
  constexpr size_t kBytes = sizeof(kInput);
  SharedMemory memory(2 * kBytes);
  std::copy(kInput.begin(), kInput.end(), memory.floats());
  ANeuralNetworksExecution* e = execution_.get();
  ANeuralNetworksMemory* m = memory.get();
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setInputFromMemory(nullptr, 0, nullptr, m, 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, nullptr, 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setOutputFromMemory(nullptr, 0, nullptr, m, 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, nullptr, 0, kBytes));
  struct Range {
    int32_t index;
    size_t offset, length;
  };
  const Range bad[] = {
      {-1, 0, kBytes},
      {1, 0, kBytes},
      {0, 0, 2 * kBytes},
      {0, 0, kBytes - 4},
      {0, 2 * kBytes + 1, kBytes},
      {0, kBytes + 4, kBytes},
      {0, std::numeric_limits<size_t>::max(), kBytes},
  };
  for (const Range& r : bad) {
    SCOPED_TRACE(::testing::Message() << r.index << " " << r.offset << " " << r.length);
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setInputFromMemory(
                                            e, r.index, nullptr, m, r.offset, r.length));
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setOutputFromMemory(
                                            e, r.index, nullptr, m, r.offset, r.length));
  }
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, m, 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, m, kBytes, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, m, 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_setOutput(e, 0, nullptr, output_.data(), kBytes));
  // The application may free the memory once it is bound.
  memory.freeMemory();
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  EXPECT_TRUE(std::equal(kFloored.begin(), kFloored.end(), memory.floats() + 4));
}

// As AOSP's prepareForCompute: a computation with an argument unset fails
// with BAD_DATA and completes the execution, which then takes no more changes.
TEST_F(ExecutionTest, ComputeWithAnUnsetArgumentCompletesTheExecution) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_compute(nullptr));
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution_.get(), 0, nullptr, input_.data(),
                                              sizeof(input_)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_compute(execution_.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_setOutput(execution_.get(), 0, nullptr, output_.data(),
                                               sizeof(output_)));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_compute(execution_.get()));
  uint32_t rank = 0;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_getOutputOperandRank(execution_.get(), 0, &rank));
  Execution complete = newExecution(compilation_.get());
  bind(complete.get());
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(complete.get()));
  expectFloored();
}

// After a computation, a non-reusable execution accepts neither changes nor
// another computation, whichever way it was computed.
TEST_F(ExecutionTest, ModificationAndRecomputationAfterCompletionAreBadState) {
  enum Way { SYNC, ASYNC, FENCED, BURST };
  for (Way way : {SYNC, ASYNC, FENCED, BURST}) {
    SCOPED_TRACE(way);
    Execution execution = newExecution(compilation_.get());
    ANeuralNetworksExecution* e = execution.get();
    bind(e);
    ANeuralNetworksEvent* rawEvent = nullptr;
    Burst burst = newBurst(compilation_.get());
    switch (way) {
      case SYNC: ASSERT_OK(ANeuralNetworksExecution_compute(e)); break;
      case ASYNC: ASSERT_OK(ANeuralNetworksExecution_startCompute(e, &rawEvent)); break;
      case FENCED:
        ASSERT_OK(
            ANeuralNetworksExecution_startComputeWithDependencies(e, nullptr, 0, 0, &rawEvent));
        break;
      case BURST: ASSERT_OK(ANeuralNetworksExecution_burstCompute(e, burst.get())); break;
    }
    Event event(rawEvent);
    if (event) {
      ASSERT_OK(ANeuralNetworksEvent_wait(event.get()));
    }
    expectFloored();

    SharedMemory memory(sizeof(kInput));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
              ANeuralNetworksExecution_setInput(e, 0, nullptr, input_.data(), sizeof(input_)));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
              ANeuralNetworksExecution_setOutput(e, 0, nullptr, output_.data(), sizeof(output_)));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setInputFromMemory(
                                             e, 0, nullptr, memory.get(), 0, sizeof(kInput)));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setOutputFromMemory(
                                             e, 0, nullptr, memory.get(), 0, sizeof(kInput)));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setLoopTimeout(e, 1000));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setReusable(e, true));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
              ANeuralNetworksExecution_enableInputAndOutputPadding(e, true));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_compute(e));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_burstCompute(e, burst.get()));
    ANeuralNetworksEvent* again = nullptr;
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_startCompute(e, &again));
    EXPECT_EQ(again, nullptr);
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
              ANeuralNetworksExecution_startComputeWithDependencies(e, nullptr, 0, 0, &again));
    EXPECT_EQ(again, nullptr);
    // What the completed computation produced can still be queried.
    uint32_t rank = 0;
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank));
    EXPECT_EQ(rank, 2u);
  }
}

TEST_F(ExecutionTest, ReusableExecutionComputesAgainWithNewInputValues) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_setReusable(nullptr, true));
  ANeuralNetworksExecution* e = execution_.get();
  ASSERT_OK(ANeuralNetworksExecution_setReusable(e, true));
  bind(e);
  Burst burst = newBurst(compilation_.get());
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE(round);
    for (float& value : input_) value += 1.0f;
    ANeuralNetworksEvent* rawEvent = nullptr;
    switch (round) {
      case 0: ASSERT_OK(ANeuralNetworksExecution_compute(e)); break;
      case 1: ASSERT_OK(ANeuralNetworksExecution_startCompute(e, &rawEvent)); break;
      case 2:
        ASSERT_OK(
            ANeuralNetworksExecution_startComputeWithDependencies(e, nullptr, 0, 0, &rawEvent));
        break;
      case 3: ASSERT_OK(ANeuralNetworksExecution_burstCompute(e, burst.get())); break;
    }
    Event event(rawEvent);
    if (event) {
      ASSERT_OK(ANeuralNetworksEvent_wait(event.get()));
    }
    for (size_t i = 0; i < output_.size(); ++i) EXPECT_EQ(output_[i], kFloored[i] + round + 1);
  }
  // Still not modifiable after a computation.
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_setInput(e, 0, nullptr, input_.data(), sizeof(input_)));
}

// While a computation is under way (held back here by an unsignalled fence),
// even a reusable execution accepts no other computation.
TEST_F(ExecutionTest, ComputingWhileAlreadyComputingIsBadState) {
  ANeuralNetworksExecution* e = execution_.get();
  ASSERT_OK(ANeuralNetworksExecution_setReusable(e, true));
  bind(e);
  Fence fence;
  Event dependency = fence.event();
  const ANeuralNetworksEvent* dependencies[] = {dependency.get()};
  ANeuralNetworksEvent* rawEvent = nullptr;
  ASSERT_OK(
      ANeuralNetworksExecution_startComputeWithDependencies(e, dependencies, 1, 0, &rawEvent));
  Event event(rawEvent);
  Burst burst = newBurst(compilation_.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_compute(e));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_burstCompute(e, burst.get()));
  ANeuralNetworksEvent* other = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_startCompute(e, &other));
  EXPECT_EQ(other, nullptr);
  uint32_t rank = 0;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank));
  fence.signal();
  ASSERT_OK(ANeuralNetworksEvent_wait(event.get()));
  expectFloored();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(e));
}

TEST_F(ExecutionTest, PaddingMustBeEnabledBeforeArgumentsAreSet) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_enableInputAndOutputPadding(nullptr, true));
  ANeuralNetworksExecution* e = execution_.get();
  std::array<float, 8> paddedInput{}, paddedOutput{};
  std::copy(kInput.begin(), kInput.end(), paddedInput.begin());
  // Without padding, a longer buffer is rejected.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setInput(
                                          e, 0, nullptr, paddedInput.data(), sizeof(paddedInput)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_enableInputAndOutputPadding(e, true));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setInput(
                                          e, 0, nullptr, paddedInput.data(), sizeof(paddedInput)));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_enableInputAndOutputPadding(e, false));
  // Padding allows longer buffers, never shorter ones.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setOutput(e, 0, nullptr, paddedOutput.data(), 12));
  EXPECT_NN(
      ANEURALNETWORKS_NO_ERROR,
      ANeuralNetworksExecution_setOutput(e, 0, nullptr, paddedOutput.data(), sizeof(paddedOutput)));
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  EXPECT_TRUE(std::equal(kFloored.begin(), kFloored.end(), paddedOutput.begin()));
}

TEST_F(ExecutionTest, PaddedMemoryRegions) {
  ANeuralNetworksExecution* e = execution_.get();
  SharedMemory memory(256);
  std::copy(kInput.begin(), kInput.end(), memory.floats());
  ASSERT_OK(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory.get(), 0, 64));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, memory.get(), 64, 8));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, memory.get(), 64, 64));
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  EXPECT_TRUE(std::equal(kFloored.begin(), kFloored.end(), memory.floats() + 16));
}

TEST_F(ExecutionTest, TimingNeedsExactlyOneExplicitDevice) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_setMeasureTiming(nullptr, true));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setMeasureTiming(execution_.get(), true));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setMeasureTiming(execution_.get(), false));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_setTimeout(nullptr, 1000));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setTimeout(execution_.get(), 1000));
  ANeuralNetworksEvent* event = nullptr;
  bind(execution_.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_startComputeWithDependencies(
                                          execution_.get(), nullptr, 0, 1'000'000'000, &event));
  EXPECT_EQ(event, nullptr);
  // As AOSP, the refused computation completed the execution.
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_compute(execution_.get()));
}

// Executions of a compilation for one device measure durations on request.
class SingleDeviceTest : public FloorTest {
 protected:
  void SetUp() override {
    model_ = floorModel();
    compilation_ = compileForDevice(model_.get());
    execution_ = newExecution(compilation_.get());
  }
};

TEST_F(SingleDeviceTest, DurationsAreOnlyKnownAfterAMeasuredComputation) {
  constexpr int32_t kCodes[] = {
      ANEURALNETWORKS_DURATION_ON_HARDWARE, ANEURALNETWORKS_DURATION_IN_DRIVER,
      ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER};
  for (bool fenced : {false, true}) {
    SCOPED_TRACE(fenced ? "fenced" : "compute");
    Execution execution = newExecution(compilation_.get());
    ANeuralNetworksExecution* e = execution.get();
    uint64_t duration = 0;
    EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
              ANeuralNetworksExecution_getDuration(nullptr, 0, &duration));
    EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_getDuration(e, 0, nullptr));
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setMeasureTiming(e, false));
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setMeasureTiming(e, true));
    bind(e);
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_getDuration(e, 0, &duration));
    if (fenced) {
      ANeuralNetworksEvent* rawEvent = nullptr;
      ASSERT_OK(ANeuralNetworksExecution_startComputeWithDependencies(e, nullptr, 0, 0, &rawEvent));
      Event event(rawEvent);
      ASSERT_OK(ANeuralNetworksEvent_wait(event.get()));
    } else {
      ASSERT_OK(ANeuralNetworksExecution_compute(e));
    }
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setMeasureTiming(e, false));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_setTimeout(e, 1000));
    uint64_t durations[4] = {};
    for (int32_t code : kCodes) {
      EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
                ANeuralNetworksExecution_getDuration(e, code, &durations[code]));
      EXPECT_NE(durations[code], std::numeric_limits<uint64_t>::max()) << code;
    }
    EXPECT_LE(durations[ANEURALNETWORKS_DURATION_ON_HARDWARE],
              durations[ANEURALNETWORKS_DURATION_IN_DRIVER]);
    EXPECT_LE(durations[ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE],
              durations[ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER]);
    for (int32_t code : {-1, 4}) {
      EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_getDuration(e, code, &duration));
    }
  }
}

TEST_F(SingleDeviceTest, GetDurationWithoutTimingIsBadState) {
  bind(execution_.get());
  ASSERT_OK(ANeuralNetworksExecution_compute(execution_.get()));
  uint64_t duration = 0;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_getDuration(execution_.get(),
                                                 ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration));
}

TEST_F(SingleDeviceTest, ExecutionAttributesFollowTheState) {
  ANeuralNetworksExecution* e = execution_.get();
  const int32_t data = 1;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_addExtensionAttribute(e, "org.annrt.none", 0, nullptr, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_addExtensionAttribute(e, "org.annrt.none", 0, &data, 4));
  bind(e);
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_addExtensionAttribute(e, "org.annrt.none", 0, &data, 4));
}

// getDuration: a bad code is BAD_DATA whatever the state and leaves the
// output alone; a duration that cannot be given is BAD_STATE and UINT64_MAX.
TEST_F(SingleDeviceTest, GetDurationCodesAndValues) {
  ANeuralNetworksExecution* e = execution_.get();
  uint64_t duration = 7;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_getDuration(e, 4, &duration));
  EXPECT_EQ(duration, 7u);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_IN_DRIVER, &duration));
  EXPECT_EQ(duration, UINT64_MAX);
  bind(e);
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  duration = 7;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_getDuration(e, -1, &duration));
  EXPECT_EQ(duration, 7u);
  // Computed without setMeasureTiming.
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_getDuration(
                                           e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration));
  EXPECT_EQ(duration, UINT64_MAX);
}

TEST_F(SingleDeviceTest, GetDurationAfterAFailedComputationIsUint64Max) {
  ANeuralNetworksExecution* e = execution_.get();
  ASSERT_OK(ANeuralNetworksExecution_setMeasureTiming(e, true));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_compute(e));  // nothing bound
  uint64_t duration = 7;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_getDuration(
                                           e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration));
  EXPECT_EQ(duration, UINT64_MAX);
}

TEST_F(SingleDeviceTest, Timeouts) {
  ANeuralNetworksExecution* e = execution_.get();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setTimeout(e, 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setTimeout(e, std::numeric_limits<uint64_t>::max()));
  bind(e);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(e));
  expectFloored();

  // A 1 ns timeout either completes or reports the missed deadline.
  Execution hurried = newExecution(compilation_.get());
  ASSERT_OK(ANeuralNetworksExecution_setTimeout(hurried.get(), 1));
  bind(hurried.get());
  const int result = ANeuralNetworksExecution_compute(hurried.get());
  EXPECT_TRUE(result == ANEURALNETWORKS_NO_ERROR ||
              result == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
              result == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT)
      << resultName(result);

  // A duration after the dependencies is accepted for one device.
  Execution fenced = newExecution(compilation_.get());
  bind(fenced.get());
  ANeuralNetworksEvent* rawEvent = nullptr;
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_startComputeWithDependencies(
                                          fenced.get(), nullptr, 0, 10'000'000'000, &rawEvent));
  Event event(rawEvent);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event.get()), ANEURALNETWORKS_NO_ERROR);
}

TEST_F(ExecutionTest, LoopTimeoutIsCappedAtTheMaximum) {
  EXPECT_EQ(ANeuralNetworks_getDefaultLoopTimeout(), 2'000'000'000u);
  EXPECT_EQ(ANeuralNetworks_getMaximumLoopTimeout(), 15'000'000'000u);
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_setLoopTimeout(nullptr, 1));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setLoopTimeout(execution_.get(), 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setLoopTimeout(execution_.get(),
                                                    ANeuralNetworks_getMaximumLoopTimeout()));
  // Above the maximum: accepted, capped, and a warning says so.
  ::testing::internal::CaptureStderr();
  const int result = ANeuralNetworksExecution_setLoopTimeout(execution_.get(),
                                                             std::numeric_limits<uint64_t>::max());
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(result, ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(log.find(" W annrt: "), std::string::npos) << log;
  EXPECT_NE(log.find(std::to_string(ANeuralNetworks_getMaximumLoopTimeout())), std::string::npos)
      << log;
  bind(execution_.get());
  ASSERT_OK(ANeuralNetworksExecution_compute(execution_.get()));
  expectFloored();
}

TEST_F(ExecutionTest, OutputShapeQueries) {
  ANeuralNetworksExecution* e = execution_.get();
  uint32_t rank = 0;
  uint32_t dims[4] = {};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_getOutputOperandRank(nullptr, 0, &rank));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_getOutputOperandRank(e, 0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_getOutputOperandDimensions(nullptr, 0, dims));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, nullptr));
  // Before the computation.
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims));
  bind(e);
  ASSERT_OK(ANeuralNetworksExecution_compute(e));
  for (int32_t index : {-1, 1}) {
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_getOutputOperandRank(e, index, &rank));
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_getOutputOperandDimensions(e, index, dims));
  }
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims));
  EXPECT_EQ(rank, 2u);
  EXPECT_EQ(dims[0], 2u);
  EXPECT_EQ(dims[1], 2u);
}

TEST_F(ExecutionTest, ExtensionAttributes) {
  const int32_t data = 1;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_addExtensionAttribute(nullptr, "org.annrt.none", 0, &data,
                                                           sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_addExtensionAttribute(execution_.get(), nullptr, 0, &data,
                                                           sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_addExtensionAttribute(execution_.get(), "org.annrt.none", 0,
                                                           &data, sizeof(data)));
  bind(execution_.get());
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution_.get()));
}

// ---- Dynamic output shapes ----

// FLOOR with input dims {0, 2} (batch given at execution time) and an output
// of unknown dims ({0, 0}) or unknown rank ({}).
class DynamicShapeTest : public ::testing::TestWithParam<std::vector<uint32_t>> {
 protected:
  void SetUp() override {
    model_ = floorModel({0, 2}, GetParam());
    compilation_ = compile(model_.get());
  }

  // An execution with a 3x2 input.
  Execution start() {
    Execution execution = newExecution(compilation_.get());
    const OperandType typeOwner = floatTensor({3, 2});
    const ANeuralNetworksOperandType type = typeOwner.get();
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksExecution_setInput(execution.get(), 0, &type, input_.data(),
                                                sizeof(input_)));
    return execution;
  }

  std::array<float, 6> input_ = {0.5f, 1.5f, -2.5f, 3.0f, -0.25f, 9.75f};
  Model model_;
  Compilation compilation_;
};

TEST_P(DynamicShapeTest, InputDimensionsMustBeGivenAtExecutionTime) {
  Execution execution = newExecution(compilation_.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, input_.data(),
                                              sizeof(input_)));
  const OperandType partialOwner = floatTensor({0, 2});
  const ANeuralNetworksOperandType partial = partialOwner.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInput(execution.get(), 0, &partial, input_.data(),
                                              sizeof(input_)));
  const OperandType wrongLengthOwner = floatTensor({2, 2});
  const ANeuralNetworksOperandType wrongLength = wrongLengthOwner.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInput(execution.get(), 0, &wrongLength, input_.data(),
                                              sizeof(input_)));
}

TEST_P(DynamicShapeTest, InsufficientOutputReportsTheRealDimensions) {
  Execution execution = start();
  std::array<float, 2> small{};
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, small.data(), sizeof(small)));
  EXPECT_NN(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE,
            ANeuralNetworksExecution_compute(execution.get()));
  uint32_t rank = 0;
  uint32_t dims[2] = {};
  EXPECT_NN(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE,
            ANeuralNetworksExecution_getOutputOperandRank(execution.get(), 0, &rank));
  EXPECT_NN(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE,
            ANeuralNetworksExecution_getOutputOperandDimensions(execution.get(), 0, dims));
  EXPECT_EQ(rank, 2u);
  EXPECT_EQ(dims[0], 3u);
  EXPECT_EQ(dims[1], 2u);
  // No durations for a computation that did not complete normally.
  uint64_t duration = 0;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_getDuration(execution.get(), 0, &duration));

  // With the reported size the computation succeeds.
  Execution retry = start();
  std::array<float, 6> output{};
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(retry.get(), 0, nullptr, output.data(), sizeof(output)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(retry.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_getOutputOperandDimensions(retry.get(), 0, dims));
  EXPECT_EQ(dims[0], 3u);
  EXPECT_EQ(dims[1], 2u);
  const std::array<float, 6> expected = {0.0f, 1.0f, -3.0f, 3.0f, -1.0f, 9.0f};
  EXPECT_EQ(output, expected);
}

TEST_P(DynamicShapeTest, ReusableExecutionFollowsTheOutputSize) {
  Execution execution = start();
  ASSERT_OK(ANeuralNetworksExecution_setReusable(execution.get(), true));
  std::array<float, 6> output{};
  ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                               sizeof(output)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution.get()));
  uint32_t rank = 0;
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_getOutputOperandRank(execution.get(), 0, &rank));
  EXPECT_EQ(rank, 2u);
}

TEST_P(DynamicShapeTest, FencedComputationNeedsFullySpecifiedOutputs) {
  Execution execution = start();
  std::array<float, 6> output{};
  ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                               sizeof(output)));
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_startComputeWithDependencies(
                                          execution.get(), nullptr, 0, 0, &event));
  EXPECT_EQ(event, nullptr);
  // The output dims given at execution time make it fully specified.
  Execution specified = start();
  const OperandType typeOwner = floatTensor({3, 2});
  const ANeuralNetworksOperandType type = typeOwner.get();
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(specified.get(), 0, &type, output.data(), sizeof(output)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_startComputeWithDependencies(
                                          specified.get(), nullptr, 0, 0, &event));
  Event owned(event);
  EXPECT_EQ(ANeuralNetworksEvent_wait(owned.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(output[2], -3.0f);
}

INSTANTIATE_TEST_SUITE_P(UnknownDimsOrRank, DynamicShapeTest,
                         ::testing::Values(std::vector<uint32_t>{0, 0}, std::vector<uint32_t>{}),
                         [](const auto& info) { return info.param.empty() ? "Rank" : "Dims"; });

}  // namespace
}  // namespace annrt::test
