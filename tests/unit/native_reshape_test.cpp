// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Reshapes after annrt-cpu's own kernels (native_reshape.cpp): where the
// table's column uses the native copy, the operation before a reshape runs
// natively and the reshape is a native node of its own; elsewhere both stay
// on XNNPACK, which joins a reshape to the node before it (fusion.h). The
// staged graph computes what XNNPACK computes either way.
#include <gtest/gtest.h>

#include <string>

#include "cpu_test_models.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/staged_graph.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

constexpr uint32_t kSide = 12, kChannels = 16;
constexpr size_t kElements = size_t{kSide} * kSide * kChannels;

// 0 DEPTHWISE_CONV_2D 3x3 of 16 channels (a form every x86 column uses),
// 1 RESHAPE of its output to [1, 144, 16], 2 SQUEEZE of that to [144, 16].
std::shared_ptr<const Model> depthwiseThenReshapes() {
  test::InternalModel m;
  const uint32_t input = m.tensor({1, kSide, kSide, kChannels});
  const uint32_t conv = m.tensor({1, kSide, kSide, kChannels});
  m.operation(
      ANEURALNETWORKS_DEPTHWISE_CONV_2D,
      {input, m.constant({1, 3, 3, kChannels}, test::seededValues(size_t{9} * kChannels, 1)),
       m.constant({kChannels}, test::seededValues(kChannels, 2)),
       m.int32(ANEURALNETWORKS_PADDING_SAME), m.int32(1), m.int32(1), m.int32(1),
       m.int32(ANEURALNETWORKS_FUSED_RELU6)},
      {conv});
  const uint32_t flat = m.tensor({1, kSide * kSide, kChannels});
  const std::vector<int32_t> dims = {1, static_cast<int32_t>(kSide * kSide), kChannels};
  std::vector<uint8_t> bytes(dims.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), dims.data(), bytes.size());
  m.operation(ANEURALNETWORKS_RESHAPE,
              {conv, m.constantBytes({3}, ANEURALNETWORKS_TENSOR_INT32, bytes)}, {flat});
  const uint32_t squeezed = m.tensor({kSide * kSide, kChannels});
  m.operation(ANEURALNETWORKS_SQUEEZE, {flat}, {squeezed});
  return m.finish({input}, {squeezed});
}

TEST(NativeReshapeTest, FollowsANativeOperationWhereTheTableSays) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::shared_ptr<const Model> model = depthwiseThenReshapes();
  const std::vector<float> input = test::seededValues(kElements, 3);
  auto xnnpack = CompiledGraph::compile(model, nullptr);
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
  const std::vector<float> expected = runStage(**xnnpack, input, kElements);
  for (NativeIsa isa : runnableIsas()) {
    if (isa == NativeIsa::BASELINE) continue;  // no column uses its depthwise
    SCOPED_TRACE(std::string(nativeIsaName(isa)));
    const ScopedNativeIsa scoped(isa, isa);
    const bool nativeReshapes = nativeFormUse(NativeForm::RESHAPE) != NativeUse::NO;
    const StagePlan plan = planStages(*model, 0, 1);
    if (nativeReshapes) {
      // A node each: the convolution, then each reshape as a copy.
      ASSERT_EQ(plan.stages.size(), 3u);
      for (const PlannedStage& stage : plan.stages) EXPECT_TRUE(stage.native);
    } else {
      ASSERT_EQ(plan.stages.size(), 1u);
      EXPECT_FALSE(plan.stages[0].native);
    }
    auto graph = StagedGraph::compile(model, plan, sharedThreadPool(2));
    ASSERT_TRUE(graph.ok()) << graph.error().message;
    std::vector<float> output(kElements);
    ASSERT_TRUE((*graph)->run({input.data()}, {output.data()}).ok());
    expectNear(output, expected);
  }
}

// Alone, a copy is no faster than XNNPACK's: a reshape nothing native comes
// before stays there.
TEST(NativeReshapeTest, AloneStaysOnXnnpack) {
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 4, 4, 8});
  const uint32_t output = m.tensor({16, 8});
  m.operation(ANEURALNETWORKS_SQUEEZE, {input}, {output});
  const std::shared_ptr<const Model> model = m.finish({input}, {output});
  const ScopedNativeIsa scoped(hostNativeIsa(), NativeIsa::AVX512);
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 1u);
  EXPECT_FALSE(plan.stages[0].native);
}

}  // namespace
}  // namespace annrt::cpu
