// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Timeouts under load: while one spinning thread per core keeps every core
// busy, a WHILE loop that never ends is stopped by setTimeout, by the duration
// of startComputeWithDependencies and by setLoopTimeout, each with
// ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT (AOSP's code for a passed deadline
// and for a loop timeout alike: CpuExecutor and ExecutionPlan), no earlier
// than the timeout and at most kSlack after it (docs/reliability.md).
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "api/test_models.h"
#include "common/device_lookup.h"

namespace annrt::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kTimeout = 100ms;
// What a timeout may be overrun by: the loop checks the clock every iteration
// (microseconds), but the executing thread competes with the load for a core,
// and under TSan or ASan on a 2-core CI machine iterations are 5-20x slower.
constexpr auto kSlack = 400ms;
constexpr uint64_t kTimeoutNs = std::chrono::nanoseconds(kTimeout).count();
const std::vector<uint32_t> kLoopDims = {4};

// One thread per core spinning until destroyed.
class CoreLoad {
 public:
  CoreLoad() {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cores; ++i) {
      threads_.emplace_back([this] {
        volatile double sink = 1.0;
        while (!stop_.load(std::memory_order_relaxed)) sink = sink * 1.0000001 + 1e-9;
      });
    }
  }
  ~CoreLoad() {
    stop_ = true;
    for (std::thread& thread : threads_) thread.join();
  }
  CoreLoad(const CoreLoad&) = delete;
  CoreLoad& operator=(const CoreLoad&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

class TimeoutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    reference_ = findDevice("nnapi-reference");
    ASSERT_NE(reference_, nullptr);
    ASSERT_FALSE(HasFailure());
  }

  // A never-ending loop's execution on nnapi-reference alone (timeouts need
  // one device), or on what ANeuralNetworksCompilation_create picks.
  Execution loopExecution(bool singleDevice) {
    compilation_ = singleDevice ? compileForDevices(loop_.main.get(), {reference_})
                                : compile(loop_.main.get());
    Execution execution = newExecution(compilation_.get());
    EXPECT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, input_.data(),
                                                sizeof(input_)));
    EXPECT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output_.data(),
                                                 sizeof(output_)));
    return execution;
  }

  // `run` must return MISSED_DEADLINE_TRANSIENT between kTimeout and kTimeout + kSlack.
  template <typename Run>
  void expectStoppedInTime(Run&& run) {
    const auto start = Clock::now();
    const int code = run();
    const auto elapsed = Clock::now() - start;
    std::printf("stopped after %.1f ms\n",
                std::chrono::duration<double, std::milli>(elapsed).count());
    EXPECT_EQ(code, ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT) << resultName(code);
    EXPECT_GE(elapsed, kTimeout);
    EXPECT_LE(elapsed, kTimeout + kSlack)
        << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() << " ms";
  }

  // What `start` (which hands out an event) returned, else the event's result.
  template <typename Start>
  static int startAndWait(Start&& start) {
    ANeuralNetworksEvent* raw = nullptr;
    const int started = start(&raw);
    if (started != ANEURALNETWORKS_NO_ERROR) return started;
    Event event(raw);
    return ANeuralNetworksEvent_wait(event.get());
  }

  const WhileLoop loop_ = whileLoopModel(kLoopDims, 1.0f, 0.0f);
  const ANeuralNetworksDevice* reference_ = nullptr;
  Compilation compilation_;
  std::array<float, 4> input_ = kInput;
  std::array<float, 4> output_{};
  CoreLoad load_;
};

TEST_F(TimeoutTest, ExecutionTimeoutStopsANeverEndingLoop) {
  Execution execution = loopExecution(true);
  ASSERT_OK(ANeuralNetworksExecution_setTimeout(execution.get(), kTimeoutNs));
  expectStoppedInTime([&] { return ANeuralNetworksExecution_compute(execution.get()); });
}

TEST_F(TimeoutTest, ExecutionTimeoutHoldsForStartCompute) {
  Execution execution = loopExecution(true);
  ASSERT_OK(ANeuralNetworksExecution_setTimeout(execution.get(), kTimeoutNs));
  expectStoppedInTime([&] {
    return startAndWait([&](ANeuralNetworksEvent** event) {
      return ANeuralNetworksExecution_startCompute(execution.get(), event);
    });
  });
}

TEST_F(TimeoutTest, FencedDurationStopsANeverEndingLoop) {
  Execution execution = loopExecution(true);
  expectStoppedInTime([&] {
    return startAndWait([&](ANeuralNetworksEvent** event) {
      return ANeuralNetworksExecution_startComputeWithDependencies(execution.get(), nullptr, 0,
                                                                   kTimeoutNs, event);
    });
  });
}

TEST_F(TimeoutTest, LoopTimeoutStopsANeverEndingLoop) {
  for (const bool singleDevice : {true, false}) {
    Execution execution = loopExecution(singleDevice);
    ASSERT_OK(ANeuralNetworksExecution_setLoopTimeout(execution.get(), kTimeoutNs));
    expectStoppedInTime([&] { return ANeuralNetworksExecution_compute(execution.get()); });
  }
}

// annrt-cpu runs to the end once started, but refuses a run whose deadline
// has passed (as AOSP's sample driver does, with MISSED_DEADLINE_PERSISTENT).
TEST_F(TimeoutTest, AnnrtCpuRefusesARunPastItsDeadline) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  ASSERT_NE(cpu, nullptr);
  const Model floor = floorModel();
  compilation_ = compileForDevices(floor.get(), {cpu});
  for (const uint64_t timeoutNs : {uint64_t{1}, uint64_t{60'000'000'000}}) {
    Execution execution = newExecution(compilation_.get());
    ASSERT_OK(ANeuralNetworksExecution_setTimeout(execution.get(), timeoutNs));
    std::array<float, 4> output{};
    ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, kInput.data(),
                                                sizeof(kInput)));
    ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                                 sizeof(output)));
    if (timeoutNs == 1) {
      EXPECT_NN(ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT,
                ANeuralNetworksExecution_compute(execution.get()));
    } else {
      EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution.get()));
      EXPECT_EQ(output, kFloored);
    }
  }
}

// The error reaches the application as a logged failure of the call.
TEST_F(TimeoutTest, MissedDeadlineIsLogged) {
  Execution execution = loopExecution(true);
  ASSERT_OK(ANeuralNetworksExecution_setLoopTimeout(execution.get(), kTimeoutNs));
  EXPECT_NN(ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT,
            ANeuralNetworksExecution_compute(execution.get()));
}

}  // namespace
}  // namespace annrt::test
