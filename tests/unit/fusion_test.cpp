// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's fusion plan: the role of each operation and the node it
// belongs to, XNNPACK's fusions and then the folds of its own kernels.
#include "drivers/cpu/fusion.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cpu_test_models.h"
#include "drivers/cpu/native_kernel_table.h"

namespace annrt::cpu {
namespace {

using test::InternalModel;

constexpr uint32_t kDims = 8;  // [1, 8, 8, 8] tensors

// A 3x3 CONV_2D of `input` to [1, 8, 8, 8]: SAME on an 8x8x8 input, VALID
// on a 10x10x8 one (`padded` by 1 on each side).
uint32_t addConv(InternalModel& m, uint32_t input, bool padded = false) {
  const int32_t padding = padded ? ANEURALNETWORKS_PADDING_VALID : ANEURALNETWORKS_PADDING_SAME;
  return test::addConv(m, input, m.constant({8, 3, 3, 8}, test::seededValues(size_t{8} * 9 * 8, 1)),
                       {1, kDims, kDims, 8}, padding, ANEURALNETWORKS_FUSED_NONE);
}

uint32_t addUnary(InternalModel& m, ANeuralNetworksOperationType type, uint32_t input) {
  const uint32_t output = m.tensor({1, kDims, kDims, 8});
  m.operation(type, {input}, {output});
  return output;
}

uint32_t addSum(InternalModel& m, uint32_t a, uint32_t b) {
  const uint32_t sum = m.tensor({1, kDims, kDims, 8});
  m.operation(ANEURALNETWORKS_ADD, {a, b, m.int32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
  return sum;
}

// The global AVERAGE_POOL_2D of a [1, 8, 8, 8] tensor.
uint32_t addAverage(InternalModel& m, uint32_t input) {
  const uint32_t average = m.tensor({1, 1, 1, 8});
  m.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {input, m.int32(ANEURALNETWORKS_PADDING_VALID), m.int32(1), m.int32(1),
               m.int32(kDims), m.int32(kDims), m.int32(ANEURALNETWORKS_FUSED_NONE)},
              {average});
  return average;
}

constexpr FusionRole NODE = FusionRole::NODE, CLAMP = FusionRole::CLAMP,
                     RESHAPE = FusionRole::RESHAPE, PAD = FusionRole::PAD,
                     HALF_CAST = FusionRole::HALF_CAST, ACTIVATION = FusionRole::ACTIVATION,
                     ADDEND = FusionRole::ADDEND, AVERAGED_ADD = FusionRole::AVERAGED_ADD;

struct Folding {
  FusionRole role;
  uint32_t node;
};

// The role and node of every operation, in order.
void expectFoldings(const FusionPlan& plan, const std::vector<Folding>& expected) {
  ASSERT_EQ(plan.operationCount(), expected.size());
  for (uint32_t op = 0; op < expected.size(); ++op) {
    EXPECT_EQ(plan.role(op), expected[op].role) << "operation " << op;
    EXPECT_EQ(plan.node(op), expected[op].node) << "operation " << op;
  }
}

std::vector<bool> nativeOnly(const Model& model, std::initializer_list<uint32_t> operations) {
  std::vector<bool> native(model.main.operations.size(), false);
  for (uint32_t op : operations) native[op] = true;
  return native;
}

TEST(FusionPlanTest, FoldsAClampIntoTheNodeBeforeIt) {
  InternalModel m;
  const uint32_t input = m.tensor({1, kDims, kDims, 8});
  const uint32_t clamped = addUnary(m, ANEURALNETWORKS_RELU6, addConv(m, input));
  const auto model = m.finish({input}, {addUnary(m, ANEURALNETWORKS_LOGISTIC, clamped)});
  const FusionPlan plan(*model);
  // XNNPACK gives a LOGISTIC no output range: a clamp after it stays a node.
  expectFoldings(plan, {{NODE, 0}, {CLAMP, 0}, {NODE, 2}});
  EXPECT_EQ(plan.staged(), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_FALSE(plan.joinsPrevious(0));
  EXPECT_TRUE(plan.joinsPrevious(1));
  EXPECT_FALSE(plan.joinsPrevious(2));
  EXPECT_TRUE(plan.nativeRunsWhole(0, false)) << "a kernel folds the clamp in";
}

TEST(FusionPlanTest, LeavesAClampOfAnOutputReadTwiceAlone) {
  InternalModel m;
  const uint32_t input = m.tensor({1, kDims, kDims, 8});
  const uint32_t convolved = addConv(m, input);
  const uint32_t clamped = addUnary(m, ANEURALNETWORKS_RELU, convolved);
  const auto model = m.finish({input}, {addSum(m, clamped, convolved)});
  const FusionPlan plan(*model);
  expectFoldings(plan, {{NODE, 0}, {NODE, 1}, {NODE, 2}});
  EXPECT_FALSE(plan.joinsPrevious(1));
}

TEST(FusionPlanTest, FoldsASpatialPadIntoTheConvolutionAfterIt) {
  InternalModel m;
  const uint32_t input = m.tensor({1, kDims, kDims, 8});
  const uint32_t padded = test::addPad(m, input, {1, kDims, kDims, 8}, {0, 0, 1, 1, 1, 1, 0, 0});
  const uint32_t convolved = addConv(m, padded, true);
  const auto model = m.finish({input}, {addUnary(m, ANEURALNETWORKS_RELU, convolved)});
  const FusionPlan plan(*model);
  expectFoldings(plan, {{PAD, 1}, {NODE, 1}, {CLAMP, 1}});
  EXPECT_TRUE(plan.joinsPrevious(1));
  EXPECT_FALSE(plan.nativeRunsWhole(1, false)) << "the PAD joins it from before";
  EXPECT_EQ(plan.nativePad(*model, 1), std::optional<uint32_t>(0));
}

// A PAD along the channels of [1, 8, 8, 4] to 8, added to a convolution, then
// RELU: XNNPACK fuses only the RELU; a native ADD takes the PAD in.
TEST(FusionPlanTest, FoldsAPadIntoANativeAddOnly) {
  InternalModel m;
  const uint32_t input = m.tensor({1, kDims, kDims, 8});
  const uint32_t convolved = addConv(m, input);
  const uint32_t narrow = m.tensor({1, kDims, kDims, 4});
  const uint32_t padded = test::addPad(m, narrow, {1, kDims, kDims, 4}, {0, 0, 0, 0, 0, 0, 0, 4});
  const uint32_t sum = addSum(m, padded, convolved);
  const auto model = m.finish({input, narrow}, {addUnary(m, ANEURALNETWORKS_RELU, sum)});
  FusionPlan plan(*model);
  expectFoldings(plan, {{NODE, 0}, {NODE, 1}, {NODE, 2}, {CLAMP, 2}});
  EXPECT_EQ(plan.nativePad(*model, 2), std::optional<uint32_t>(1));
  EXPECT_EQ(plan.nativePad(*model, 1), std::nullopt);

  // The ADD native without its PAD: nothing more folds.
  FusionPlan addAlone(*model);
  addAlone.foldIntoNative(*model, nativeOnly(*model, {2, 3}));
  expectFoldings(addAlone, {{NODE, 0}, {NODE, 1}, {NODE, 2}, {CLAMP, 2}});

  plan.foldIntoNative(*model, nativeOnly(*model, {1, 2, 3}));
  expectFoldings(plan, {{NODE, 0}, {PAD, 2}, {NODE, 2}, {CLAMP, 2}});
  EXPECT_FALSE(plan.joinsPrevious(1));
  EXPECT_TRUE(plan.joinsPrevious(2));

  // The convolution native too, where the table takes ADDs into kernels:
  // the ADD, its PAD and the clamp after it all go into the convolution.
  const ScopedNativeIsa avx512(hostNativeIsa(), NativeIsa::AVX512);
  FusionPlan allNative(*model);
  allNative.foldIntoNative(*model, nativeOnly(*model, {0, 1, 2, 3}));
  expectFoldings(allNative, {{NODE, 0}, {PAD, 0}, {ADDEND, 0}, {CLAMP, 0}});
  EXPECT_TRUE(allNative.joinsPrevious(1));
}

// A reshape is no node: it goes with the node before it, unless there is
// none or that is a native kernel (which cannot pass it through).
TEST(FusionPlanTest, GivesAReshapeToTheNodeBeforeIt) {
  InternalModel m;
  const std::vector<uint32_t> image = {1, kDims, kDims, 8}, flat = {kDims * kDims * 8};
  const uint32_t input = m.tensor(image);
  const uint32_t back = addReshape(m, addReshape(m, input, flat), image);
  const uint32_t clamped = addUnary(m, ANEURALNETWORKS_RELU, addConv(m, back));
  const auto model = m.finish({input}, {addReshape(m, addReshape(m, clamped, flat), image)});
  FusionPlan plan(*model);
  expectFoldings(plan,
                 {{NODE, 0}, {RESHAPE, 0}, {NODE, 2}, {CLAMP, 2}, {RESHAPE, 2}, {RESHAPE, 2}});
  EXPECT_TRUE(plan.joinsPrevious(1));
  EXPECT_FALSE(plan.joinsPrevious(2));
  EXPECT_TRUE(plan.joinsPrevious(4));

  plan.foldIntoNative(*model, nativeOnly(*model, {2, 3}));
  expectFoldings(plan, {{NODE, 0}, {RESHAPE, 0}, {NODE, 2}, {CLAMP, 2}, {NODE, 4}, {RESHAPE, 4}});
  EXPECT_FALSE(plan.joinsPrevious(4));
  EXPECT_TRUE(plan.joinsPrevious(5));
}

// 0 CONV_2D, 1 HARD_SWISH of it, 2 ADD, 3 LOGISTIC of the sum, 4 CONV_2D, 5
// LOGISTIC of it, 6 ADD of 5 and 4 (the convolution's output read twice), 7
// a reshape of that, 8 CONV_2D, 9 HARD_SWISH, 10 a reshape.
TEST(FusionPlanTest, FoldsAnActivationIntoTheNativeConvolutionBeforeIt) {
  InternalModel m;
  const std::vector<uint32_t> image = {1, kDims, kDims, 8}, flat = {kDims * kDims * 8};
  const uint32_t input = m.tensor(image);
  const uint32_t sum = addSum(m, addUnary(m, ANEURALNETWORKS_HARD_SWISH, addConv(m, input)), input);
  const uint32_t second = addConv(m, addUnary(m, ANEURALNETWORKS_LOGISTIC, sum));
  const uint32_t both = addSum(m, addUnary(m, ANEURALNETWORKS_LOGISTIC, second), second);
  const uint32_t third = addConv(m, addReshape(m, addReshape(m, both, flat), image));
  const auto model =
      m.finish({input}, {addReshape(m, addUnary(m, ANEURALNETWORKS_HARD_SWISH, third), flat)});
  const std::vector<Folding> xnnpack = {{NODE, 0},    {NODE, 1}, {NODE, 2},  {NODE, 3},
                                        {NODE, 4},    {NODE, 5}, {NODE, 6},  {RESHAPE, 6},
                                        {RESHAPE, 6}, {NODE, 9}, {NODE, 10}, {RESHAPE, 10}};
  const ScopedNativeIsa avx512(hostNativeIsa(), NativeIsa::AVX512);
  FusionPlan plan(*model);
  ASSERT_NO_FATAL_FAILURE(expectFoldings(plan, xnnpack));

  FusionPlan convolutionsOnXnnpack(*model);
  convolutionsOnXnnpack.foldIntoNative(*model, nativeOnly(*model, {1, 3, 5}));
  expectFoldings(convolutionsOnXnnpack, xnnpack);

  // Only the activations of a native convolution's output read by nothing
  // else: 1 and 10 (the reshape after it, as after any native kernel, a
  // node of its own), not 3 (of an ADD) or 5; the ADD 2 of the activation
  // 1 and the model's input goes into the convolution too, not the ADD 6
  // (of a LOGISTIC's output).
  plan.foldIntoNative(*model, std::vector<bool>(model->main.operations.size(), true));
  expectFoldings(plan, {{NODE, 0},
                        {ACTIVATION, 0},
                        {ADDEND, 0},
                        {NODE, 3},
                        {NODE, 4},
                        {NODE, 5},
                        {NODE, 6},
                        {NODE, 7},
                        {NODE, 8},
                        {NODE, 9},
                        {ACTIVATION, 9},
                        {NODE, 11}});
  EXPECT_TRUE(plan.joinsPrevious(1));
  EXPECT_TRUE(plan.joinsPrevious(2));

  // The fold is a form of the kernel table: the unmeasured baseline column
  // does not use it.
  const ScopedNativeIsa baseline(hostNativeIsa(), NativeIsa::BASELINE);
  FusionPlan baselinePlan(*model);
  baselinePlan.foldIntoNative(*model, std::vector<bool>(model->main.operations.size(), true));
  EXPECT_EQ(baselinePlan.role(1), NODE);
  EXPECT_EQ(baselinePlan.role(2), NODE);
  EXPECT_EQ(baselinePlan.role(10), NODE);
}

TEST(FusionPlanTest, FoldsAnAddIntoTheNativeAverageAfterIt) {
  InternalModel m;
  const uint32_t input = m.tensor({1, kDims, kDims, 8});
  const uint32_t first =
      addAverage(m, addSum(m, input, addUnary(m, ANEURALNETWORKS_RELU, input)));  // 0-2
  const uint32_t second = addAverage(m, addSum(m, addConv(m, input), input));     // 3-5
  const auto model = m.finish({input}, {first, second});
  const ScopedNativeIsa avx512(hostNativeIsa(), NativeIsa::AVX512);

  // The ADD 1 goes into the average 2 after it; the ADD 4 into the
  // convolution 3 before it, which writes what it adds.
  FusionPlan plan(*model);
  plan.foldIntoNative(*model, std::vector<bool>(model->main.operations.size(), true));
  expectFoldings(plan,
                 {{NODE, 0}, {AVERAGED_ADD, 2}, {NODE, 2}, {NODE, 3}, {ADDEND, 3}, {NODE, 5}});
  EXPECT_TRUE(plan.joinsPrevious(2));

  // Not into an average XNNPACK runs, nor where the table does not use it.
  FusionPlan averagesOnXnnpack(*model);
  averagesOnXnnpack.foldIntoNative(*model, nativeOnly(*model, {0, 1, 3, 4}));
  EXPECT_EQ(averagesOnXnnpack.role(1), NODE);
  const ScopedNativeIsa baseline(hostNativeIsa(), NativeIsa::BASELINE);
  FusionPlan baselinePlan(*model);
  baselinePlan.foldIntoNative(*model, std::vector<bool>(model->main.operations.size(), true));
  EXPECT_EQ(baselinePlan.role(1), NODE);
}

// padConvReluModel: 0 PAD, 1 CAST of float16 weights, 2 CONV_2D, 3 RELU,
// 4 MAX_POOL_2D, 5-8 LOGISTIC and TANH.
TEST(FusionPlanTest, LeavesFoldedCastsOutAndFusesAcrossThem) {
  const auto model = test::padConvReluModel();
  const FusionPlan plan(*model);
  expectFoldings(plan, {{PAD, 2},
                        {HALF_CAST, 1},
                        {NODE, 2},
                        {CLAMP, 2},
                        {NODE, 4},
                        {NODE, 5},
                        {NODE, 6},
                        {NODE, 7},
                        {NODE, 8}});
  EXPECT_EQ(plan.staged(), (std::vector<uint32_t>{0, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_TRUE(plan.joinsPrevious(1)) << "the convolution, after the PAD";
}

TEST(FusionPlanTest, SlicesAStageWithItsNodesRenumbered) {
  const auto model = test::padConvReluModel();
  const FusionPlan plan(*model);
  const FusionPlan stage = plan.slice({0, 1, 2, 3});
  expectFoldings(stage, {{PAD, 2}, {HALF_CAST, 1}, {NODE, 2}, {CLAMP, 2}});
  EXPECT_EQ(stage.staged(), (std::vector<uint32_t>{0, 2, 3}));
  expectFoldings(plan.slice({3, 4}), {{CLAMP, FusionPlan::kNoNode}, {NODE, 1}});
}

}  // namespace
}  // namespace annrt::cpu
