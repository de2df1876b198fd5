// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksEvent_* with startCompute and startComputeWithDependencies.
// Linux has no Android sync fences: an eventfd, readable once signalled,
// plays one, and fenced executions hand out such fds.
#include <poll.h>

#include <future>
#include <thread>

#include "test_models.h"

namespace annrt::test {
namespace {

bool isSignalled(int fd) {
  pollfd descriptor{fd, POLLIN, 0};
  return poll(&descriptor, 1, 0) == 1 && (descriptor.revents & POLLIN);
}

using EventTest = FloorTest;

TEST_F(EventTest, NullArguments) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksEvent_wait(nullptr));
  ANeuralNetworksEvent_free(nullptr);  // documented as a no-op
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_startCompute(nullptr, &event));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_startCompute(execution_.get(), nullptr));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksEvent_createFromSyncFenceFd(0, nullptr));
  int fd = 0;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksEvent_getSyncFenceFd(nullptr, &fd));
  EXPECT_EQ(fd, -1);

  Fence fence;
  Event dependency = fence.event();
  const ANeuralNetworksEvent* dependencies[] = {dependency.get(), nullptr};
  ANeuralNetworksExecution* e = execution_.get();
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksEvent_getSyncFenceFd(dependency.get(), nullptr));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksExecution_startComputeWithDependencies(
                                                 nullptr, dependencies, 1, 0, &event));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_startComputeWithDependencies(e, nullptr, 1, 0, &event));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_startComputeWithDependencies(e, dependencies, 2, 0, &event));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_startComputeWithDependencies(e, dependencies, 1, 0, nullptr));
  EXPECT_EQ(event, nullptr);
  // None of this started the execution.
  bind(e);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(e));
  expectFloored();
}

TEST_F(EventTest, StartComputeThenWait) {
  ANeuralNetworksEvent* raw = nullptr;
  // Nothing bound yet: rejected, the event is left null, and (as AOSP) the
  // refused computation completes that execution.
  Execution unbound = newExecution(compilation_.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_startCompute(unbound.get(), &raw));
  EXPECT_EQ(raw, nullptr);
  bind(execution_.get());
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_startCompute(execution_.get(), &raw));
  Event event(raw);
  ASSERT_NE(event, nullptr);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_wait(event.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_wait(event.get()));  // again
  expectFloored();
  // A plain asynchronous computation has no sync fence.
  int fd = 0;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksEvent_getSyncFenceFd(event.get(), &fd));
  EXPECT_EQ(fd, -1);
}

TEST_F(EventTest, ManyThreadsMayWaitOnOneEvent) {
  bind(execution_.get());
  Fence fence;
  Event dependency = fence.event();
  const ANeuralNetworksEvent* dependencies[] = {dependency.get()};
  ANeuralNetworksEvent* raw = nullptr;
  ASSERT_OK(ANeuralNetworksExecution_startComputeWithDependencies(execution_.get(), dependencies, 1,
                                                                  0, &raw));
  Event event(raw);
  std::vector<std::future<int>> waiters;
  waiters.reserve(4);
  for (int i = 0; i < 4; ++i) {
    waiters.push_back(std::async(std::launch::async,
                                 [&event] { return ANeuralNetworksEvent_wait(event.get()); }));
  }
  fence.signal();
  for (auto& waiter : waiters) EXPECT_EQ(waiter.get(), ANEURALNETWORKS_NO_ERROR);
  expectFloored();
}

// Freeing an event waits for its computation; the execution is then complete.
TEST_F(EventTest, FreeWithoutWaiting) {
  bind(execution_.get());
  ANeuralNetworksEvent* raw = nullptr;
  ASSERT_OK(ANeuralNetworksExecution_startCompute(execution_.get(), &raw));
  ANeuralNetworksEvent_free(raw);
  uint32_t rank = 0;
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_getOutputOperandRank(execution_.get(), 0, &rank));
  expectFloored();
}

TEST_F(EventTest, CreateFromSyncFenceFd) {
  ANeuralNetworksEvent* raw = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksEvent_createFromSyncFenceFd(-1, &raw));
  EXPECT_EQ(raw, nullptr);
  auto fence = std::make_unique<Fence>();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksEvent_createFromSyncFenceFd(fence->fd(), &raw));
  Event event(raw);
  // The event owns a duplicate, handed out again as another duplicate.
  int fd = -1;
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_getSyncFenceFd(event.get(), &fd));
  ASSERT_GE(fd, 0);
  EXPECT_NE(fd, fence->fd());
  EXPECT_FALSE(isSignalled(fd));
  fence->signal();
  EXPECT_TRUE(isSignalled(fd));
  close(fd);
  fence.reset();  // closes the original fd
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_wait(event.get()));
}

TEST_F(EventTest, FencedComputationWaitsForItsDependencies) {
  bind(execution_.get());
  Fence first, second;
  Event a = first.event();
  Event b = second.event();
  const ANeuralNetworksEvent* dependencies[] = {a.get(), b.get()};
  ANeuralNetworksEvent* raw = nullptr;
  ASSERT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_startComputeWithDependencies(
                                          execution_.get(), dependencies, 2, 0, &raw));
  Event event(raw);
  // The application may free the dependency events once the call returned.
  a.reset();
  b.reset();
  int fd = -1;
  ASSERT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_getSyncFenceFd(event.get(), &fd));
  first.signal();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(isSignalled(fd));  // still waiting for the second
  EXPECT_EQ(output_, (std::array<float, 4>{}));
  second.signal();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_wait(event.get()));
  EXPECT_TRUE(isSignalled(fd));
  close(fd);
  expectFloored();
}

// Two fenced executions chained through an event: floor(floor(x)) lands in
// the second's output only after the first completed.
TEST_F(EventTest, ChainedFencedExecutions) {
  bind(execution_.get());
  Fence start;
  Event gate = start.event();
  const ANeuralNetworksEvent* first[] = {gate.get()};
  ANeuralNetworksEvent* raw = nullptr;
  ASSERT_OK(
      ANeuralNetworksExecution_startComputeWithDependencies(execution_.get(), first, 1, 0, &raw));
  Event firstDone(raw);
  Execution next = newExecution(compilation_.get());
  std::array<float, 4> final{};
  ASSERT_OK(
      ANeuralNetworksExecution_setInput(next.get(), 0, nullptr, output_.data(), sizeof(output_)));
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(next.get(), 0, nullptr, final.data(), sizeof(final)));
  const ANeuralNetworksEvent* second[] = {firstDone.get()};
  ASSERT_OK(ANeuralNetworksExecution_startComputeWithDependencies(next.get(), second, 1, 0, &raw));
  Event secondDone(raw);
  start.signal();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_wait(secondDone.get()));
  EXPECT_EQ(final, kFloored);
}

// A dependency that fails makes the dependent computation fail.
TEST_F(EventTest, FailedDependencyFailsTheComputation) {
  Memory uninitialized = deviceMemory({{compilation_.get(), true}});
  Execution failing = newExecution(compilation_.get());
  ASSERT_OK(ANeuralNetworksExecution_setInputFromMemory(failing.get(), 0, nullptr,
                                                        uninitialized.get(), 0, 0));
  std::array<float, 4> unused{};
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(failing.get(), 0, nullptr, unused.data(), sizeof(unused)));
  ANeuralNetworksEvent* raw = nullptr;
  const int started =
      ANeuralNetworksExecution_startComputeWithDependencies(failing.get(), nullptr, 0, 0, &raw);
  Event failed(raw);
  if (started != ANEURALNETWORKS_NO_ERROR) {
    SUCCEED() << "rejected at once: " << resultName(started);
    return;
  }
  EXPECT_NE(ANeuralNetworksEvent_wait(failed.get()), ANEURALNETWORKS_NO_ERROR);
  bind(execution_.get());
  const ANeuralNetworksEvent* dependencies[] = {failed.get()};
  const int result = ANeuralNetworksExecution_startComputeWithDependencies(
      execution_.get(), dependencies, 1, 0, &raw);
  Event dependent(raw);
  if (result == ANEURALNETWORKS_NO_ERROR) {
    EXPECT_NE(ANeuralNetworksEvent_wait(dependent.get()), ANEURALNETWORKS_NO_ERROR);
  } else {
    EXPECT_EQ(dependent, nullptr);
  }
}

}  // namespace
}  // namespace annrt::test
