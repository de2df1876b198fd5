// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksBurst_* and ANeuralNetworksExecution_burstCompute: a burst
// serves executions of its own compilation, one at a time.
#include <future>

#include "test_models.h"

namespace annrt::test {
namespace {

class BurstTest : public FloorTest {
 protected:
  void SetUp() override {
    FloorTest::SetUp();
    burst_ = newBurst(compilation_.get());
  }
  Burst burst_;
};

TEST_F(BurstTest, CreateChecksNullsAndAnUnfinishedCompilation) {
  ANeuralNetworksBurst* burst = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksBurst_create(nullptr, &burst));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksBurst_create(compilation_.get(), nullptr));
  Compilation unfinished = compile(model_.get(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksBurst_create(unfinished.get(), &burst));
  EXPECT_EQ(burst, nullptr);
  ANeuralNetworksBurst_free(nullptr);  // documented as a no-op
}

TEST_F(BurstTest, ComputeChecksNullsAndTheCompilation) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_burstCompute(execution_.get(), nullptr));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksExecution_burstCompute(nullptr, burst_.get()));
  // An execution of another compilation, even of the same model.
  Compilation other = compile(model_.get());
  Execution foreign = newExecution(other.get());
  bind(foreign.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_burstCompute(foreign.get(), burst_.get()));
  // Neither object was spent by the rejection.
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(foreign.get()));
  bind(execution_.get());
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_burstCompute(execution_.get(), burst_.get()));
  expectFloored();
}

TEST_F(BurstTest, ServesManyExecutionsInTurn) {
  for (int i = 0; i < 3; ++i) {
    Execution execution = newExecution(compilation_.get());
    output_.fill(0.0f);
    bind(execution.get());
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksExecution_burstCompute(execution.get(), burst_.get()));
    expectFloored();
    // Not reusable: a second burst computation is refused.
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
              ANeuralNetworksExecution_burstCompute(execution.get(), burst_.get()));
  }
}

TEST_F(BurstTest, ReusableExecutionComputesRepeatedly) {
  ASSERT_OK(ANeuralNetworksExecution_setReusable(execution_.get(), true));
  bind(execution_.get());
  for (int i = 0; i < 3; ++i) {
    output_.fill(0.0f);
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksExecution_burstCompute(execution_.get(), burst_.get()));
    expectFloored();
  }
}

// Two executions racing on one burst: at least one runs, the other either
// runs after it or is refused with BAD_STATE.
TEST_F(BurstTest, ConcurrentComputationsAreSerializedOrRefused) {
  Execution second = newExecution(compilation_.get());
  std::array<float, 4> secondOutput{};
  bind(execution_.get());
  ASSERT_OK(
      ANeuralNetworksExecution_setInput(second.get(), 0, nullptr, input_.data(), sizeof(input_)));
  ASSERT_OK(ANeuralNetworksExecution_setOutput(second.get(), 0, nullptr, secondOutput.data(),
                                               sizeof(secondOutput)));
  auto compute = [this](ANeuralNetworksExecution* e) {
    return std::async(std::launch::async,
                      [this, e] { return ANeuralNetworksExecution_burstCompute(e, burst_.get()); });
  };
  auto a = compute(execution_.get());
  auto b = compute(second.get());
  const int ra = a.get(), rb = b.get();
  EXPECT_TRUE(ra == ANEURALNETWORKS_NO_ERROR || ra == ANEURALNETWORKS_BAD_STATE) << resultName(ra);
  EXPECT_TRUE(rb == ANEURALNETWORKS_NO_ERROR || rb == ANEURALNETWORKS_BAD_STATE) << resultName(rb);
  EXPECT_TRUE(ra == ANEURALNETWORKS_NO_ERROR || rb == ANEURALNETWORKS_NO_ERROR);
}

// The burst keeps its compilation: the application may free that first, and
// memories used by burst computations may go before or after the burst.
TEST_F(BurstTest, FreeingOrder) {
  SharedMemory memory(sizeof(kFloored));
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution_.get(), 0, nullptr, input_.data(),
                                              sizeof(input_)));
  ASSERT_OK(ANeuralNetworksExecution_setOutputFromMemory(execution_.get(), 0, nullptr, memory.get(),
                                                         0, sizeof(kFloored)));
  compilation_.reset();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_burstCompute(execution_.get(), burst_.get()));
  EXPECT_TRUE(std::equal(kFloored.begin(), kFloored.end(), memory.floats()));
  execution_.reset();
  memory.freeMemory();
  burst_.reset();
}

}  // namespace
}  // namespace annrt::test
