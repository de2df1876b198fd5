// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own kernels (native_kernel.h) against XNNPACK's, operation by
// operation (every kernel form, padding, stride, dilation, activation and
// batch), on one thread and on the pool; the native stage's arena; and the
// stage plan choosing native stages where they pay.
#include "drivers/cpu/native_stage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>

#include "common/scoped_environment.h"
#include "cpu_test_models.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/operation_profiler.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/staged_graph.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

struct ConvCase {
  std::string name;
  bool depthwise = false;
  uint32_t batch = 1, height = 0, width = 0, inChannels = 0, outChannels = 0;
  uint32_t filterHeight = 3, filterWidth = 3, stride = 1, dilation = 1;
  // Explicit paddings (left, right, top, bottom); empty: implicit `scheme`.
  std::vector<uint32_t> pads;
  int32_t scheme = ANEURALNETWORKS_PADDING_SAME;
  int32_t activation = ANEURALNETWORKS_FUSED_NONE;
  // A 1x1 matrix product (native_pointwise.cpp): made only where the
  // table's column uses that form (AVX-512's).
  bool pointwise = false;
};

void PrintTo(const ConvCase& c, std::ostream* os) {
  *os << c.name;
}

uint32_t outputSize(uint32_t in, uint32_t filter, uint32_t stride, uint32_t dilation,
                    uint32_t padHead, uint32_t padTail, bool same) {
  if (same) return (in + stride - 1) / stride;
  const uint32_t extent = (filter - 1) * dilation + 1;
  return (in + padHead + padTail - extent) / stride + 1;
}

std::vector<uint32_t> outputDims(const ConvCase& c) {
  const bool explicitPads = !c.pads.empty();
  const bool same = !explicitPads && c.scheme == ANEURALNETWORKS_PADDING_SAME;
  const uint32_t l = explicitPads ? c.pads[0] : 0, r = explicitPads ? c.pads[1] : 0;
  const uint32_t t = explicitPads ? c.pads[2] : 0, b = explicitPads ? c.pads[3] : 0;
  return {c.batch, outputSize(c.height, c.filterHeight, c.stride, c.dilation, t, b, same),
          outputSize(c.width, c.filterWidth, c.stride, c.dilation, l, r, same), c.outChannels};
}

uint32_t addConv(test::InternalModel& m, uint32_t input, const ConvCase& c, uint32_t seed) {
  const uint32_t output = m.tensor(outputDims(c));
  const size_t taps = size_t{c.filterHeight} * c.filterWidth;
  const uint32_t filter =
      c.depthwise ? m.constant({1, c.filterHeight, c.filterWidth, c.outChannels},
                               test::seededValues(taps * c.outChannels, seed))
                  : m.constant({c.outChannels, c.filterHeight, c.filterWidth, c.inChannels},
                               test::seededValues(taps * c.inChannels * c.outChannels, seed));
  std::vector<uint32_t> inputs = {
      input, filter, m.constant({c.outChannels}, test::seededValues(c.outChannels, seed + 1))};
  if (c.pads.empty()) {
    inputs.push_back(m.int32(c.scheme));
  } else {
    for (uint32_t pad : c.pads) inputs.push_back(m.int32(static_cast<int32_t>(pad)));
  }
  inputs.push_back(m.int32(static_cast<int32_t>(c.stride)));
  inputs.push_back(m.int32(static_cast<int32_t>(c.stride)));
  if (c.depthwise) inputs.push_back(m.int32(1));
  inputs.push_back(m.int32(c.activation));
  if (c.dilation != 1) {
    inputs.push_back(m.constantBytes({}, ANEURALNETWORKS_BOOL, {0}));
    inputs.push_back(m.int32(static_cast<int32_t>(c.dilation)));
    inputs.push_back(m.int32(static_cast<int32_t>(c.dilation)));
  }
  m.operation(c.depthwise ? ANEURALNETWORKS_DEPTHWISE_CONV_2D : ANEURALNETWORKS_CONV_2D, inputs,
              {output});
  return output;
}

uint32_t addSum(test::InternalModel& m, uint32_t a, uint32_t b, const std::vector<uint32_t>& dims,
                int32_t activation) {
  const uint32_t sum = m.tensor(dims);
  m.operation(ANEURALNETWORKS_ADD, {a, b, m.int32(activation)}, {sum});
  return sum;
}

std::shared_ptr<const Model> convModel(const ConvCase& c) {
  test::InternalModel m;
  const uint32_t input = m.tensor({c.batch, c.height, c.width, c.inChannels});
  return m.finish({input}, {addConv(m, input, c, 11)});
}

size_t count(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

class NativeConvolutionTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(NativeConvolutionTest, ComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const ConvCase& c = GetParam();
  const std::shared_ptr<const Model> model = convModel(c);
  const std::vector<float> input =
      test::seededValues(size_t{c.batch} * c.height * c.width * c.inChannels, 5);
  const size_t outputs = count(outputDims(c));
  auto xnnpack = CompiledGraph::compile(model, nullptr);
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
  const std::vector<float> expected = runStage(**xnnpack, input, outputs);
  auto check = [&] {
    for (uint32_t threads : {1u, 2u}) {
      auto native = compileNative(model, sharedThreadPool(threads));
      ASSERT_TRUE(native.ok()) << native.error().message;
      EXPECT_EQ((*native)->arenaFloats(), 0u) << "one operation keeps nothing in the arena";
      for (int repeat = 0; repeat < 2; ++repeat) {
        SCOPED_TRACE(std::to_string(threads) + " threads, run " + std::to_string(repeat));
        ASSERT_NO_FATAL_FAILURE(expectNear(runStage(**native, input, outputs), expected));
      }
    }
  };
  // Both columns make the column-reuse depthwise form, the matrix product
  // and the image stems, AVX-512's the per-tap depthwise forms of any
  // multiple of 8 channels, AVX2's those of 8: every form, in the code of
  // every instruction set the host runs (the code picks the blocking:
  // 16-channel columns held in registers, 8 or 12 x 32 product tiles and
  // stems of stride 2 in 16-float vectors on AVX-512, 8-channel streamed
  // columns, 6 x 16 tiles and 8-float stems elsewhere).
  forEachIsa(check, NativeIsa::AVX512);
  forEachIsa(check, NativeIsa::AVX2);
}

// The convolution of `c`, then `activation` (HARD_SWISH or LOGISTIC) of its
// output alone, which a native kernel takes in (FusionRole::ACTIVATION).
std::shared_ptr<const Model> convActivationModel(const ConvCase& c, int32_t activation) {
  test::InternalModel m;
  const uint32_t input = m.tensor({c.batch, c.height, c.width, c.inChannels});
  const uint32_t convolved = addConv(m, input, c, 11);
  const uint32_t activated = m.tensor(outputDims(c));
  m.operation(activation, {convolved}, {activated});
  return m.finish({input}, {activated});
}

// Every form applies the activation to what it writes (by rows, by tiles of
// pixels and panels), in the code of every instruction set the host runs,
// under AVX-512's column (the one that folds activations).
TEST_P(NativeConvolutionTest, TakesInTheActivationAfterIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const ConvCase& c = GetParam();
  std::vector<float> input =
      test::seededValues(size_t{c.batch} * c.height * c.width * c.inChannels, 7);
  for (float& value : input) value *= 4.0f;  // past HARD_SWISH's bends at -3 and 3
  const size_t outputs = count(outputDims(c));
  for (int32_t activation : {ANEURALNETWORKS_HARD_SWISH, ANEURALNETWORKS_LOGISTIC}) {
    SCOPED_TRACE(activation == ANEURALNETWORKS_HARD_SWISH ? "HARD_SWISH" : "LOGISTIC");
    const std::shared_ptr<const Model> model = convActivationModel(c, activation);
    auto xnnpack = CompiledGraph::compile(model, nullptr);
    ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
    const std::vector<float> expected = runStage(**xnnpack, input, outputs);
    forEachIsa([&] {
      for (uint32_t threads : {1u, 2u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        auto native = compileNative(model, sharedThreadPool(threads));
        ASSERT_TRUE(native.ok()) << native.error().message;
        EXPECT_EQ((*native)->arenaFloats(), 0u) << "the convolution's output is never stored";
        ASSERT_NO_FATAL_FAILURE(expectNear(runStage(**native, input, outputs), expected));
      }
    });
  }
}

ConvCase depthwise(std::string name, uint32_t size, uint32_t channels) {
  ConvCase c;
  c.name = std::move(name);
  c.depthwise = true;
  c.height = c.width = size;
  c.inChannels = c.outChannels = channels;
  return c;
}

ConvCase conv(std::string name, uint32_t size, uint32_t in, uint32_t out, uint32_t filter) {
  ConvCase c;
  c.name = std::move(name);
  c.height = c.width = size;
  c.inChannels = in;
  c.outChannels = out;
  c.filterHeight = c.filterWidth = filter;
  return c;
}

// A convolution from 3 channels (an image stem), stride 2 unless edited.
ConvCase stem(std::string name, uint32_t size, uint32_t out, uint32_t filter) {
  ConvCase c = conv(std::move(name), size, 3, out, filter);
  c.stride = 2;
  return c;
}

// A 1x1 convolution the matrix product runs (native_pointwise.cpp).
ConvCase pointwise(std::string name, uint32_t size, uint32_t in, uint32_t out) {
  ConvCase c = conv(std::move(name), size, in, out, 1);
  c.pointwise = true;
  return c;
}

template <typename Edit>
ConvCase with(ConvCase c, Edit edit) {
  edit(c);
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, NativeConvolutionTest,
    ::testing::Values(
        depthwise("Depthwise8", 17, 8), depthwise("Depthwise16", 9, 16),
        with(depthwise("Depthwise8Relu6Stride2", 20, 8),
             [](ConvCase& c) {
               c.stride = 2;
               c.activation = ANEURALNETWORKS_FUSED_RELU6;
             }),
        with(depthwise("Depthwise16Dilation2Batch2", 13, 16),
             [](ConvCase& c) {
               c.dilation = 2;
               c.batch = 2;
             }),
        with(depthwise("Depthwise8Valid5x5", 14, 8),
             [](ConvCase& c) {
               c.scheme = ANEURALNETWORKS_PADDING_VALID;
               c.filterHeight = c.filterWidth = 5;
             }),
        with(depthwise("Depthwise8ExplicitUnevenPads", 11, 8),
             [](ConvCase& c) {
               c.pads = {2, 0, 0, 3};
               c.filterHeight = 3;
               c.filterWidth = 2;
               c.activation = ANEURALNETWORKS_FUSED_RELU1;
             }),
        depthwise("Depthwise8NarrowerThanABlock", 3, 8),
        // 16 channels at a time then 8; pixel by pixel 64 at a
        // time; each loop order (channels inner for 72 on
        // 3x3, outer for 240 on 5x5); 5x5 unrolled with
        // dilation; a row of several blocks and a few pixels.
        depthwise("Depthwise24", 21, 24),
        with(depthwise("Depthwise40Stride2_5x5", 23, 40),
             [](ConvCase& c) {
               c.stride = 2;
               c.filterHeight = c.filterWidth = 5;
               c.activation = ANEURALNETWORKS_FUSED_RELU6;
             }),
        with(depthwise("Depthwise136Small5x5", 7, 136),
             [](ConvCase& c) { c.filterHeight = c.filterWidth = 5; }),
        depthwise("Depthwise72ChannelsInner", 19, 72),
        with(depthwise("Depthwise240ChannelsOuter5x5", 13, 240),
             [](ConvCase& c) { c.filterHeight = c.filterWidth = 5; }),
        with(depthwise("Depthwise48Dilation2_5x5Batch2", 18, 48),
             [](ConvCase& c) {
               c.filterHeight = c.filterWidth = 5;
               c.dilation = 2;
               c.batch = 2;
             }),
        // Input columns reused across a block's taps (3x3
        // and 5x5, stride 1 or 2): blocks cut by the right
        // edge, uneven explicit paddings, rows narrower than
        // a block, VALID on an even width.
        with(depthwise("Depthwise24ColumnsStride2_5x5UnevenPads", 19, 24),
             [](ConvCase& c) {
               c.pads = {0, 3, 1, 2};
               c.stride = 2;
               c.filterHeight = c.filterWidth = 5;
             }),
        with(depthwise("Depthwise56ColumnsValidStride2", 18, 56),
             [](ConvCase& c) {
               c.scheme = ANEURALNETWORKS_PADDING_VALID;
               c.stride = 2;
             }),
        with(depthwise("Depthwise16ColumnsExplicit3x3", 9, 16),
             [](ConvCase& c) {
               c.pads = {2, 0, 0, 1};
               c.activation = ANEURALNETWORKS_FUSED_RELU;
             }),
        // Channels not a multiple of 8 (the column form): the last group of
        // 16 or 8 overlapping the one before (AVX2's code: groups of 8, the
        // last overlapping), below 16 channels two groups of 8; stride 1
        // and 2, 3x3 and 5x5, rows of several blocks.
        with(depthwise("Depthwise28ColumnsStride2", 33, 28), [](ConvCase& c) { c.stride = 2; }),
        depthwise("Depthwise36Columns", 19, 36),
        with(depthwise("Depthwise42Columns5x5Stride2", 21, 42),
             [](ConvCase& c) {
               c.stride = 2;
               c.filterHeight = c.filterWidth = 5;
               c.activation = ANEURALNETWORKS_FUSED_RELU6;
             }),
        depthwise("Depthwise12Columns", 20, 12),
        with(depthwise("Depthwise9Columns5x5", 13, 9),
             [](ConvCase& c) { c.filterHeight = c.filterWidth = 5; }),
        with(depthwise("Depthwise17ColumnsStride2", 15, 17), [](ConvCase& c) { c.stride = 2; }),
        with(depthwise("Depthwise32ColumnsNarrow5x5Batch2", 5, 32),
             [](ConvCase& c) {
               c.filterHeight = c.filterWidth = 5;
               c.batch = 2;
             }),
        // Image stems: 3 -> 16, 24 and 32 (blocks of 4, 4 and 3 pixels; in
        // 16-float vectors at stride 2, of 12, 10 and 8), 3x3 and 5x5, odd
        // sizes, rows of several blocks, uneven and VALID paddings, stride 1
        // too.
        stem("Stem3to24", 23, 24, 3), stem("Stem3to16SeveralBlocks", 61, 16, 3),
        stem("Stem3to24_5x5SeveralBlocks", 47, 24, 5), stem("Stem3to32_5x5", 39, 32, 5),
        with(stem("Stem3to16Relu6Batch2", 18, 16, 3),
             [](ConvCase& c) {
               c.activation = ANEURALNETWORKS_FUSED_RELU6;
               c.batch = 2;
             }),
        with(stem("Stem3to32Valid", 21, 32, 3),
             [](ConvCase& c) { c.scheme = ANEURALNETWORKS_PADDING_VALID; }),
        with(stem("Stem3to24_5x5UnevenPads", 19, 24, 5),
             [](ConvCase& c) {
               c.pads = {2, 1, 2, 1};
             }),
        with(stem("Stem3to32_5x5Stride1", 11, 32, 5), [](ConvCase& c) { c.stride = 1; }),
        with(stem("Stem3to16Stride1Relu", 13, 16, 3),
             [](ConvCase& c) {
               c.stride = 1;
               c.activation = ANEURALNETWORKS_FUSED_RELU;
             }),
        with(depthwise("Depthwise32Valid7x1", 12, 32),
             [](ConvCase& c) {
               c.scheme = ANEURALNETWORKS_PADDING_VALID;
               c.filterHeight = 7;
               c.filterWidth = 1;
             }),
        // 1x1 convolutions as matrix products (native_pointwise.cpp): a
        // panel of 24 over tiles of 8 and 7 pixels (AVX-512's shallow
        // tiles; 12 rows from 48 channels in); 8 channels; 32 + 8 of
        // which 4 stored, clamped; 8 of which 1 stored; 24 of which 20
        // stored; 32 + 24; panels in groups (602 KB of weights).
        pointwise("Pointwise40to24", 9, 40, 24),
        with(pointwise("Pointwise32to8Batch2", 7, 32, 8), [](ConvCase& c) { c.batch = 2; }),
        with(pointwise("Pointwise48to36Relu6", 6, 48, 36),
             [](ConvCase& c) { c.activation = ANEURALNETWORKS_FUSED_RELU6; }),
        pointwise("Pointwise48to1", 11, 48, 1), pointwise("Pointwise64to20", 5, 64, 20),
        with(pointwise("Pointwise32to56Relu", 7, 32, 56),
             [](ConvCase& c) { c.activation = ANEURALNETWORKS_FUSED_RELU; }),
        pointwise("Pointwise384to392PanelsOuter", 5, 384, 392),
        // Whole tiles (of 12 pixels in vectors of 8, of 8 in vectors of
        // 16; images of 36, 144 and twice 36 pixels) with K a constant, 8,
        // 16 or 24: panels of 32, 24, 16 and 8, the last stored in part (4
        // of 8), clamped or not; 8 outputs, in vectors of 8 on AVX-512 too.
        with(pointwise("Pointwise16to40Relu6", 6, 16, 40),
             [](ConvCase& c) { c.activation = ANEURALNETWORKS_FUSED_RELU6; }),
        pointwise("Pointwise24to20", 12, 24, 20),
        with(pointwise("Pointwise8to24Batch2", 6, 8, 24), [](ConvCase& c) { c.batch = 2; }),
        pointwise("Pointwise16to16", 12, 16, 16),
        with(pointwise("Pointwise8to8Relu6", 12, 8, 8),
             [](ConvCase& c) { c.activation = ANEURALNETWORKS_FUSED_RELU6; }),
        // Panels of 48 (AVX-512's shallow products, 33-48 channels left):
        // 36 of 48 stored, the rows before the last spilling onto the next
        // pixel, clamped; 32 + 48 with K a constant.
        with(pointwise("Pointwise32to36Relu6", 5, 32, 36),
             [](ConvCase& c) { c.activation = ANEURALNETWORKS_FUSED_RELU6; }),
        pointwise("Pointwise24to80", 7, 24, 80),
        // One pixel: the one-row tile's split sums, with a tail of K; a
        // panel of 48 of which 44 stored.
        pointwise("Pointwise1Pixel67to40", 1, 67, 40),
        pointwise("Pointwise1Pixel20to44", 1, 20, 44), conv("ByOutput8to16Pointwise", 12, 8, 16, 1),
        conv("ByOutput3to16", 10, 3, 16, 3),
        with(conv("ByOutput16to8Stride2Relu", 15, 16, 8, 3),
             [](ConvCase& c) {
               c.stride = 2;
               c.activation = ANEURALNETWORKS_FUSED_RELU;
             }),
        // By input: blocks of 8 pixels and single ones at the edges; in
        // vectors of 16 on AVX-512 (pairs of pixels) where the stride is 1.
        conv("ByInput8to1", 19, 8, 1, 3), conv("ByInput16to3", 7, 16, 3, 3),
        with(conv("ByInput8to2Stride2Relu6", 21, 8, 2, 3),
             [](ConvCase& c) {
               c.stride = 2;
               c.activation = ANEURALNETWORKS_FUSED_RELU6;
             }),
        with(conv("ByInput8to1Valid5x5Relu", 23, 8, 1, 5),
             [](ConvCase& c) {
               c.scheme = ANEURALNETWORKS_PADDING_VALID;
               c.activation = ANEURALNETWORKS_FUSED_RELU;
             }),
        conv("ByInput16to1Filter5", 13, 16, 1, 5),
        with(conv("ByInput8to5Dilation3Batch2", 16, 8, 5, 3),
             [](ConvCase& c) {
               c.dilation = 3;
               c.batch = 2;
             })),
    [](const ::testing::TestParamInfo<ConvCase>& info) { return info.param.name; });

struct TransposedCase {
  uint32_t batch, size, inChannels, outChannels, block;
  int32_t activation;
};

// A TRANSPOSE_CONV_2D whose filter is its stride, with no padding: each
// input pixel makes a block x block square of outputs; `then`, if given, an
// operation type of one input applied to its output.
std::shared_ptr<const Model> transposedModel(const TransposedCase& c,
                                             std::optional<int32_t> then = std::nullopt) {
  test::InternalModel m;
  const uint32_t input = m.tensor({c.batch, c.size, c.size, c.inChannels});
  const uint32_t output = m.tensor({c.batch, c.size * c.block, c.size * c.block, c.outChannels});
  const size_t weights = size_t{c.outChannels} * c.block * c.block * c.inChannels;
  std::vector<uint32_t> inputs = {
      input,
      m.constant({c.outChannels, c.block, c.block, c.inChannels}, test::seededValues(weights, 21)),
      m.constant({c.outChannels}, test::seededValues(c.outChannels, 22))};
  for (int pad = 0; pad < 4; ++pad) inputs.push_back(m.int32(0));
  inputs.push_back(m.int32(static_cast<int32_t>(c.block)));
  inputs.push_back(m.int32(static_cast<int32_t>(c.block)));
  inputs.push_back(m.int32(c.activation));
  inputs.push_back(m.constantBytes({}, ANEURALNETWORKS_BOOL, {0}));
  m.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, {output});
  if (!then) return m.finish({input}, {output});
  const uint32_t applied = m.tensor({c.batch, c.size * c.block, c.size * c.block, c.outChannels});
  m.operation(*then, {output}, {applied});
  return m.finish({input}, {applied});
}

// Alone, and with a HARD_SWISH or LOGISTIC after it taken in (each input
// row's block of output rows activated as it is written).
TEST(NativeStageTest, TransposedBlocksComputeWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  forEachIsa([&] {
    // Four outputs per input pixel (summed across together) and others.
    for (const TransposedCase& c : {TransposedCase{1, 9, 16, 1, 2, ANEURALNETWORKS_FUSED_NONE},
                                    TransposedCase{2, 7, 8, 1, 2, ANEURALNETWORKS_FUSED_RELU1},
                                    TransposedCase{1, 6, 8, 4, 1, ANEURALNETWORKS_FUSED_RELU},
                                    TransposedCase{2, 5, 8, 3, 3, ANEURALNETWORKS_FUSED_RELU6}})
      for (std::optional<int32_t> then :
           {std::optional<int32_t>(), std::optional<int32_t>(ANEURALNETWORKS_HARD_SWISH),
            std::optional<int32_t>(ANEURALNETWORKS_LOGISTIC)}) {
        SCOPED_TRACE(std::to_string(c.inChannels) + " -> " + std::to_string(c.outChannels) +
                     ", then " + std::to_string(then.value_or(-1)));
        const std::shared_ptr<const Model> model = transposedModel(c, then);
        const std::vector<float> input =
            test::seededValues(size_t{c.batch} * c.size * c.size * c.inChannels, 6);
        const size_t outputs =
            size_t{c.batch} * c.size * c.block * c.size * c.block * c.outChannels;
        auto xnnpack = CompiledGraph::compile(model, nullptr);
        ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
        auto native = compileNative(model, sharedThreadPool(2));
        ASSERT_TRUE(native.ok()) << native.error().message;
        if (then) {
          EXPECT_EQ((*native)->arenaFloats(), 0u) << "the activation was not taken in";
        }
        expectNear(runStage(**native, input, outputs), runStage(**xnnpack, input, outputs));
      }
  });
}

// selfie_segmentation's last layers: a 2x2 transposed convolution of 16
// channels to 1, then a LOGISTIC of 65,536 values, more than the native
// LOGISTIC takes alone (XNNPACK's is faster there). Taken into the
// transposed convolution, the pair is one native stage, so the model needs
// no XNNPACK runtime, on AVX-512's column and on AVX2's; the unmeasured
// baseline column runs both on XNNPACK.
TEST(NativeStagePlanTest, ALargeLogisticAfterANativeConvolutionRunsInIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::shared_ptr<const Model> model =
      transposedModel({1, 128, 16, 1, 2, ANEURALNETWORKS_FUSED_NONE}, ANEURALNETWORKS_LOGISTIC);
  const std::vector<float> in = test::seededValues(size_t{128} * 128 * 16, 23);
  auto xnnpack = CompiledGraph::compile(model, nullptr);
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
  const std::vector<float> expected = runStage(**xnnpack, in, size_t{256} * 256);
  for (NativeIsa isa : {NativeIsa::AVX512, NativeIsa::AVX2}) {
    SCOPED_TRACE(std::string(nativeIsaName(isa)));
    const ScopedNativeIsa scoped(hostNativeIsa(), isa);
    const StagePlan plan = planStages(*model, 0, 1);
    ASSERT_EQ(plan.stages.size(), 1u);
    EXPECT_TRUE(plan.stages[0].native);
    EXPECT_EQ(plan.stages[0].operations, (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(plan.fusions->role(1), FusionRole::ACTIVATION);
    auto graph = StagedGraph::compile(model, plan, sharedThreadPool(1));
    ASSERT_TRUE(graph.ok()) << graph.error().message;
    std::vector<float> out(size_t{256} * 256);
    ASSERT_TRUE((*graph)->run({in.data()}, {out.data()}).ok());
    expectNear(out, expected);
  }
  const ScopedNativeIsa scoped(hostNativeIsa(), NativeIsa::BASELINE);
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 1u);
  EXPECT_FALSE(plan.stages[0].native);
}

// A depthwise convolution and a 1x1 product (whose tiles clamp to vectors
// of the range made when the kernel is, and again when it takes a clamp in).
TEST(NativeStageTest, FoldsAClampIntoTheKernelBeforeIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  for (const ConvCase& c : {depthwise("Depthwise", 12, 8), pointwise("Pointwise", 12, 8, 24)}) {
    SCOPED_TRACE(c.name);
    forEachIsa([&] {
      test::InternalModel m;
      const uint32_t input = m.tensor({1, 12, 12, c.inChannels});
      const uint32_t convolved = addConv(m, input, c, 13);
      const uint32_t clamped = m.tensor(outputDims(c));
      m.operation(ANEURALNETWORKS_RELU1, {convolved}, {clamped});
      const std::shared_ptr<const Model> model = m.finish({input}, {clamped});
      auto native = compileNative(model, nullptr);
      ASSERT_TRUE(native.ok()) << native.error().message;
      EXPECT_EQ((*native)->arenaFloats(), 0u) << "the convolution's output is never stored";
      auto xnnpack = CompiledGraph::compile(model, nullptr);
      ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
      const std::vector<float> in = test::seededValues(size_t{12} * 12 * c.inChannels, 8);
      const size_t outputs = size_t{12} * 12 * c.outChannels;
      const std::vector<float> out = runStage(**native, in, outputs);
      expectNear(out, runStage(**xnnpack, in, outputs));
      EXPECT_LE(*std::max_element(out.begin(), out.end()), 1.0f);
      EXPECT_GE(*std::min_element(out.begin(), out.end()), -1.0f);
      // And the plan takes the pair as one native run.
      const StagePlan plan = planStages(*model, 0, 1);
      ASSERT_EQ(plan.stages.size(), 1u);
      EXPECT_TRUE(plan.stages[0].native);
      EXPECT_EQ(plan.stages[0].operations, (std::vector<uint32_t>{0, 1}));
    });
  }
}

// `model` as one native stage, in the code of every instruction set the host
// runs under the decisions of the table's `decisions` column, at 1 and 2
// threads (and compiled for 2, run on the calling thread alone), against
// XNNPACK.
void expectNativeAsXnnpack(const std::shared_ptr<const Model>& model,
                           const std::vector<float>& input, size_t outputs,
                           NativeIsa decisions = NativeIsa::AVX512) {
  auto xnnpack = CompiledGraph::compile(model, nullptr);
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
  const std::vector<float> expected = runStage(**xnnpack, input, outputs);
  forEachIsa(
      [&] {
        for (uint32_t threads : {1u, 2u}) {
          auto native = compileNative(model, sharedThreadPool(threads));
          ASSERT_TRUE(native.ok()) << native.error().message;
          ASSERT_NO_FATAL_FAILURE(expectNear(runStage(**native, input, outputs), expected));
          if (threads > 1) {
            SCOPED_TRACE("compiled for 2 threads, run alone");
            ASSERT_NO_FATAL_FAILURE(
                expectNear(runStage(**native, input, outputs, false), expected));
          }
        }
      },
      decisions);
}

// expectNativeAsXnnpack on seeded values of `inputDims`.
void expectNativeAsXnnpackOnSeeded(const std::shared_ptr<const Model>& model,
                                   const std::vector<uint32_t>& inputDims, uint32_t seed,
                                   size_t outputs) {
  expectNativeAsXnnpack(model, test::seededValues(count(inputDims), seed), outputs);
}

struct BandPairCase {
  ConvCase producer, consumer;
};

// A kernel then the depthwise convolution or 1x1 product reading its output
// alone, the image between them over 1 MB, ADDs around them: run band by
// band on one thread (band_pair.h) and one after the other on the pool,
// against XNNPACK. A 1x1 product and a stem of stride 2, each with a clamp;
// 3x3 and 5x5 consumers of stride 2, SAME (a row of padding below only) and
// explicit paddings above and below; a VALID consumer that reads no window
// of the producer's last row; depthwise convolutions then 1x1 products.
TEST(NativeStageTest, BandPairsComputeWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  auto relu6 = [](ConvCase c) {
    c.activation = ANEURALNETWORKS_FUSED_RELU6;
    return c;
  };
  auto strided = [](ConvCase c, uint32_t filter, std::vector<uint32_t> pads = {},
                    int32_t scheme = ANEURALNETWORKS_PADDING_SAME) {
    c.filterHeight = c.filterWidth = filter;
    c.stride = 2;
    c.pads = std::move(pads);
    c.scheme = scheme;
    return c;
  };
  const std::vector<BandPairCase> cases = {
      {relu6(pointwise("1x1 to 64", 64, 16, 64)), strided(depthwise("3x3 s2", 64, 64), 3)},
      {pointwise("1x1 to 40", 84, 24, 40), strided(depthwise("5x5 s2", 84, 40), 5, {1, 2, 2, 1})},
      {pointwise("1x1 to 48", 75, 8, 48),
       strided(depthwise("3x3 s2 valid", 75, 48), 3, {}, ANEURALNETWORKS_PADDING_VALID)},
      {relu6(with(conv("stem", 224, 3, 24, 3), [](ConvCase& c) { c.stride = 2; })),
       strided(depthwise("3x3 s2 after a stem", 112, 24), 3)},
      {depthwise("3x3", 64, 64), relu6(pointwise("1x1 after a depthwise", 64, 64, 16))},
      {relu6(depthwise("3x3 of 8 channels", 256, 8)), pointwise("1x1 8 -> 8", 256, 8, 8)},
  };
  for (const BandPairCase& c : cases) {
    SCOPED_TRACE(c.producer.name + " then " + c.consumer.name);
    // ADDs before and after the pair put the producer's input and the
    // consumer's output in the arena, where the two must not overlap.
    test::InternalModel m;
    const std::vector<uint32_t> inDims = {1, c.producer.height, c.producer.width,
                                          c.producer.inChannels};
    const uint32_t input = m.tensor(inDims);
    const uint32_t doubled = addSum(m, input, input, inDims, ANEURALNETWORKS_FUSED_NONE);
    const uint32_t middle = addConv(m, doubled, c.producer, 21);
    const uint32_t convolved = addConv(m, middle, c.consumer, 23);
    const std::shared_ptr<const Model> model = m.finish(
        {input},
        {addSum(m, convolved, convolved, outputDims(c.consumer), ANEURALNETWORKS_FUSED_NONE)});
    ASSERT_GE(count(outputDims(c.producer)) * sizeof(float), size_t{1} << 20);
    const std::vector<float> in = test::seededValues(
        count({1, c.producer.height, c.producer.width, c.producer.inChannels}), 9);
    // Under AVX2's decisions (no POOLED_BANDS) a 2-thread compilation keeps
    // the whole image between the pair, which a run alone bands through.
    for (NativeIsa decisions : {NativeIsa::AVX2, NativeIsa::AVX512}) {
      ASSERT_NO_FATAL_FAILURE(
          expectNativeAsXnnpack(model, in, count(outputDims(c.consumer)), decisions));
      forEachIsa(
          [&] {
            auto native = compileNative(model, nullptr);
            ASSERT_TRUE(native.ok()) << native.error().message;
            EXPECT_EQ((*native)->bandPairs(), 1u);
          },
          decisions);
    }
  }
}

// The pose models' last blocks: a depthwise convolution, then a 1x1 product
// that takes in the residual ADD of the depthwise convolution's input (read
// by both ends of the pair; the image between them 1.1 MB), the ADD
// clamped: band by band, the consumer adding the input's rows as it writes
// them.
TEST(NativeStageTest, BandPairsOfADepthwiseAndA1x1TakeInTheAddAfterThem) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::vector<uint32_t> dims = {1, 224, 160, 8};
  test::InternalModel m;
  const uint32_t input = m.tensor(dims);
  const uint32_t doubled = addSum(m, input, input, dims, ANEURALNETWORKS_FUSED_NONE);
  ConvCase filter = depthwise("3x3", 224, 8);
  filter.width = 160;
  ConvCase product = pointwise("1x1", 224, 8, 8);
  product.width = 160;
  const uint32_t middle = addConv(m, doubled, filter, 41);
  const uint32_t convolved = addConv(m, middle, product, 43);
  const std::shared_ptr<const Model> model =
      m.finish({input}, {addSum(m, doubled, convolved, dims, ANEURALNETWORKS_FUSED_RELU6)});
  ASSERT_NO_FATAL_FAILURE(expectNativeAsXnnpackOnSeeded(model, dims, 12, count(dims)));
  forEachIsa([&] {
    auto native = compileNative(model, nullptr);
    ASSERT_TRUE(native.ok()) << native.error().message;
    EXPECT_EQ((*native)->bandPairs(), 1u);
  });
}

// The pair's producer comes before another operation in the model (as in
// the pose models: a 1x1 product, a branch, then the depthwise convolution
// reading the product): it moves to right before its consumer.
TEST(NativeStageTest, BandPairsMoveTheProducerToItsConsumer) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  ConvCase strided = depthwise("3x3 s2", 64, 64);
  strided.stride = 2;
  test::InternalModel m;
  const std::vector<uint32_t> dims = {1, 64, 64, 64};
  const uint32_t input = m.tensor(dims);
  const uint32_t doubled = addSum(m, input, input, dims, ANEURALNETWORKS_FUSED_NONE);
  const uint32_t middle = addConv(m, doubled, pointwise("1x1", 64, 64, 64), 31);
  const uint32_t branch = addConv(m, doubled, strided, 33);
  const uint32_t convolved = addConv(m, middle, strided, 35);
  const std::shared_ptr<const Model> model = m.finish(
      {input}, {addSum(m, convolved, branch, outputDims(strided), ANEURALNETWORKS_FUSED_NONE)});
  const std::vector<float> in = test::seededValues(count(dims), 10);
  ASSERT_NO_FATAL_FAILURE(expectNativeAsXnnpack(model, in, count(outputDims(strided))));
  forEachIsa([&] {
    auto native = compileNative(model, nullptr);
    ASSERT_TRUE(native.ok()) << native.error().message;
    EXPECT_EQ((*native)->bandPairs(), 1u);
  });
}

struct AddendCase {
  ConvCase convolution;
  int32_t addActivation = ANEURALNETWORKS_FUSED_NONE;
  bool clampAfter = false;    // a RELU after the ADD, folded in too
  bool addendFirst = false;   // the ADD's input 0 is the addend
  bool earlierAddend = true;  // the addend is a tensor computed first, else the model's input
};

// A convolution, then the ADD of its output and a tensor of the same shape
// written before it, taken into the convolution's kernel
// (FusionRole::ADDEND): by rows (depthwise, by input), by tiles of
// pixels and panels (1x1 products, one with its panels in groups that fit
// the L2 cache, where each pixel's channels are added group by group),
// under a clamp of the convolution, of the ADD and one after it, in the code
// of every instruction set the host runs, at 1 and 2 threads, against
// XNNPACK.
TEST(NativeStageTest, TakesInTheAddAfterAConvolution) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const ConvCase relu6Pointwise = with(pointwise("1x1 24 -> 24", 20, 24, 24), [](ConvCase& c) {
    c.activation = ANEURALNETWORKS_FUSED_RELU6;
  });
  const std::vector<AddendCase> cases = {
      {relu6Pointwise, ANEURALNETWORKS_FUSED_NONE, true},
      {pointwise("1x1 40 -> 40", 13, 40, 40), ANEURALNETWORKS_FUSED_RELU, false, true},
      {pointwise("1x1 512 -> 512, panels in groups", 4, 512, 512)},
      {depthwise("depthwise 3x3", 24, 16), ANEURALNETWORKS_FUSED_RELU6, false, false, false},
      {conv("3x3 8 -> 8", 32, 8, 8, 3), ANEURALNETWORKS_FUSED_NONE, true, true},
  };
  for (const AddendCase& c : cases) {
    SCOPED_TRACE(c.convolution.name);
    const ConvCase& conv = c.convolution;
    const std::vector<uint32_t> inDims = {1, conv.height, conv.width, conv.inChannels};
    const std::vector<uint32_t> outDims = outputDims(conv);
    ASSERT_EQ(inDims, outDims) << "the addend is the input or a tensor of its shape";
    test::InternalModel m;
    const uint32_t input = m.tensor(inDims);
    // An earlier tensor: the input doubled by an ADD of its own (a kernel).
    const uint32_t addend =
        c.earlierAddend ? addSum(m, input, input, inDims, ANEURALNETWORKS_FUSED_NONE) : input;
    const uint32_t convolved = addConv(m, addend, conv, 41);
    uint32_t out = c.addendFirst ? addSum(m, addend, convolved, outDims, c.addActivation)
                                 : addSum(m, convolved, addend, outDims, c.addActivation);
    if (c.clampAfter) {
      const uint32_t clamped = m.tensor(outDims);
      m.operation(ANEURALNETWORKS_RELU, {out}, {clamped});
      out = clamped;
    }
    const std::shared_ptr<const Model> model = m.finish({input}, {out});
    ASSERT_NO_FATAL_FAILURE(expectNativeAsXnnpackOnSeeded(model, inDims, 12, count(outDims)));
    forEachIsa([&] {
      auto native = compileNative(model, nullptr);
      ASSERT_TRUE(native.ok()) << native.error().message;
      EXPECT_EQ((*native)->kernelCount(), c.earlierAddend ? 2u : 1u) << "no kernel of the ADD";
    });
    // The unmeasured baseline column keeps the ADD a node.
    const ScopedNativeIsa baseline(hostNativeIsa(), NativeIsa::BASELINE);
    const FusionPlan plan = allNativeFusions(*model);
    EXPECT_EQ(plan.role(c.earlierAddend ? 2 : 1), FusionRole::NODE);
  }
}

// Face detection's widening residuals: a 1x1 product to more channels, then
// the ADD of its output and its input padded with zeros along the channels
// (before, after or both), the PAD and the ADD taken into the product's
// kernel; one with its panels in groups, each pixel's channels added group
// by group, the padding crossing groups; against XNNPACK.
TEST(NativeStageTest, TakesInTheAddOfAPaddedTensor) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  struct Case {
    ConvCase product;
    uint32_t before, after;
  };
  for (const Case& c : {Case{pointwise("24 -> 28, 4 after", 20, 24, 28), 0, 4},
                        Case{pointwise("16 -> 40, 8 before and 16 after", 9, 16, 40), 8, 16},
                        Case{pointwise("512 -> 520 in groups, 8 before", 4, 512, 520), 8, 0}}) {
    SCOPED_TRACE(c.product.name);
    const std::vector<uint32_t> inDims = {1, c.product.height, c.product.width,
                                          c.product.inChannels};
    const std::vector<uint32_t> outDims = outputDims(c.product);
    test::InternalModel m;
    const uint32_t input = m.tensor(inDims);
    const uint32_t convolved = addConv(m, input, c.product, 43);
    const uint32_t padded = test::addPad(
        m, input, inDims,
        {0, 0, 0, 0, 0, 0, static_cast<int32_t>(c.before), static_cast<int32_t>(c.after)});
    const std::shared_ptr<const Model> model =
        m.finish({input}, {addSum(m, convolved, padded, outDims, ANEURALNETWORKS_FUSED_RELU)});
    ASSERT_NO_FATAL_FAILURE(expectNativeAsXnnpackOnSeeded(model, inDims, 15, count(outDims)));
    forEachIsa([&] {
      const FusionPlan plan = allNativeFusions(*model);
      EXPECT_EQ(plan.role(1), FusionRole::PAD);
      EXPECT_EQ(plan.node(1), 0u);
      EXPECT_EQ(plan.role(2), FusionRole::ADDEND);
      auto native = compileNative(model, nullptr);
      ASSERT_TRUE(native.ok()) << native.error().message;
      EXPECT_EQ((*native)->kernelCount(), 1u);
    });
  }
}

// A 2x bilinear resize (half-pixel centers, as MediaPipe's decoders) of
// `input`, [1, size, size, channels].
uint32_t addResize2x(test::InternalModel& m, uint32_t input, uint32_t size, uint32_t channels) {
  const uint32_t output = m.tensor({1, 2 * size, 2 * size, channels});
  const auto side = static_cast<int32_t>(2 * size);
  m.operation(ANEURALNETWORKS_RESIZE_BILINEAR,
              {input, m.int32(side), m.int32(side), m.constantBytes({}, ANEURALNETWORKS_BOOL, {0}),
               m.constantBytes({}, ANEURALNETWORKS_BOOL, {0}),
               m.constantBytes({}, ANEURALNETWORKS_BOOL, {1})},
              {output});
  return output;
}

// The ADD after a resize (the pose models' decoder: an upsampled image plus
// the encoder's of its size) and after a MUL by a vector of channels
// (selfie_segmentation's squeeze-and-excitation, then its residual) and
// one of a shape, taken into their kernels as into a convolution's, with a
// clamp after the ADD, against XNNPACK.
TEST(NativeStageTest, TakesInTheAddAfterAResizeOrAMultiply) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  constexpr uint32_t kSize = 12, kChannels = 20;
  const std::vector<uint32_t> small = {1, kSize, kSize, kChannels};
  const std::vector<uint32_t> large = {1, 2 * kSize, 2 * kSize, kChannels};
  test::InternalModel m;
  const uint32_t input = m.tensor(small);
  // 0 ADD, 1 resize (the addend), 2 resize, 3 ADD into 2, 4 RELU into 2.
  const uint32_t doubled = addSum(m, input, input, small, ANEURALNETWORKS_FUSED_NONE);
  const uint32_t skip = addResize2x(m, input, kSize, kChannels);
  const uint32_t upsampled = addResize2x(m, doubled, kSize, kChannels);
  const uint32_t decoded = addSum(m, upsampled, skip, large, ANEURALNETWORKS_FUSED_NONE);
  const uint32_t clamped = m.tensor(large);
  m.operation(ANEURALNETWORKS_RELU, {decoded}, {clamped});
  // 5 a global average, 6 MUL by its [1, 1, 1, C], 7 ADD into 6; 8 MUL of
  // one shape, 9 ADD into 8.
  const uint32_t average = m.tensor({1, 1, 1, kChannels});
  const auto side = static_cast<int32_t>(2 * kSize);
  m.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {clamped, m.int32(ANEURALNETWORKS_PADDING_VALID), m.int32(1), m.int32(1),
               m.int32(side), m.int32(side), m.int32(ANEURALNETWORKS_FUSED_NONE)},
              {average});
  const uint32_t scaled = m.tensor(large);
  m.operation(ANEURALNETWORKS_MUL, {skip, average, m.int32(ANEURALNETWORKS_FUSED_NONE)}, {scaled});
  const uint32_t excited = addSum(m, scaled, clamped, large, ANEURALNETWORKS_FUSED_RELU6);
  const uint32_t squared = m.tensor(large);
  m.operation(ANEURALNETWORKS_MUL, {excited, skip, m.int32(ANEURALNETWORKS_FUSED_NONE)}, {squared});
  const std::shared_ptr<const Model> model =
      m.finish({input}, {addSum(m, clamped, squared, large, ANEURALNETWORKS_FUSED_NONE)});
  ASSERT_NO_FATAL_FAILURE(expectNativeAsXnnpackOnSeeded(model, small, 14, count(large)));
  forEachIsa([&] {
    const FusionPlan plan = allNativeFusions(*model);
    for (uint32_t op : {3u, 7u, 9u}) {
      EXPECT_EQ(plan.role(op), FusionRole::ADDEND) << "operation " << op;
      EXPECT_EQ(plan.node(op), op - 1) << "operation " << op;
    }
    EXPECT_EQ(plan.node(4), 2u) << "the RELU clamps the sums";
    auto native = compileNative(model, nullptr);
    ASSERT_TRUE(native.ok()) << native.error().message;
    EXPECT_EQ((*native)->kernelCount(), 6u) << "no kernel of the three ADDs";
  });
}

// ADDs a convolution's kernel does not take in: one that broadcasts, one
// of an output read twice, one after a kernel that is no convolution.
TEST(NativeStageTest, LeavesOtherAddsToTheirOwnKernels) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const ConvCase c = depthwise("depthwise 3x3", 16, 16);
  const std::vector<uint32_t> dims = {1, 16, 16, 16};
  test::InternalModel m;
  const uint32_t input = m.tensor(dims);
  const uint32_t scale = m.tensor({1, 16, 16, 1});
  const uint32_t first = addConv(m, input, c, 51);
  const uint32_t broadcast = addSum(m, first, scale, dims, ANEURALNETWORKS_FUSED_NONE);
  const uint32_t second = addConv(m, broadcast, c, 53);
  const uint32_t twice = addSum(m, second, second, dims, ANEURALNETWORKS_FUSED_NONE);
  const uint32_t pooled = m.tensor(dims);
  m.operation(ANEURALNETWORKS_MAX_POOL_2D,
              {twice, m.int32(ANEURALNETWORKS_PADDING_SAME), m.int32(1), m.int32(1), m.int32(3),
               m.int32(3), m.int32(ANEURALNETWORKS_FUSED_NONE)},
              {pooled});
  const uint32_t out = addSum(m, pooled, input, dims, ANEURALNETWORKS_FUSED_NONE);
  const std::shared_ptr<const Model> model = m.finish({input, scale}, {out});
  const ScopedNativeIsa avx512(hostNativeIsa(), NativeIsa::AVX512);
  const FusionPlan plan = allNativeFusions(*model);
  for (uint32_t op = 0; op < model->main.operations.size(); ++op) {
    EXPECT_EQ(plan.role(op), FusionRole::NODE) << "operation " << op;
  }
}

struct FullyConnectedCase {
  std::vector<uint32_t> inputDims;
  uint32_t units = 0;
  int32_t activation = ANEURALNETWORKS_FUSED_NONE;
};

// FULLY_CONNECTED as the 1x1 product (native_pointwise.cpp): the hand
// models' heads (1152 to 63 and to 1, one row), a K that is no multiple of
// the one-row tile's 4 sums, and rows of a rank-4 input flattened, clamped.
TEST(NativeStageTest, FullyConnectedComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::vector<FullyConnectedCase> cases = {
      {{1, 1152}, 63},
      {{1, 1152}, 1},
      {{1, 37}, 20, ANEURALNETWORKS_FUSED_RELU},
      {{5, 1, 2, 24}, 33, ANEURALNETWORKS_FUSED_RELU6},
      {{13, 48}, 130},
  };
  for (const FullyConnectedCase& c : cases) {
    test::InternalModel m;
    const uint32_t input = m.tensor(c.inputDims);
    const size_t inputCount = count(c.inputDims);
    const auto inputSize = static_cast<uint32_t>(inputCount / c.inputDims[0]);
    const uint32_t batch = c.inputDims[0];
    const uint32_t output = m.tensor({batch, c.units});
    const uint32_t weights =
        m.constant({c.units, inputSize}, test::seededValues(size_t{c.units} * inputSize, 21));
    const uint32_t bias = m.constant({c.units}, test::seededValues(c.units, 22));
    m.operation(ANEURALNETWORKS_FULLY_CONNECTED, {input, weights, bias, m.int32(c.activation)},
                {output});
    const std::shared_ptr<const Model> model = m.finish({input}, {output});
    SCOPED_TRACE(toString(c.inputDims) + " to " + std::to_string(c.units));
    const std::vector<float> in = test::seededValues(inputCount, 23);
    const size_t outputs = size_t{batch} * c.units;
    expectNativeAsXnnpack(model, in, outputs);
  }
}

// Convolutions whose filter covers the whole unpadded input (pose_landmark's
// heads: 2x2x288 to 195 and to 1), as the same product: one image a row.
TEST(NativeStageTest, WholeImageConvolutionComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  auto whole = [](std::string name, uint32_t size, uint32_t in, uint32_t out) {
    ConvCase c = conv(std::move(name), size, in, out, size);
    c.scheme = ANEURALNETWORKS_PADDING_VALID;
    return c;
  };
  const std::vector<ConvCase> cases = {
      whole("2x2x288to195", 2, 288, 195),
      whole("2x2x288to1", 2, 288, 1),
      with(whole("3x3x40to17Batch2Relu6", 3, 40, 17),
           [](ConvCase& c) {
             c.batch = 2;
             c.activation = ANEURALNETWORKS_FUSED_RELU6;
           }),
      with(whole("4x4x5to9ExplicitZeroPads", 4, 5, 9),
           [](ConvCase& c) {
             c.pads = {0, 0, 0, 0};
           }),
  };
  for (const ConvCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::shared_ptr<const Model> model = convModel(c);
    const std::vector<float> input =
        test::seededValues(size_t{c.batch} * c.height * c.width * c.inChannels, 5);
    const size_t outputs = count(outputDims(c));
    ASSERT_EQ(outputs, size_t{c.batch} * c.outChannels);
    expectNativeAsXnnpack(model, input, outputs);
  }
}

// pose_landmark's end: a preferred convolution, then a LOGISTIC of its one
// value and a RESHAPE, which would otherwise be an XNNPACK stage of their
// own, run native too (a tail of at most kMaxNativeGap operations).
TEST(NativeStagePlanTest, AShortTailAfterTheLastPreferredOperationRunsNative) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const ScopedNativeIsa scoped(hostNativeIsa(), NativeIsa::AVX512);
  test::InternalModel m;
  ConvCase c = conv("", 2, 16, 1, 2);
  c.scheme = ANEURALNETWORKS_PADDING_VALID;
  const uint32_t input = m.tensor({1, 2, 2, 16});
  const uint32_t score = addConv(m, input, c, 41);
  const uint32_t probability = m.tensor({1, 1, 1, 1});
  m.operation(ANEURALNETWORKS_LOGISTIC, {score}, {probability});
  const std::shared_ptr<const Model> model =
      m.finish({input}, {test::addReshape(m, probability, {1, 1})});
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_FALSE(plan.stages.empty());
  for (size_t s = 0; s < plan.stages.size(); ++s) EXPECT_TRUE(plan.stages[s].native) << s;
  auto graph = StagedGraph::compile(model, plan, sharedThreadPool(1));
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  const std::vector<float> in = test::seededValues(64, 42);
  std::vector<float> out(1);
  ASSERT_TRUE((*graph)->run({in.data()}, {out.data()}).ok());
  auto xnnpack = CompiledGraph::compile(model, nullptr);
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
  expectNear(out, runStage(**xnnpack, in, 1));
}

// The hand models' head: FULLY_CONNECTED, LOGISTIC, FULLY_CONNECTED, where
// the product is preferred, runs native, operation by operation (the
// LOGISTIC between them a gap), so a model ending so needs no XNNPACK
// runtime.
TEST(NativeStagePlanTest, FullyConnectedHeadRunsNative) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const ScopedNativeIsa scoped(hostNativeIsa(), NativeIsa::AVX512);
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 64});
  auto fullyConnected = [&](uint32_t from, uint32_t units, uint32_t seed) {
    const uint32_t out = m.tensor({1, units});
    m.operation(ANEURALNETWORKS_FULLY_CONNECTED,
                {from, m.constant({units, 64}, test::seededValues(size_t{units} * 64, seed)),
                 m.constant({units}, test::seededValues(units, seed + 1)),
                 m.int32(ANEURALNETWORKS_FUSED_NONE)},
                {out});
    return out;
  };
  const uint32_t score = fullyConnected(input, 1, 31);
  const uint32_t probability = m.tensor({1, 1});
  m.operation(ANEURALNETWORKS_LOGISTIC, {score}, {probability});
  const uint32_t landmarks = fullyConnected(input, 21, 33);
  const std::shared_ptr<const Model> model = m.finish({input}, {probability, landmarks});
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 3u);
  for (uint32_t s = 0; s < plan.stages.size(); ++s) {
    EXPECT_TRUE(plan.stages[s].native) << "stage " << s;
    EXPECT_EQ(plan.stages[s].operations, (std::vector<uint32_t>{s})) << "stage " << s;
  }
}

// PAD of [1, 15, 13, 24] by `paddings`, then a 3x3 depthwise convolution,
// VALID, stride 2, RELU6.
std::shared_ptr<const Model> padDepthwiseModel(const std::vector<int32_t>& paddings) {
  test::InternalModel m;
  const std::vector<uint32_t> dims = {1, 15, 13, 24};
  const uint32_t input = m.tensor(dims);
  const uint32_t padded = test::addPad(m, input, dims, paddings);
  const std::vector<uint32_t> grown = test::paddedDims(dims, paddings);
  ConvCase c = depthwise("", 0, grown[3]);
  c.height = grown[1];
  c.width = grown[2];
  c.scheme = ANEURALNETWORKS_PADDING_VALID;
  c.stride = 2;
  c.activation = ANEURALNETWORKS_FUSED_RELU6;
  return m.finish({input}, {addConv(m, padded, c, 17)});
}

TEST(NativeStageTest, FoldsASpatialPadIntoTheConvolutionAfterIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  forEachIsa([&] {
    const std::shared_ptr<const Model> model = padDepthwiseModel({0, 0, 2, 0, 1, 3, 0, 0});
    const StagePlan plan = planStages(*model, 0, 1);
    ASSERT_EQ(plan.stages.size(), 1u);
    EXPECT_TRUE(plan.stages[0].native);
    EXPECT_EQ(plan.stages[0].operations, (std::vector<uint32_t>{0, 1}));
    auto native = compileNative(model, sharedThreadPool(2));
    ASSERT_TRUE(native.ok()) << native.error().message;
    EXPECT_EQ((*native)->arenaFloats(), 0u) << "the padded image is never stored";
    auto xnnpack = CompiledGraph::compile(model, nullptr);
    ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
    const std::vector<float> in = test::seededValues(size_t{15} * 13 * 24, 9);
    const size_t outputs = size_t{8} * 8 * 24;  // a 17x17 padded image: (17 - 3) / 2 + 1 = 8
    expectNear(runStage(**native, in, outputs), runStage(**xnnpack, in, outputs));
  });
}

TEST(NativeStagePlanTest, KeepsAFoldedPadWithItsConvolutionInOneStage) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  // The planner under AVX-512's decisions, which use every form here.
  const ScopedNativeIsa decisions(hostNativeIsa(), NativeIsa::AVX512);
  // PAD -> depthwise (native, the PAD folded in) -> depthwise: two native
  // stages, the PAD in the first; the planned graph computes what XNNPACK
  // alone does.
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 10, 10, 16});
  const uint32_t padded = test::addPad(m, input, {1, 10, 10, 16}, {0, 0, 1, 1, 1, 1, 0, 0});
  ConvCase valid = depthwise("", 12, 16);
  valid.scheme = ANEURALNETWORKS_PADDING_VALID;
  const uint32_t first = addConv(m, padded, valid, 3);
  const uint32_t second = addConv(m, first, depthwise("", 10, 16), 5);
  const std::shared_ptr<const Model> model = m.finish({input}, {second});
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 2u);
  EXPECT_TRUE(plan.stages[0].native && plan.stages[1].native);
  EXPECT_EQ(plan.stages[0].operations, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(plan.stages[1].operations, (std::vector<uint32_t>{2}));
  const std::vector<float> in = test::seededValues(size_t{10} * 10 * 16, 9);
  std::vector<std::vector<float>> outputs;
  for (const auto& stages : {plan, planStages(*model, 0, 1, false)}) {
    auto graph = StagedGraph::compile(model, stages, sharedThreadPool(2));
    ASSERT_TRUE(graph.ok()) << graph.error().message;
    outputs.emplace_back(size_t{10} * 10 * 16);
    ASSERT_TRUE((*graph)->run({in.data()}, {outputs.back().data()}).ok());
  }
  expectNear(outputs[0], outputs[1]);
}

TEST(NativeStageTest, LeavesAPadOfChannelsToXnnpack) {
  // The planner under AVX-512's decisions, which use every form here.
  const ScopedNativeIsa decisions(hostNativeIsa(), NativeIsa::AVX512);
  const std::shared_ptr<const Model> model = padDepthwiseModel({0, 0, 1, 1, 1, 1, 0, 8});
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 2u);
  EXPECT_FALSE(plan.stages[0].native);
  EXPECT_TRUE(plan.stages[1].native) << "the depthwise convolution alone, on the padded image";
  auto folded = compileNative(model, nullptr);
  ASSERT_FALSE(folded.ok());
  EXPECT_NE(folded.error().message.find("folds only into height and width"), std::string::npos)
      << folded.error().message;
}

// A residual connection growing the channel count, as in face detection:
// ADD(PAD of `input` from 24 to 28 channels, convolution of `input` to 28
// channels), then RELU. The convolution is 3x3, which no native form takes
// from 24 channels (1x1 ones run natively on AVX-512), so that XNNPACK
// runs it.
std::shared_ptr<const Model> paddedResidualModel(int32_t before, int32_t after) {
  test::InternalModel m;
  const uint32_t input = m.tensor({2, 9, 11, 24});
  const uint32_t channels = 24 + static_cast<uint32_t>(before + after);
  ConvCase convolution = conv("", 0, 24, channels, 3);
  convolution.batch = 2;
  convolution.height = 9;
  convolution.width = 11;
  const uint32_t convolved = addConv(m, input, convolution, 19);
  const uint32_t padded = test::addPad(m, input, {2, 9, 11, 24}, {0, 0, 0, 0, 0, 0, before, after});
  const uint32_t sum =
      addSum(m, padded, convolved, {2, 9, 11, channels}, ANEURALNETWORKS_FUSED_NONE);
  const uint32_t relu = m.tensor({2, 9, 11, channels});
  m.operation(ANEURALNETWORKS_RELU, {sum}, {relu});
  return m.finish({input}, {relu});
}

TEST(NativeStageTest, FoldsAPadOfChannelsIntoTheAddReadingIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  forEachIsa([&] {
    for (const auto& [before, after] : {std::pair{0, 4}, std::pair{3, 10}}) {
      SCOPED_TRACE(std::to_string(before) + " before, " + std::to_string(after) + " after");
      const std::shared_ptr<const Model> model = paddedResidualModel(before, after);
      const StagePlan plan = planStages(*model, 0, 1);
      ASSERT_EQ(plan.stages.size(), 2u);
      EXPECT_FALSE(plan.stages[0].native) << "the convolution on XNNPACK";
      EXPECT_TRUE(plan.stages[1].native);
      EXPECT_EQ(plan.stages[1].operations, (std::vector<uint32_t>{1, 2, 3}));
      EXPECT_EQ(plan.fusions->role(1), FusionRole::PAD) << "folded into the native ADD";
      EXPECT_EQ(plan.fusions->node(1), 2u);
      const std::vector<float> in = test::seededValues(size_t{2} * 9 * 11 * 24, 10);
      const size_t outputs = size_t{2} * 9 * 11 * (24 + before + after);
      std::vector<std::vector<float>> results;
      for (const auto& stages : {plan, planStages(*model, 0, 1, false)}) {
        auto graph = StagedGraph::compile(model, stages, sharedThreadPool(2));
        ASSERT_TRUE(graph.ok()) << graph.error().message;
        results.emplace_back(outputs);
        ASSERT_TRUE((*graph)->run({in.data()}, {results.back().data()}).ok());
      }
      expectNear(results[0], results[1]);
      EXPECT_GE(*std::min_element(results[0].begin(), results[0].end()), 0.0f);
    }
  });
}

TEST(NativeStageTest, ProfilesAFoldedPadWithTheAddReadingIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  // The planner under AVX-512's decisions, which use every form here.
  const ScopedNativeIsa decisions(hostNativeIsa(), NativeIsa::AVX512);
  const std::shared_ptr<const Model> model = paddedResidualModel(0, 4);
  auto graph = StagedGraph::compile(model, planStages(*model, 0, 1), sharedThreadPool(1));
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  auto profiler = OperationProfiler::create(**graph);
  ASSERT_TRUE(profiler.ok()) << profiler.error().message;
  const std::vector<float> in = test::seededValues(size_t{2} * 9 * 11 * 24, 11);
  std::vector<float> out(size_t{2} * 9 * 11 * 28);
  std::vector<uint64_t> operationNs;
  ASSERT_TRUE((*profiler)->run({in.data()}, {out.data()}, true, operationNs).ok());
  ASSERT_EQ(operationNs.size(), 4u);
  EXPECT_GT(operationNs[0], 0u) << "the 1x1 convolution";
  EXPECT_EQ(operationNs[1], 0u) << "the PAD, folded";
  EXPECT_GT(operationNs[2], 0u) << "the ADD";
  EXPECT_EQ(operationNs[3], 0u) << "the RELU, folded";
}

struct ResizeCase {
  uint32_t batch, height, width, channels, outHeight, outWidth;
  bool alignCorners, halfPixelCenters;
};

TEST(NativeStageTest, ResizesAsXnnpackDoes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  forEachIsa([&] {
    // Up by 2 with half-pixel centers (MediaPipe's decoders), align corners,
    // TensorFlow's legacy rule, down and by odd factors; channels with a tail.
    for (const ResizeCase& c :
         {ResizeCase{1, 8, 8, 16, 16, 16, false, true}, ResizeCase{2, 5, 7, 20, 10, 3, true, false},
          ResizeCase{1, 6, 9, 3, 13, 5, false, false},
          ResizeCase{1, 11, 4, 24, 4, 9, false, true}}) {
      SCOPED_TRACE(std::to_string(c.height) + "x" + std::to_string(c.width) + " -> " +
                   std::to_string(c.outHeight) + "x" + std::to_string(c.outWidth));
      test::InternalModel m;
      const uint32_t input = m.tensor({c.batch, c.height, c.width, c.channels});
      const uint32_t output = m.tensor({c.batch, c.outHeight, c.outWidth, c.channels});
      m.operation(
          ANEURALNETWORKS_RESIZE_BILINEAR,
          {input, m.int32(static_cast<int32_t>(c.outWidth)),
           m.int32(static_cast<int32_t>(c.outHeight)),
           m.constantBytes({}, ANEURALNETWORKS_BOOL, {0}),
           m.constantBytes({}, ANEURALNETWORKS_BOOL, {c.alignCorners ? uint8_t{1} : uint8_t{0}}),
           m.constantBytes({}, ANEURALNETWORKS_BOOL,
                           {c.halfPixelCenters ? uint8_t{1} : uint8_t{0}})},
          {output});
      const std::shared_ptr<const Model> model = m.finish({input}, {output});
      const StagePlan plan = planStages(*model, 0, 1);
      ASSERT_EQ(plan.stages.size(), 1u);
      EXPECT_TRUE(plan.stages[0].native);
      const std::vector<float> in =
          test::seededValues(size_t{c.batch} * c.height * c.width * c.channels, 12);
      const size_t outputs = size_t{c.batch} * c.outHeight * c.outWidth * c.channels;
      auto native = compileNative(model, sharedThreadPool(2));
      ASSERT_TRUE(native.ok()) << native.error().message;
      auto xnnpack = CompiledGraph::compile(model, nullptr);
      ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
      expectNear(runStage(**native, in, outputs), runStage(**xnnpack, in, outputs));
    }
  });
}

TEST(NativeStageTest, RefusesOperationsItHasNoKernelFor) {
  // Fewer than 8 channels: no depthwise form in any code (12 now runs in
  // AVX-512's column form, and is refused elsewhere: ComputesWhatXnnpackComputes).
  auto narrow = compileNative(convModel(depthwise("", 8, 4)), nullptr);
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.error().code, ErrorCode::OP_FAILED);
  EXPECT_NE(narrow.error().message.find("4 input and 4 output channels"), std::string::npos)
      << narrow.error().message;
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 4, 4, 8});
  const uint32_t output = m.tensor({1, 4, 4, 8});
  m.operation(
      ANEURALNETWORKS_ADD,
      {input, m.constant({8}, test::seededValues(8, 1)), m.int32(ANEURALNETWORKS_FUSED_NONE)},
      {output});
  auto broadcast = compileNative(m.finish({input}, {output}), nullptr);
  ASSERT_FALSE(broadcast.ok());
  EXPECT_NE(broadcast.error().message.find("does not broadcast"), std::string::npos)
      << broadcast.error().message;
}

// A segmentation head as in pose_landmark_full, on 32x32x8: a 3x3
// convolution XNNPACK runs, then depthwise, pointwise, residual ADD,
// depthwise and a 3x3 convolution to one channel.
struct Head {
  std::shared_ptr<const Model> model;
  static constexpr size_t kInput = size_t{32} * 32 * 8, kOutput = size_t{32} * 32;
};

Head headModel() {
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 32, 32, 8});
  const uint32_t a = addConv(m, input, conv("", 32, 8, 8, 3), 1);
  const uint32_t b = addConv(m, a, depthwise("", 32, 8), 3);
  const uint32_t c = addConv(m, b, conv("", 32, 8, 8, 1), 5);
  const uint32_t sum = addSum(m, a, c, {1, 32, 32, 8}, ANEURALNETWORKS_FUSED_RELU);
  const uint32_t d = addConv(m, sum, depthwise("", 32, 8), 7);
  const uint32_t e = addConv(m, d, conv("", 32, 8, 1, 3), 9);
  return {m.finish({input}, {e})};
}

TEST(NativeStageTest, ArenaSharesSpaceBetweenTensorsThatDoNotLiveTogether) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  forEachIsa([&] {
    const Head head = headModel();
    auto native = compileNative(head.model, nullptr);
    ASSERT_TRUE(native.ok()) << native.error().message;
    // Every operation native. Tensors a, b, c, sum, d: a lives until the ADD,
    // with b then c; sum and d follow once b and c are dead. Three 32x32x8
    // tensors at once (the ADD reads a and c and writes sum), not five.
    EXPECT_EQ((*native)->arenaFloats(), 3u * 32 * 32 * 8);
    auto xnnpack = CompiledGraph::compile(head.model, nullptr);
    ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
    const std::vector<float> input = test::seededValues(Head::kInput, 3);
    expectNear(runStage(**native, input, Head::kOutput), runStage(**xnnpack, input, Head::kOutput));
  });
}

TEST(NativeStagePlanTest, HeadRunsNativeAfterItsXnnpackConvolution) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  // The planner under AVX-512's decisions, which use every form here.
  const ScopedNativeIsa decisions(hostNativeIsa(), NativeIsa::AVX512);
  const Head head = headModel();
  // Node by node, so that every tensor lives in the staged graph's one
  // arena: the 3x3 convolution on XNNPACK, the rest native, the ADD (3) in
  // the 1x1 convolution before it.
  const StagePlan plan = planStages(*head.model, 0, 1);
  const std::vector<std::vector<uint32_t>> nodes = {{0}, {1}, {2, 3}, {4}, {5}};
  ASSERT_EQ(plan.stages.size(), nodes.size());
  for (uint32_t s = 0; s < plan.stages.size(); ++s) {
    EXPECT_EQ(plan.stages[s].native, s > 0) << "stage " << s;
    EXPECT_EQ(plan.stages[s].operations, nodes[s]) << "stage " << s;
  }
  EXPECT_EQ(plan.fusions->role(3), FusionRole::ADDEND);
  const StagePlan xnnpackOnly = planStages(*head.model, 0, 1, false);
  ASSERT_EQ(xnnpackOnly.stages.size(), 1u);
  EXPECT_FALSE(xnnpackOnly.stages[0].native);

  const std::vector<float> input = test::seededValues(Head::kInput, 4);
  std::vector<std::vector<float>> outputs;
  for (const auto& stages : {plan, xnnpackOnly}) {
    auto graph = StagedGraph::compile(head.model, stages, sharedThreadPool(2));
    ASSERT_TRUE(graph.ok()) << graph.error().message;
    outputs.emplace_back(Head::kOutput);
    ASSERT_TRUE((*graph)->run({input.data()}, {outputs.back().data()}).ok());
  }
  expectNear(outputs[0], outputs[1]);
}

TEST(NativeStagePlanTest, NativeStagesRunJoinedAsOneStage) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  forEachIsa([&] {
    const Head head = headModel();
    // Node by node, every node native, every other one threaded.
    StagePlan plan = planStages(*head.model, 0, 1);
    ASSERT_EQ(plan.stages.size(), 5u);
    for (size_t s = 0; s < plan.stages.size(); ++s) {
      plan.stages[s].native = true;
      plan.stages[s].threaded = s % 2 == 0;
    }
    auto joined = StagedGraph::compile(head.model, plan, sharedThreadPool(2));
    ASSERT_TRUE(joined.ok()) << joined.error().message;
    auto asPlanned = StagedGraph::compile(head.model, plan, sharedThreadPool(2), nullptr,
                                          NativeRuns::AS_PLANNED);
    ASSERT_TRUE(asPlanned.ok()) << asPlanned.error().message;
    EXPECT_EQ((*joined)->runCount(), 1u);
    EXPECT_EQ((*joined)->stageCount(), 5u) << "the plan stays as given, for the cache";
    EXPECT_EQ((*asPlanned)->runCount(), 5u);
    // With an XNNPACK stage between: the native stages before it and after
    // it run as two, their arenas in the staged graph's.
    StagePlan split = plan;
    split.stages[2].native = false;
    auto around = StagedGraph::compile(head.model, split, sharedThreadPool(2));
    ASSERT_TRUE(around.ok()) << around.error().message;
    auto aroundAsPlanned = StagedGraph::compile(head.model, split, sharedThreadPool(2), nullptr,
                                                NativeRuns::AS_PLANNED);
    ASSERT_TRUE(aroundAsPlanned.ok()) << aroundAsPlanned.error().message;
    EXPECT_EQ((*around)->runCount(), 3u);
    // The same kernels in the same order: the same bits, threaded or not.
    const std::vector<float> input = test::seededValues(Head::kInput, 5);
    for (const bool threaded : {true, false}) {
      std::vector<float> one(Head::kOutput), staged(Head::kOutput);
      ASSERT_TRUE((*joined)->run({input.data()}, {one.data()}, threaded).ok());
      ASSERT_TRUE((*asPlanned)->run({input.data()}, {staged.data()}, threaded).ok());
      EXPECT_EQ(one, staged) << (threaded ? "threaded" : "inline");
      std::vector<float> three(Head::kOutput), six(Head::kOutput);
      ASSERT_TRUE((*around)->run({input.data()}, {three.data()}, threaded).ok());
      ASSERT_TRUE((*aroundAsPlanned)->run({input.data()}, {six.data()}, threaded).ok());
      EXPECT_EQ(three, six) << (threaded ? "threaded" : "inline");
      expectNear(three, one);
    }
  });
}

TEST(NativeStagePlanTest, CutsXnnpackAtEveryNodeBesideANativeStage) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  // The planner under AVX-512's decisions, which use every form here.
  const ScopedNativeIsa decisions(hostNativeIsa(), NativeIsa::AVX512);
  // A 3x3 convolution to 32x32x64, read again after a depthwise convolution
  // of 16 channels on another branch, then a 3x3 convolution and the ADD
  // joining the branches: the depthwise convolution native (no native form
  // takes those convolutions), every XNNPACK node a stage of its own so
  // that all tensors share the one arena.
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 32, 32, 16});
  const uint32_t wide = addConv(m, input, conv("", 32, 16, 64, 3), 1);
  const uint32_t branch = addConv(m, input, depthwise("", 32, 16), 3);
  const uint32_t narrow = addConv(m, wide, conv("", 32, 64, 16, 3), 5);
  const uint32_t sum = addSum(m, branch, narrow, {1, 32, 32, 16}, ANEURALNETWORKS_FUSED_RELU);
  const std::shared_ptr<const Model> model = m.finish({input}, {sum});
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 4u);
  const std::vector<std::vector<uint32_t>> expected = {{0}, {1}, {2}, {3}};
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    EXPECT_EQ(plan.stages[s].operations, expected[s]) << "stage " << s;
    EXPECT_EQ(plan.stages[s].native, s == 1) << "stage " << s;
  }
  const StagePlan xnnpackOnly = planStages(*model, 0, 1, false);
  ASSERT_EQ(xnnpackOnly.stages.size(), 1u);
  const std::vector<float> in = test::seededValues(size_t{32} * 32 * 16, 8);
  std::vector<std::vector<float>> outputs;
  for (const auto& stages : {plan, xnnpackOnly}) {
    auto graph = StagedGraph::compile(model, stages, sharedThreadPool(1));
    ASSERT_TRUE(graph.ok()) << graph.error().message;
    outputs.emplace_back(32 * 32 * 16);
    ASSERT_TRUE((*graph)->run({in.data()}, {outputs.back().data()}).ok());
  }
  expectNear(outputs[0], outputs[1]);
}

TEST(NativeKernelTableTest, ThePlanFollowsTheColumnOfTheDecisionIsa) {
  // Depthwise 3x3 of 16 channels with dilation 2 (loading per tap): measured
  // faster than XNNPACK on AVX-512, slower on AVX2, never measured on the
  // baseline; without dilation (column reuse) faster on AVX2 too.
  ConvCase dilated = depthwise("", 16, 16);
  dilated.dilation = 2;
  const std::shared_ptr<const Model> wide = convModel(dilated);
  const std::shared_ptr<const Model> narrow = convModel(depthwise("", 16, 16));
  const NativeIsa code = hostNativeIsa();
  auto nativeStage = [](const Model& model) {
    const StagePlan plan = planStages(model, 0, 1);
    return plan.stages.size() == 1 && plan.stages[0].native;
  };
  for (const auto& [isa, wideNative, narrowNative] :
       {std::tuple{NativeIsa::AVX512, true, true}, std::tuple{NativeIsa::AVX2, false, true},
        std::tuple{NativeIsa::BASELINE, false, false}, std::tuple{NativeIsa::NEON, false, false}}) {
    SCOPED_TRACE(std::string(nativeIsaName(isa)));
    const ScopedNativeIsa scoped(code, isa);
    EXPECT_EQ(nativeStage(*wide), wideNative);
    EXPECT_EQ(nativeStage(*narrow), narrowNative);
  }
}

// ANNRT_CPU_NATIVE_KERNELS=all, for measuring the forms a column leaves out:
// every form runs where its kernel applies, whatever the column says.
TEST(NativeKernelTableTest, AllNativeKernelsOverridesTheColumn) {
  const std::shared_ptr<const Model> model = convModel(depthwise("", 16, 16));
  const ScopedNativeIsa scoped(hostNativeIsa(), NativeIsa::BASELINE);
  test::ScopedEnvironment environment;
  environment.set("ANNRT_CPU_NATIVE_KERNELS", nullptr);
  EXPECT_EQ(nativeKernelMode(), NativeKernelMode::TABLE);
  EXPECT_FALSE(planStages(*model, 0, 1).stages[0].native);
  environment.set("ANNRT_CPU_NATIVE_KERNELS", "all");
  EXPECT_EQ(nativeKernelMode(), NativeKernelMode::ALL);
  EXPECT_EQ(nativeFormUse(NativeForm::IMAGE_STEM), NativeUse::PREFERRED);
  const StagePlan plan = planStages(*model, 0, 1);
  ASSERT_EQ(plan.stages.size(), 1u);
  EXPECT_TRUE(plan.stages[0].native);
  environment.set("ANNRT_CPU_NATIVE_KERNELS", "0");
  EXPECT_EQ(nativeKernelMode(), NativeKernelMode::OFF);
}

TEST(NativeKernelTableTest, NamesEveryIsaAndFormAndRunsTheBaseline) {
  for (NativeIsa isa : {NativeIsa::BASELINE, NativeIsa::AVX2, NativeIsa::AVX512, NativeIsa::NEON}) {
    EXPECT_EQ(parseNativeIsa(nativeIsaName(isa)), isa);
    for (size_t f = 0; f < kNativeFormCount; ++f) {
      const NativeDecision& decision = nativeDecision(static_cast<NativeForm>(f), isa);
      EXPECT_FALSE(decision.evidence.empty()) << nativeFormName(static_cast<NativeForm>(f));
      if (isa == NativeIsa::BASELINE || isa == NativeIsa::NEON) {
        EXPECT_EQ(decision.use, NativeUse::NO) << "nothing was measured there";
      }
    }
  }
  EXPECT_FALSE(parseNativeIsa("sse4").has_value());
  EXPECT_TRUE(nativeIsaRuns(hostNativeIsa()));
  if (std::getenv("ANNRT_CPU_ISA") == nullptr) {
    EXPECT_EQ(nativeCodeIsa(), hostNativeIsa());
  }
}

}  // namespace
}  // namespace annrt::cpu
