// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu against nnapi-reference: small models of each lowered family,
// with odd shapes, both padding forms and every fused activation. Each model
// must be claimed whole by annrt-cpu and give the reference's results.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <tuple>
#include <vector>

#include "expect_close.h"
#include "test_graph.h"

namespace annrt::test {
namespace {

// Runs `graph` on both devices with random inputs and compares.
void expectSameAsReference(const TestGraph& graph,
                           const std::vector<std::vector<uint32_t>>& inputDims,
                           const std::vector<uint32_t>& outputDims, uint32_t seed = 1) {
  for (bool claimed : graph.supportedBy(kCpu)) EXPECT_TRUE(claimed);
  std::vector<std::vector<float>> inputs;
  inputs.reserve(inputDims.size());
  for (const auto& dims : inputDims)
    inputs.push_back(randomValues(elementCount(dims), seed++, -2, 2));
  const auto expected = graph.run(kReference, inputs, {elementCount(outputDims)});
  const auto actual = graph.run(kCpu, inputs, {elementCount(outputDims)});
  ASSERT_EQ(expected.size(), 1u);
  ASSERT_NO_FATAL_FAILURE(expectClose(actual, expected));
}

class FusedActivationTest : public testing::TestWithParam<int32_t> {};

TEST_P(FusedActivationTest, Conv2dImplicitSamePadding) {
  TestGraph g;
  const uint32_t in = g.tensor({1, 7, 5, 3});
  const uint32_t filter = g.constant({4, 3, 3, 3}, randomValues(size_t{4} * 27, 11));
  const uint32_t bias = g.constant({4}, randomValues(4, 12));
  const uint32_t out = g.tensor({1, 7, 5, 4});
  g.operation(ANEURALNETWORKS_CONV_2D,
              {in, filter, bias, g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1),
               g.int32(GetParam())},
              {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{1, 7, 5, 3}}, {1, 7, 5, 4});
}

TEST_P(FusedActivationTest, Conv2dExplicitPaddingStrideDilation) {
  TestGraph g;
  const uint32_t in = g.tensor({2, 9, 8, 2});
  const uint32_t filter = g.constant({3, 3, 2, 2}, randomValues(size_t{3} * 12, 13));
  const uint32_t bias = g.constant({3}, randomValues(3, 14));
  // pads l1 r0 t2 b1, strides w2 h1, NHWC, dilation w1 h2: out h (9+3-5)/1+1=8, w (8+1-2)/2+1=4
  const uint32_t out = g.tensor({2, 8, 4, 3});
  g.operation(ANEURALNETWORKS_CONV_2D,
              {in, filter, bias, g.int32(1), g.int32(0), g.int32(2), g.int32(1), g.int32(2),
               g.int32(1), g.int32(GetParam()), g.boolean(false), g.int32(1), g.int32(2)},
              {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{2, 9, 8, 2}}, {2, 8, 4, 3});
}

TEST_P(FusedActivationTest, DepthwiseMultiplier2Valid) {
  TestGraph g;
  const uint32_t in = g.tensor({1, 6, 7, 3});
  const uint32_t filter = g.constant({1, 3, 2, 6}, randomValues(36, 15));
  const uint32_t bias = g.constant({6}, randomValues(6, 16));
  const uint32_t out = g.tensor({1, 2, 6, 6});  // VALID, strides w1 h2
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {in, filter, bias, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(1), g.int32(2),
               g.int32(2), g.int32(GetParam())},
              {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{1, 6, 7, 3}}, {1, 2, 6, 6});
}

TEST_P(FusedActivationTest, FullyConnectedRank3Input) {
  TestGraph g;
  const uint32_t in = g.tensor({2, 3, 5});
  const uint32_t weights = g.constant({7, 5}, randomValues(35, 17));
  const uint32_t bias = g.constant({7}, randomValues(7, 18));
  const uint32_t out = g.tensor({6, 7});
  g.operation(ANEURALNETWORKS_FULLY_CONNECTED, {in, weights, bias, g.int32(GetParam())}, {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{2, 3, 5}}, {6, 7});
}

TEST_P(FusedActivationTest, AveragePoolSamePadding) {
  TestGraph g;
  const uint32_t in = g.tensor({1, 9, 7, 3});
  const uint32_t out = g.tensor({1, 5, 4, 3});
  g.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {in, g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(2), g.int32(2), g.int32(3),
               g.int32(3), g.int32(GetParam())},
              {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{1, 9, 7, 3}}, {1, 5, 4, 3});
}

TEST_P(FusedActivationTest, MaxPoolExplicitPadding) {
  TestGraph g;
  const uint32_t in = g.tensor({2, 5, 6, 2});
  const uint32_t out = g.tensor({2, 3, 3, 2});  // pads l1 r0 t1 b1, 2x3 window, stride 2
  g.operation(ANEURALNETWORKS_MAX_POOL_2D,
              {in, g.int32(1), g.int32(0), g.int32(1), g.int32(1), g.int32(2), g.int32(2),
               g.int32(2), g.int32(3), g.int32(GetParam())},
              {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{2, 5, 6, 2}}, {2, 3, 3, 2});
}

TEST_P(FusedActivationTest, AddBroadcast) {
  TestGraph g;
  const uint32_t a = g.tensor({2, 3, 4, 5});
  const uint32_t b = g.constant({4, 1}, randomValues(4, 19, -3, 3));
  const uint32_t out = g.tensor({2, 3, 4, 5});
  g.operation(ANEURALNETWORKS_ADD, {a, b, g.int32(GetParam())}, {out});
  g.finish({a}, {out});
  expectSameAsReference(g, {{2, 3, 4, 5}}, {2, 3, 4, 5});
}

TEST_P(FusedActivationTest, MulTwoInputs) {
  TestGraph g;
  const uint32_t a = g.tensor({3, 1, 5});
  const uint32_t b = g.tensor({4, 1});
  const uint32_t out = g.tensor({3, 4, 5});
  g.operation(ANEURALNETWORKS_MUL, {a, b, g.int32(GetParam())}, {out});
  g.finish({a, b}, {out});
  expectSameAsReference(g, {{3, 1, 5}, {4, 1}}, {3, 4, 5});
}

INSTANTIATE_TEST_SUITE_P(Activations, FusedActivationTest,
                         testing::Values(ANEURALNETWORKS_FUSED_NONE, ANEURALNETWORKS_FUSED_RELU,
                                         ANEURALNETWORKS_FUSED_RELU1, ANEURALNETWORKS_FUSED_RELU6));

class SoftmaxTest : public testing::TestWithParam<float> {};

TEST_P(SoftmaxTest, LastAxis) {
  TestGraph g;
  const uint32_t in = g.tensor({3, 11});
  const uint32_t out = g.tensor({3, 11});
  g.operation(ANEURALNETWORKS_SOFTMAX, {in, g.float32(GetParam())}, {out});
  g.finish({in}, {out});
  expectSameAsReference(g, {{3, 11}}, {3, 11});
}

INSTANTIATE_TEST_SUITE_P(Betas, SoftmaxTest, testing::Values(1.0f, 0.5f, 2.5f));

// conv -> depthwise -> average pool -> FC -> softmax, in one XNNPACK runtime.
TEST(CpuDeviceTest, SmallNetworkInOneRuntime) {
  TestGraph g;
  const uint32_t in = g.tensor({1, 8, 8, 3});
  const uint32_t c1 = g.tensor({1, 4, 4, 8});
  g.operation(ANEURALNETWORKS_CONV_2D,
              {in, g.constant({8, 3, 3, 3}, randomValues(216, 21)),
               g.constant({8}, randomValues(8, 22)), g.int32(ANEURALNETWORKS_PADDING_SAME),
               g.int32(2), g.int32(2), g.int32(ANEURALNETWORKS_FUSED_RELU6)},
              {c1});
  const uint32_t c2 = g.tensor({1, 4, 4, 8});
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {c1, g.constant({1, 3, 3, 8}, randomValues(72, 23)),
               g.constant({8}, randomValues(8, 24)), g.int32(ANEURALNETWORKS_PADDING_SAME),
               g.int32(1), g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_RELU)},
              {c2});
  const uint32_t pooled = g.tensor({1, 1, 1, 8});
  g.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {c2, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(1), g.int32(1), g.int32(4),
               g.int32(4), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {pooled});
  const uint32_t logits = g.tensor({1, 5});
  const uint32_t probabilities = g.tensor({1, 5});
  g.operation(ANEURALNETWORKS_FULLY_CONNECTED,
              {pooled, g.constant({5, 8}, randomValues(40, 25)),
               g.constant({5}, randomValues(5, 26)), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {logits});
  g.operation(ANEURALNETWORKS_SOFTMAX, {logits, g.float32(1.0f)}, {probabilities});
  g.finish({in}, {probabilities});
  expectSameAsReference(g, {{1, 8, 8, 3}}, {1, 5});
}

TEST(CpuDeviceTest, DoesNotClaimNchwOrNonConstantFilters) {
  TestGraph g;
  const uint32_t in = g.tensor({1, 3, 5, 5});
  const uint32_t filter = g.tensor({2, 1, 1, 3});
  const uint32_t out1 = g.tensor({1, 2, 5, 5});
  g.operation(ANEURALNETWORKS_CONV_2D,
              {in, g.constant({2, 1, 1, 3}, randomValues(6, 1)), g.constant({2}, {0, 0}),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1),
               g.int32(ANEURALNETWORKS_FUSED_NONE), g.boolean(true)},
              {out1});
  const uint32_t nhwc = g.tensor({1, 5, 5, 3});
  const uint32_t out2 = g.tensor({1, 5, 5, 2});
  g.operation(ANEURALNETWORKS_CONV_2D,
              {nhwc, filter, g.constant({2}, {0, 0}), g.int32(ANEURALNETWORKS_PADDING_SAME),
               g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {out2});
  g.finish({in, nhwc, filter}, {out1, out2});
  EXPECT_EQ(g.supportedBy(kCpu), (std::vector<bool>{false, false}));
  EXPECT_EQ(g.supportedBy(kReference), (std::vector<bool>{true, true}));
}

// XNNPACK's strided deconvolution went far out of bounds for an output
// smaller than its stride minus 1 (fuzz_cpu_vs_reference): annrt-cpu leaves
// that to other devices and runs the next size up, across rows and columns.
TEST(CpuDeviceTest, TransposedConvolutionSmallerThanItsStrideIsNotClaimed) {
  for (const bool vertical : {false, true}) {
    for (const auto& [pad, size, claimed] : {std::tuple{2, 1u, false}, std::tuple{1, 2u, true}}) {
      SCOPED_TRACE(testing::Message() << (vertical ? "rows " : "columns ") << size);
      TestGraph g;
      const uint32_t in = g.tensor({1, 1, 1, 8});
      const std::vector<uint32_t> outDims = {1, vertical ? size : 1, vertical ? 1 : size, 2};
      const uint32_t out = g.tensor(outDims);
      const std::vector<uint32_t> filterDims = {2, vertical ? 3u : 1u, vertical ? 1u : 3u, 8};
      // Explicit paddings left, right, top, bottom; strides width, height.
      g.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
                  {in, g.constant(filterDims, randomValues(48, 61)), g.constant({2}, {0.5f, -1}),
                   g.int32(0), g.int32(vertical ? 0 : pad), g.int32(0), g.int32(vertical ? pad : 0),
                   g.int32(vertical ? 1 : 3), g.int32(vertical ? 3 : 1),
                   g.int32(ANEURALNETWORKS_FUSED_NONE), g.boolean(false)},
                  {out});
      g.finish({in}, {out});
      EXPECT_EQ(g.supportedBy(kCpu), std::vector<bool>{claimed});
      if (claimed) expectSameAsReference(g, {{1, 1, 1, 8}}, outDims);
    }
  }
}

// annrt-cpu reads inputs in place unless XNNPACK's over-read past their end
// could leave the page; then it copies them. An input ending right before an
// inaccessible page must take the copy (else this faults), one in the middle
// of a page is read in place; both must give the reference's results.
TEST(CpuDeviceTest, InputsEndingAtAPageBoundaryAreNotOverRead) {
  TestGraph g;
  const std::vector<uint32_t> dims = {1, 5, 5, 3};
  const uint32_t in = g.tensor(dims);
  g.finish({in}, {g.conv3x3(in, 3, {1, 5, 5, 4}, ANEURALNETWORKS_FUSED_NONE, 41)});
  const std::vector<uint8_t> input = toBytes(randomValues(elementCount(dims), 43));
  const size_t outputBytes = elementCount({1, 5, 5, 4}) * sizeof(float);
  const auto expected = g.runBytes(kReference, {input}, {outputBytes});
  ASSERT_EQ(expected.size(), 1u);

  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping =
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  auto* pages = static_cast<uint8_t*>(mapping);
  ASSERT_EQ(mprotect(pages + page, page, PROT_NONE), 0);
  for (size_t offset : {page - input.size(), (page - input.size()) / 2}) {
    std::memcpy(pages + offset, input.data(), input.size());
    const auto actual =
        g.runInPlace(kCpu, {std::span<const uint8_t>(pages + offset, input.size())}, {outputBytes});
    ASSERT_EQ(actual.size(), 1u) << "input at page offset " << offset;
    ASSERT_EQ(actual[0].size(), expected[0].size());
    for (size_t i = 0; i < expected[0].size(); i += sizeof(float)) {
      float want = 0.0f;
      float got = 0.0f;
      std::memcpy(&want, expected[0].data() + i, sizeof(float));
      std::memcpy(&got, actual[0].data() + i, sizeof(float));
      ASSERT_NEAR(got, want, 1e-4f + 1e-4f * std::fabs(want)) << "input at page offset " << offset;
    }
  }
  munmap(mapping, 2 * page);
}

// annrt-cpu sets its XNNPACK runtime up again only when a request's buffers
// move: a run on the same buffers with new contents, one on other buffers and
// one back on the first ones each give the reference's results.
TEST(CpuDeviceTest, RunsOnNewContentsAndOnMovedBuffers) {
  TestGraph g;
  const std::vector<uint32_t> dims = {1, 6, 6, 3};
  const uint32_t in = g.tensor(dims);
  g.finish({in}, {g.conv3x3(in, 3, {1, 6, 6, 4}, ANEURALNETWORKS_FUSED_NONE, 51)});
  const size_t outputSize = elementCount({1, 6, 6, 4});
  const std::vector<float> first = randomValues(elementCount(dims), 53);
  const std::vector<float> second = randomValues(elementCount(dims), 54);
  const auto expectedFirst = g.run(kReference, {first}, {outputSize});
  const auto expectedSecond = g.run(kReference, {second}, {outputSize});
  ASSERT_EQ(expectedFirst.size(), 1u);
  ASSERT_EQ(expectedSecond.size(), 1u);

  const TestGraph::CompilationPtr compilation = g.compile(kCpu);
  ASSERT_NE(compilation, nullptr);
  std::vector<float> inputA(first.size());
  std::vector<float> inputB(first.size());
  std::vector<float> outputA(outputSize);
  std::vector<float> outputB(outputSize);
  auto compute = [&](std::vector<float>& input, const std::vector<float>& values,
                     std::vector<float>& output) {
    input = values;
    std::fill(output.begin(), output.end(), 0.0f);
    const bool ok = TestGraph::compute(
        compilation.get(),
        {{reinterpret_cast<const uint8_t*>(input.data()), input.size() * sizeof(float)}},
        {{reinterpret_cast<uint8_t*>(output.data()), output.size() * sizeof(float)}});
    return ok ? std::vector<std::vector<float>>{output} : std::vector<std::vector<float>>{};
  };
  ASSERT_NO_FATAL_FAILURE(expectClose(compute(inputA, first, outputA), expectedFirst));
  ASSERT_NO_FATAL_FAILURE(expectClose(compute(inputA, second, outputA), expectedSecond));
  ASSERT_NO_FATAL_FAILURE(expectClose(compute(inputB, first, outputB), expectedFirst));
  ASSERT_NO_FATAL_FAILURE(expectClose(compute(inputA, second, outputA), expectedSecond));
}

// Float16 weights: a CAST of a float16 constant is folded, also where the
// float32 tensor is itself a model output (then annrt-cpu writes it).
TEST(CpuDeviceTest, FoldsCastsOfFloat16Constants) {
  TestGraph g;
  const std::vector<uint32_t> dims = {1, 2, 2, 3};
  const uint32_t weights = g.halfConstant(dims, randomValues(12, 51));
  const uint32_t widened = g.tensor(dims);
  g.operation(ANEURALNETWORKS_CAST, {weights}, {widened});
  const uint32_t in = g.tensor(dims);
  const uint32_t sum = g.tensor(dims);
  g.operation(ANEURALNETWORKS_ADD, {in, widened, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
  g.finish({in}, {widened, sum});
  for (bool claimed : g.supportedBy(kCpu)) EXPECT_TRUE(claimed);
  const std::vector<std::vector<float>> inputs = {randomValues(12, 52)};
  const auto expected = g.run(kReference, inputs, {12, 12});
  const auto actual = g.run(kCpu, inputs, {12, 12});
  ASSERT_EQ(expected.size(), 2u);
  ASSERT_EQ(actual.size(), 2u);
  for (size_t output = 0; output < 2; ++output) {
    for (size_t i = 0; i < 12; ++i) {
      EXPECT_EQ(actual[output][i], expected[output][i]) << "output " << output << " element " << i;
    }
  }
}

}  // namespace
}  // namespace annrt::test

namespace annrt::test {
namespace {

// A result nothing reads (a dead-end temporary, or every output of a model
// without outputs, which AOSP accepts) is computed into scratch space, never
// into a null buffer; the other results are unaffected.
TEST(UnreadResultTest, ADeadEndTemporaryRunsOnEveryDevice) {
  TestGraph g;
  const uint32_t input = g.tensor({1, 4});
  const uint32_t unread = g.tensor({1, 4});
  const uint32_t output = g.tensor({1, 4});
  g.operation(ANEURALNETWORKS_FLOOR, {input}, {unread});
  g.operation(ANEURALNETWORKS_RELU, {input}, {output});
  g.finish({input}, {output});
  ASSERT_EQ(g.supportedBy(kCpu), (std::vector<bool>{true, true}));
  const std::vector<float> in = {-1.5f, 2.25f, -0.5f, 3.0f};
  for (const char* device : {kCpu, kReference}) {
    const auto outputs = g.run(device, {in}, {4});
    ASSERT_EQ(outputs.size(), 1u) << device;
    EXPECT_EQ(outputs[0], (std::vector<float>{0.0f, 2.25f, 0.0f, 3.0f})) << device;
  }
}

TEST(UnreadResultTest, AModelWithoutOutputsRunsOnEveryDevice) {
  TestGraph g;
  const uint32_t input = g.tensor({1, 4});
  const uint32_t unread = g.tensor({1, 4});
  g.operation(ANEURALNETWORKS_FLOOR, {input}, {unread});
  g.finish({input}, {});
  for (const char* device : {kCpu, kReference}) {
    const auto compilation = g.compile(device);
    ASSERT_NE(compilation, nullptr) << device;
    const std::vector<float> in = {-1.5f, 2.25f, -0.5f, 3.0f};
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(in.data()), 16);
    EXPECT_TRUE(TestGraph::compute(compilation.get(), {bytes}, {})) << device;
  }
}

}  // namespace
}  // namespace annrt::test
