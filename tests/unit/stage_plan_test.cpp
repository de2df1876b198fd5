// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's stage plans: which operations go to the thread pool, and that
// no cut separates what XNNPACK fuses. The cost model is tested on XNNPACK's
// nodes alone (nativeKernels false): which native kernels a host's column
// of the table uses would change the stages (native_stage_test.cpp plans
// those).
#include "drivers/cpu/stage_plan.h"

#include <gtest/gtest.h>

#include "cpu_test_models.h"

namespace annrt::cpu {
namespace {

using test::InternalModel;

std::vector<uint32_t> range(uint32_t first, uint32_t last) {
  std::vector<uint32_t> values;
  for (uint32_t i = first; i <= last; ++i) values.push_back(i);
  return values;
}

TEST(StagePlanTest, ThreadsTheHeavyHeadAndRunsTheLightTailOnTheCallingThread) {
  const auto model = test::headAndTailModel();
  const std::vector<PlannedStage> plan = planStages(*model, 3.0, 2, false).stages;
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].operations, range(0, 0));
  EXPECT_TRUE(plan[0].threaded);
  EXPECT_EQ(plan[1].operations, range(1, 5));
  EXPECT_FALSE(plan[1].threaded);
}

TEST(StagePlanTest, FreeHandOffOrOneThreadMeansOneStage) {
  const auto model = test::headAndTailModel();
  for (const auto& [handOff, threads] : {std::pair{0.0, 2u}, std::pair{3.0, 1u}}) {
    const std::vector<PlannedStage> plan = planStages(*model, handOff, threads, false).stages;
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0].operations, range(0, 5));
    EXPECT_TRUE(plan[0].threaded);
  }
}

// More threads make the pool pay for smaller operations: an 18 us operation
// is not worth a 10 us hand-off on 2 threads (10 + 10 us) but is on 4 (5 + 10).
TEST(StagePlanTest, MoreThreadsThreadSmallerOperations) {
  InternalModel m;
  const uint32_t input = m.tensor({1, 30, 30, 140});  // 126000 elements: about 18 us
  uint32_t x = input;
  for (int i = 0; i < 4; ++i) {
    const uint32_t next = m.tensor({1, 30, 30, 140});
    m.operation(i % 2 ? ANEURALNETWORKS_TANH : ANEURALNETWORKS_LOGISTIC, {x}, {next});
    x = next;
  }
  const auto model = m.finish({input}, {x});
  EXPECT_FALSE(planStages(*model, 10.0, 2).stages[0].threaded);
  EXPECT_TRUE(planStages(*model, 10.0, 4).stages[0].threaded);
}

TEST(StagePlanTest, OnlyLightOperationsMeansOneSerialStage) {
  InternalModel m;
  const uint32_t input = m.tensor({1, 8, 8, 16});
  const uint32_t logistic = m.tensor({1, 8, 8, 16});
  m.operation(ANEURALNETWORKS_LOGISTIC, {input}, {logistic});
  const uint32_t tanh = m.tensor({1, 8, 8, 16});
  m.operation(ANEURALNETWORKS_TANH, {logistic}, {tanh});
  const auto model = m.finish({input}, {tanh});
  const std::vector<PlannedStage> plan = planStages(*model, 3.0, 2).stages;
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_FALSE(plan[0].threaded);
}

// With a costly hand-off the PAD and the RELU alone would run on the calling
// thread, but XNNPACK fuses them into the convolution, so they stay with it.
// The float16 filter's CAST is folded: it is in no stage.
TEST(StagePlanTest, KeepsFusedPadsAndClampsWithTheirConvolutionAndLeavesOutFoldedCasts) {
  const auto model = test::padConvReluModel();
  const std::vector<PlannedStage> plan = planStages(*model, 8.0, 2, false).stages;
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].operations, (std::vector<uint32_t>{0, 2, 3}));  // PAD, CONV_2D, RELU
  EXPECT_TRUE(plan[0].threaded);
  EXPECT_EQ(plan[1].operations, range(4, 8));
  EXPECT_FALSE(plan[1].threaded);
}

}  // namespace
}  // namespace annrt::cpu
