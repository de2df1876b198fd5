// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's staged graphs: however a partition is cut into stages, and
// whichever stages are threaded, it computes what the partition compiled
// whole computes, to the bit (same kernels, same order of arithmetic).
#include "drivers/cpu/staged_graph.h"

#include <gtest/gtest.h>

#include "cpu_test_models.h"
#include "drivers/cpu/operation_profiler.h"

namespace annrt::cpu {
namespace {

struct Outputs {
  std::vector<float> conv = std::vector<float>(test::kHeadElements);
  std::vector<float> tanh = std::vector<float>(test::kTailElements);
};

Outputs run(StagedGraph& graph, const std::vector<float>& input, bool threaded = true) {
  Outputs outputs;
  const Result<void> ran =
      graph.run({input.data()}, {outputs.conv.data(), outputs.tanh.data()}, threaded);
  EXPECT_TRUE(ran.ok()) << (ran.ok() ? "" : ran.error().message);
  return outputs;
}

// Stages chosen here, with XNNPACK's fusions (none of them native).
StagePlan xnnpackStages(const Model& model, std::vector<PlannedStage> stages) {
  return {std::make_shared<const FusionPlan>(model), std::move(stages)};
}

std::unique_ptr<StagedGraph> compilePlan(StagePlan plan) {
  Result<std::unique_ptr<StagedGraph>> graph =
      StagedGraph::compile(test::headAndTailModel(), std::move(plan), sharedThreadPool(2));
  EXPECT_TRUE(graph.ok()) << (graph.ok() ? "" : graph.error().message);
  return graph.ok() ? std::move(*graph) : nullptr;
}

std::unique_ptr<StagedGraph> compile(std::vector<PlannedStage> stages) {
  return compilePlan(xnnpackStages(*test::headAndTailModel(), std::move(stages)));
}

// Under load a run leaves the pool (cpu_load.h): the XNNPACK stages switch to
// a second runtime without it, the native ones run inline; same results, and
// runs may go back and forth.
TEST(StagedGraphTest, RunsOnTheCallingThreadAloneComputeTheSame) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::vector<float> input = test::seededValues(test::kHeadElements, 5);
  auto staged = compile({{{0}, true}, {{1, 2, 3}, false}, {{4, 5}, true}});
  ASSERT_NE(staged, nullptr);
  const Outputs pooled = run(*staged, input, true);
  for (bool threaded : {false, true, false}) {
    const Outputs outputs = run(*staged, input, threaded);
    EXPECT_EQ(outputs.conv, pooled.conv) << "threaded " << threaded;
    EXPECT_EQ(outputs.tanh, pooled.tanh) << "threaded " << threaded;
  }
  // Other buffers: the second runtime is set up for them too.
  const std::vector<float> other = test::seededValues(test::kHeadElements, 6);
  const Outputs otherPooled = run(*staged, other, true);
  const Outputs otherInline = run(*staged, other, false);
  EXPECT_EQ(otherInline.conv, otherPooled.conv);
  EXPECT_EQ(otherInline.tanh, otherPooled.tanh);
  EXPECT_NE(otherInline.tanh, pooled.tanh);
}

TEST(StagedGraphTest, OnlyARunWithoutThePoolCreatesTheSecondRuntime) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  Result<std::unique_ptr<CompiledGraph>> graph =
      CompiledGraph::compile(test::headAndTailModel(), sharedThreadPool(2));
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  const std::vector<float> input = test::seededValues(test::kHeadElements, 8);
  Outputs first, second;
  ASSERT_TRUE((*graph)->run({input.data()}, {first.conv.data(), first.tanh.data()}, true).ok());
  EXPECT_FALSE((*graph)->hasInlineRuntime());
  ASSERT_TRUE((*graph)->run({input.data()}, {second.conv.data(), second.tanh.data()}, false).ok());
  EXPECT_TRUE((*graph)->hasInlineRuntime());
  EXPECT_EQ(second.conv, first.conv);
  EXPECT_EQ(second.tanh, first.tanh);
}

TEST(StagedGraphTest, StagesComputeWhatTheWholePartitionComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::vector<float> input = test::seededValues(test::kHeadElements, 7);
  auto whole = compile({{{0, 1, 2, 3, 4, 5}, true}});
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(whole->stageCount(), 1u);
  const Outputs expected = run(*whole, input);

  // Threaded, serial, threaded: the convolution's output (a model output)
  // and the pooled tensor (made in stage 1, read in stage 2) cross stages.
  auto staged = compile({{{0}, true}, {{1, 2, 3}, false}, {{4, 5}, true}});
  ASSERT_NE(staged, nullptr);
  EXPECT_EQ(staged->stageCount(), 3u);
  for (int repeat = 0; repeat < 2; ++repeat) {
    const Outputs outputs = run(*staged, input);
    EXPECT_EQ(outputs.conv, expected.conv);
    EXPECT_EQ(outputs.tanh, expected.tanh);
  }

  // And the plan the cost model makes (on XNNPACK's nodes: stage_plan_test.cpp).
  auto planned = compilePlan(planStages(*test::headAndTailModel(), 3.0, 2, false));
  ASSERT_NE(planned, nullptr);
  EXPECT_EQ(planned->stageCount(), 2u);
  const Outputs fromPlan = run(*planned, input);
  EXPECT_EQ(fromPlan.conv, expected.conv);
  EXPECT_EQ(fromPlan.tanh, expected.tanh);
}

TEST(StagedGraphTest, ProfilerTimesEveryOperationOfEveryStage) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  auto staged = compile({{{0}, true}, {{1, 2, 3, 4, 5}, false}});
  ASSERT_NE(staged, nullptr);
  Result<std::unique_ptr<OperationProfiler>> profiler = OperationProfiler::create(*staged);
  ASSERT_TRUE(profiler.ok()) << profiler.error().message;
  const std::vector<float> input = test::seededValues(test::kHeadElements, 7);
  Outputs profiled;
  std::vector<uint64_t> operationNs;
  ASSERT_TRUE(
      (*profiler)
          ->run({input.data()}, {profiled.conv.data(), profiled.tanh.data()}, true, operationNs)
          .ok());
  ASSERT_EQ(operationNs.size(), 6u);
  for (uint64_t ns : operationNs) EXPECT_GT(ns, 0u);
  const Outputs expected = run(*staged, input);
  EXPECT_EQ(profiled.conv, expected.conv);
  EXPECT_EQ(profiled.tanh, expected.tanh);
}

// XNNPACK fuses the PAD and the RELU into the convolution: the profiler times
// the three together and gives the time to the convolution.
TEST(StagedGraphTest, ProfilerGivesFusedOperationsTimeToTheirNode) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::shared_ptr<const Model> model = test::padConvReluModel();
  Result<std::unique_ptr<StagedGraph>> graph = StagedGraph::compile(
      model, xnnpackStages(*model, {{{0, 2, 3, 4, 5, 6, 7, 8}, true}}), sharedThreadPool(2));
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  Result<std::unique_ptr<OperationProfiler>> profiler = OperationProfiler::create(**graph);
  ASSERT_TRUE(profiler.ok()) << profiler.error().message;
  const std::vector<float> input = test::seededValues(size_t{62} * 62 * 16, 3);
  std::vector<float> output(16), profiled(16);
  std::vector<uint64_t> operationNs;
  ASSERT_TRUE((*profiler)->run({input.data()}, {profiled.data()}, true, operationNs).ok());
  ASSERT_EQ(operationNs.size(), 9u);
  EXPECT_EQ(operationNs[0], 0u);  // PAD
  EXPECT_EQ(operationNs[1], 0u);  // folded CAST
  EXPECT_GT(operationNs[2], 0u);  // CONV_2D
  EXPECT_EQ(operationNs[3], 0u);  // RELU
  for (size_t op = 4; op < 9; ++op) EXPECT_GT(operationNs[op], 0u);
  ASSERT_TRUE((*graph)->run({input.data()}, {output.data()}).ok());
  EXPECT_EQ(profiled, output);
}

}  // namespace
}  // namespace annrt::cpu
