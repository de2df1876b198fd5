// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu against nnapi-reference on quantized models (uint8 and int8
// activations, per-tensor and per-channel int8 filters) and on the float32
// operations lowered through compositions (TANH, CONCATENATION, PRELU, MEAN,
// GROUPED_CONV_2D, TRANSPOSE_CONV_2D). Each model must be claimed whole by
// annrt-cpu and give the reference's results on random inputs: quantized
// outputs within 1 (NNAPI's tolerance; XNNPACK rounds ties to even, the
// reference away from zero), float32 outputs within 1e-4 relative.
//
// The Declines* tests build models annrt-cpu must not claim (constraints of
// XNNPACK that differ from NNAPI's) and check that it does not, while the
// reference does.
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "test_graph.h"

namespace annrt::test {
namespace {

struct Tensor {
  std::vector<uint32_t> dims;
  TensorType type;
};

bool isQuant8(int32_t type) {
  return type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ||
         type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
}

std::vector<uint8_t> randomInput(const Tensor& tensor, uint32_t seed) {
  if (isQuant8(tensor.type.type)) return randomBytes(elementCount(tensor.dims), seed);
  return toBytes(randomValues(elementCount(tensor.dims), seed, -3.0f, 3.0f));
}

// Runs `graph` on both devices with random inputs and compares output 0.
// Off-by-one quantized results come from rounding ties only, normally a
// small minority (`maxOffByOne` of the elements).
void expectSameAsReference(const TestGraph& graph, const std::vector<Tensor>& inputs,
                           const Tensor& output, uint32_t seed = 1, double maxOffByOne = 0.25) {
  const std::vector<bool> claimed = graph.supportedBy(kCpu);
  ASSERT_FALSE(claimed.empty());
  for (size_t i = 0; i < claimed.size(); ++i) EXPECT_TRUE(claimed[i]) << "operation " << i;
  std::vector<std::vector<uint8_t>> data;
  data.reserve(inputs.size());
  for (const Tensor& input : inputs) data.push_back(randomInput(input, seed++));
  const size_t bytes = elementCount(output.dims) * elementSize(output.type.type);
  const auto expected = graph.runBytes(kReference, data, {bytes});
  const auto actual = graph.runBytes(kCpu, data, {bytes});
  ASSERT_EQ(expected.size(), 1u);
  ASSERT_EQ(actual.size(), 1u);
  const size_t n = elementCount(output.dims);
  if (isQuant8(output.type.type)) {
    const bool isSigned = output.type.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    size_t differing = 0;
    for (size_t i = 0; i < n; ++i) {
      const int e = isSigned ? static_cast<int8_t>(expected[0][i]) : expected[0][i];
      const int a = isSigned ? static_cast<int8_t>(actual[0][i]) : actual[0][i];
      ASSERT_LE(std::abs(a - e), 1) << "element " << i << " expected " << e << " got " << a;
      differing += a != e;
    }
    EXPECT_LE(differing, static_cast<size_t>(maxOffByOne * static_cast<double>(n)) + 1)
        << differing << " of " << n << " elements differ by 1";
    return;
  }
  std::vector<float> e(n), a(n);
  std::memcpy(e.data(), expected[0].data(), n * sizeof(float));
  std::memcpy(a.data(), actual[0].data(), n * sizeof(float));
  for (size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(a[i], e[i], 1e-4f + 1e-4f * std::fabs(e[i])) << "element " << i;
  }
}

// Output scale giving products of `depth` random uint8/int8 pairs (inputs
// and filters over their whole ranges) a spread of about +-60 around the zero
// point, so that activations and saturation are exercised but not everything
// saturates.
float productScale(float inputScale, float filterScale, uint32_t depth) {
  return inputScale * filterScale * 90.0f * std::sqrt(static_cast<float>(depth));
}

// An int8 filter (symmetric) or a uint8 one (zero point 120).
uint32_t quantFilter(TestGraph& g, bool isSigned, const std::vector<uint32_t>& dims, float scale,
                     uint32_t seed) {
  if (isSigned) {
    return g.constant(dims, quant8(true, scale, 128),
                      toBytes(randomInt8(elementCount(dims), seed)));
  }
  return g.constant(dims, quant8(false, scale, 120), randomBytes(elementCount(dims), seed));
}

std::vector<float> channelScales(uint32_t channels, float base) {
  std::vector<float> scales(channels);
  for (uint32_t c = 0; c < channels; ++c)
    scales[c] = base * (0.5f + 0.25f * static_cast<float>(c % 5));
  return scales;
}

uint32_t perChannelBias(TestGraph& g, uint32_t channels, uint32_t seed) {
  return g.int32Tensor({channels}, randomInt32(channels, seed, -3000, 3000));
}

// ---------------------------------------------------------------------------
// Convolutions: (signed, fused activation).

class QuantConvTest : public testing::TestWithParam<std::tuple<bool, int32_t>> {
 protected:
  bool isSigned() const { return std::get<0>(GetParam()); }
  int32_t activation() const { return std::get<1>(GetParam()); }
};

TEST_P(QuantConvTest, Conv2dPerTensorSame) {
  TestGraph g;
  const float inScale = 0.05f, wScale = 0.01f;
  const Tensor in{{1, 7, 6, 5}, quant8(isSigned(), inScale, 110)};
  const Tensor out{{1, 7, 6, 4}, quant8(isSigned(), productScale(inScale, wScale, 45), 100)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(
      ANEURALNETWORKS_CONV_2D,
      {input, quantFilter(g, isSigned(), {4, 3, 3, 5}, wScale, 11),
       g.int32Tensor({4}, randomInt32(4, 12, -3000, 3000), inScale * wScale),
       g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1), g.int32(activation())},
      {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, Conv2dPerTensorExplicitStrideDilation) {
  TestGraph g;
  const float inScale = 0.1f, wScale = 0.02f;
  const Tensor in{{2, 9, 8, 3}, quant8(isSigned(), inScale, 128)};
  // pads l1 r0 t2 b1, strides w2 h1, dilation w1 h2: out h 9+3-3+1=10, w (8+1-2)/2+1=4
  const Tensor out{{2, 10, 4, 6}, quant8(isSigned(), productScale(inScale, wScale, 12), 128)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_CONV_2D,
              {input, quantFilter(g, isSigned(), {6, 2, 2, 3}, wScale, 13),
               g.int32Tensor({6}, randomInt32(6, 14, -3000, 3000), inScale * wScale), g.int32(1),
               g.int32(0), g.int32(2), g.int32(1), g.int32(2), g.int32(1), g.int32(activation()),
               g.boolean(false), g.int32(1), g.int32(2)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, DepthwisePerTensorMultiplier2) {
  TestGraph g;
  const float inScale = 0.04f, wScale = 0.015f;
  const Tensor in{{1, 6, 7, 3}, quant8(isSigned(), inScale, 90)};
  const Tensor out{{1, 2, 6, 6}, quant8(isSigned(), productScale(inScale, wScale, 6), 140)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {input, quantFilter(g, isSigned(), {1, 3, 2, 6}, wScale, 15),
               g.int32Tensor({6}, randomInt32(6, 16, -3000, 3000), inScale * wScale),
               g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(1), g.int32(2), g.int32(2),
               g.int32(activation())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, FullyConnected) {
  TestGraph g;
  const float inScale = 0.03f, wScale = 0.02f;
  const Tensor in{{3, 2, 8}, quant8(isSigned(), inScale, 128)};
  const Tensor out{{6, 7}, quant8(isSigned(), productScale(inScale, wScale, 8), 120)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_FULLY_CONNECTED,
              {input, quantFilter(g, isSigned(), {7, 8}, wScale, 17),
               g.int32Tensor({7}, randomInt32(7, 18, -3000, 3000), inScale * wScale),
               g.int32(activation())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, GroupedConv) {
  TestGraph g;
  const float inScale = 0.05f, wScale = 0.01f;
  const Tensor in{{1, 5, 5, 6}, quant8(isSigned(), inScale, 128)};
  const Tensor out{{1, 5, 5, 4}, quant8(isSigned(), productScale(inScale, wScale, 27), 128)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_GROUPED_CONV_2D,
              {input, quantFilter(g, isSigned(), {4, 3, 3, 3}, wScale, 19),
               g.int32Tensor({4}, randomInt32(4, 20, -3000, 3000), inScale * wScale),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1), g.int32(2),
               g.int32(activation()), g.boolean(false)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, TransposeConvExplicit) {
  TestGraph g;
  const float inScale = 0.05f, wScale = 0.02f;
  const Tensor in{{1, 4, 3, 3}, quant8(isSigned(), inScale, 128)};
  // out = in * stride + k - stride - pads: h 4*2+3-2-1-0 = 8, w 3*2+3-2-0-1 = 6
  const Tensor out{{1, 8, 6, 2}, quant8(isSigned(), productScale(inScale, wScale, 6), 128)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
              {input, quantFilter(g, isSigned(), {2, 3, 3, 3}, wScale, 21),
               g.int32Tensor({2}, randomInt32(2, 22, -3000, 3000), inScale * wScale), g.int32(0),
               g.int32(1), g.int32(1), g.int32(0), g.int32(2), g.int32(2), g.int32(activation()),
               g.boolean(false)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, AddBroadcastDifferentScales) {
  TestGraph g;
  const Tensor a{{2, 3, 4, 5}, quant8(isSigned(), 0.02f, 100)};
  const Tensor b{{4, 1}, quant8(isSigned(), 0.05f, 140)};
  const Tensor out{{2, 3, 4, 5}, quant8(isSigned(), 0.04f, 128)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_ADD, {x, y, g.int32(activation())}, {output});
  g.finish({x, y}, {output});
  expectSameAsReference(g, {a, b}, out);
}

TEST_P(QuantConvTest, SubConstantOperand) {
  TestGraph g;
  const Tensor a{{3, 4, 5}, quant8(isSigned(), 0.03f, 128)};
  const Tensor out{{3, 4, 5}, quant8(isSigned(), 0.05f, 110)};
  const uint32_t x = g.tensor(a.dims, a.type);
  const uint32_t y = g.constant({5}, quant8(isSigned(), 0.02f, 130), randomBytes(5, 23));
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_SUB, {x, y, g.int32(activation())}, {output});
  g.finish({x}, {output});
  expectSameAsReference(g, {a}, out);
}

TEST_P(QuantConvTest, MulBroadcast) {
  TestGraph g;
  const Tensor a{{3, 1, 5}, quant8(isSigned(), 0.05f, 128)};
  const Tensor b{{4, 1}, quant8(isSigned(), 0.04f, 100)};
  const Tensor out{{3, 4, 5}, quant8(isSigned(), 0.1f, 128)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_MUL, {x, y, g.int32(activation())}, {output});
  g.finish({x, y}, {output});
  expectSameAsReference(g, {a, b}, out);
}

TEST_P(QuantConvTest, MaxPoolExplicitPadding) {
  TestGraph g;
  const Tensor in{{2, 5, 6, 2}, quant8(isSigned(), 0.05f, 128)};
  const Tensor out{{2, 3, 3, 2}, in.type};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_MAX_POOL_2D,
              {input, g.int32(1), g.int32(0), g.int32(1), g.int32(1), g.int32(2), g.int32(2),
               g.int32(2), g.int32(3), g.int32(activation())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, AveragePoolSamePadding) {
  TestGraph g;
  const Tensor in{{1, 9, 7, 3}, quant8(isSigned(), 0.05f, 120)};
  const Tensor out{{1, 5, 4, 3}, in.type};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {input, g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(2), g.int32(2), g.int32(3),
               g.int32(3), g.int32(activation())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantConvTest, AveragePoolGlobal) {
  TestGraph g;
  const Tensor in{{2, 6, 5, 7}, quant8(isSigned(), 0.05f, 128)};
  const Tensor out{{2, 1, 1, 7}, in.type};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {input, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(1), g.int32(1), g.int32(5),
               g.int32(6), g.int32(activation())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

INSTANTIATE_TEST_SUITE_P(
    Quant8, QuantConvTest,
    testing::Combine(testing::Bool(),
                     testing::Values(ANEURALNETWORKS_FUSED_NONE, ANEURALNETWORKS_FUSED_RELU,
                                     ANEURALNETWORKS_FUSED_RELU1, ANEURALNETWORKS_FUSED_RELU6)),
    [](const testing::TestParamInfo<std::tuple<bool, int32_t>>& info) {
      return std::string(std::get<0>(info.param) ? "Int8" : "Uint8") + "_Act" +
             std::to_string(std::get<1>(info.param));
    });

// Per-channel int8 filters (the only activation type XNNPACK's per-channel
// kernels take).
class PerChannelTest : public testing::TestWithParam<int32_t> {};

TEST_P(PerChannelTest, Conv2d) {
  TestGraph g;
  const float inScale = 0.05f;
  const Tensor in{{1, 8, 7, 4}, quant8(true, inScale, 120)};
  const Tensor out{{1, 4, 4, 5}, quant8(true, productScale(inScale, 0.01f, 36), 128)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_CONV_2D,
              {input, g.perChannel({5, 3, 3, 4}, randomInt8(180, 31), 0, channelScales(5, 0.01f)),
               perChannelBias(g, 5, 32), g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(2),
               g.int32(2), g.int32(GetParam())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(PerChannelTest, Depthwise) {
  TestGraph g;
  const float inScale = 0.05f;
  const Tensor in{{1, 7, 7, 8}, quant8(true, inScale, 128)};
  const Tensor out{{1, 7, 7, 8}, quant8(true, productScale(inScale, 0.02f, 9), 128)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {input, g.perChannel({1, 3, 3, 8}, randomInt8(72, 33), 3, channelScales(8, 0.02f)),
               perChannelBias(g, 8, 34), g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1),
               g.int32(1), g.int32(1), g.int32(GetParam())},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

INSTANTIATE_TEST_SUITE_P(Activations, PerChannelTest,
                         testing::Values(ANEURALNETWORKS_FUSED_NONE, ANEURALNETWORKS_FUSED_RELU,
                                         ANEURALNETWORKS_FUSED_RELU6));

// ---------------------------------------------------------------------------
// Other quantized operations: signed or not.

class QuantOpTest : public testing::TestWithParam<bool> {
 protected:
  bool isSigned() const { return GetParam(); }
  TensorType q(float scale, int32_t zeroPoint) const {
    return quant8(isSigned(), scale, zeroPoint);
  }
};

TEST_P(QuantOpTest, SoftmaxBeta) {
  for (float beta : {1.0f, 0.4f}) {
    TestGraph g;
    const Tensor in{{3, 11}, q(0.1f, 128)};
    // NNAPI fixes the output quantization to (1/256, 0), or -128 signed.
    const Tensor out{{3, 11}, q(1.0f / 256.0f, 0)};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    g.operation(ANEURALNETWORKS_SOFTMAX, {input, g.float32(beta)}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST_P(QuantOpTest, LogisticAndTanh) {
  const int32_t type = q(1, 0).type;
  for (auto [op, out] :
       {std::pair{ANEURALNETWORKS_LOGISTIC, TensorType{type, 1.0f / 256.0f, isSigned() ? -128 : 0}},
        std::pair{ANEURALNETWORKS_TANH, TensorType{type, 1.0f / 128.0f, isSigned() ? 0 : 128}}}) {
    TestGraph g;
    const Tensor in{{4, 33}, q(0.05f, 120)};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(in.dims, out);
    g.operation(op, {input}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, {in.dims, out});
  }
}

TEST_P(QuantOpTest, ReluFamilyAndHardSwish) {
  for (int32_t op : {ANEURALNETWORKS_RELU, ANEURALNETWORKS_RELU1, ANEURALNETWORKS_RELU6,
                     ANEURALNETWORKS_HARD_SWISH}) {
    TestGraph g;
    const Tensor in{{2, 5, 7}, q(0.05f, 130)};
    const Tensor out{in.dims, op == ANEURALNETWORKS_HARD_SWISH ? q(0.04f, 100) : in.type};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    g.operation(op, {input}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST_P(QuantOpTest, MaximumMinimumRequantize) {
  for (int32_t op : {ANEURALNETWORKS_MAXIMUM, ANEURALNETWORKS_MINIMUM}) {
    TestGraph g;
    const Tensor a{{2, 3, 4}, q(0.05f, 128)}, b{{3, 1}, q(0.03f, 100)};
    const Tensor out{{2, 3, 4}, q(0.06f, 120)};
    const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
    const uint32_t output = g.tensor(out.dims, out.type);
    g.operation(op, {x, y}, {output});
    g.finish({x, y}, {output});
    expectSameAsReference(g, {a, b}, out);
  }
}

TEST_P(QuantOpTest, ReshapeSqueezeExpandDims) {
  TestGraph g;
  const Tensor in{{2, 1, 6}, q(0.05f, 128)};
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t squeezed = g.tensor({2, 6}, in.type);
  g.operation(ANEURALNETWORKS_SQUEEZE, {input, g.int32Tensor({1}, {1})}, {squeezed});
  const uint32_t reshaped = g.tensor({3, 4}, in.type);
  g.operation(ANEURALNETWORKS_RESHAPE, {squeezed, g.int32Tensor({2}, {3, 4})}, {reshaped});
  const uint32_t output = g.tensor({3, 1, 4}, in.type);
  g.operation(ANEURALNETWORKS_EXPAND_DIMS, {reshaped, g.int32(1)}, {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, {{3, 1, 4}, in.type});
}

TEST_P(QuantOpTest, ConcatenationChannelsDifferentScales) {
  TestGraph g;
  const Tensor a{{1, 3, 4, 2}, q(0.05f, 128)}, b{{1, 3, 4, 3}, q(0.02f, 100)};
  const Tensor c{{1, 3, 4, 1}, q(0.04f, 128)};
  const Tensor out{{1, 3, 4, 6}, q(0.05f, 128)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
  const uint32_t z = g.tensor(c.dims, c.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_CONCATENATION, {x, y, z, g.int32(3)}, {output});
  g.finish({x, y, z}, {output});
  expectSameAsReference(g, {a, b, c}, out);
}

TEST_P(QuantOpTest, ConcatenationSameScaleNegativeAxis) {
  TestGraph g;
  const Tensor a{{2, 2, 3}, q(0.05f, 128)}, b{{2, 4, 3}, q(0.05f, 128)};
  const Tensor out{{2, 6, 3}, q(0.05f, 128)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_CONCATENATION, {x, y, g.int32(-2)}, {output});
  g.finish({x, y}, {output});
  expectSameAsReference(g, {a, b}, out);
}

TEST_P(QuantOpTest, PadAndPadV2) {
  for (int32_t op : {ANEURALNETWORKS_PAD, ANEURALNETWORKS_PAD_V2}) {
    TestGraph g;
    const Tensor in{{1, 3, 4, 2}, q(0.05f, 110)};
    const Tensor out{{1, 6, 5, 2}, in.type};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    std::vector<uint32_t> inputs{input, g.int32Tensor({4, 2}, {0, 0, 1, 2, 0, 1, 0, 0})};
    if (op == ANEURALNETWORKS_PAD_V2) inputs.push_back(g.int32(isSigned() ? -77 : 51));
    g.operation(op, inputs, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST_P(QuantOpTest, ResizeBilinearModes) {
  for (int mode = 0; mode < 3; ++mode) {
    TestGraph g;
    const Tensor in{{1, 3, 4, 2}, q(0.05f, 128)};
    const Tensor out{{1, 7, 5, 2}, in.type};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    g.operation(ANEURALNETWORKS_RESIZE_BILINEAR,
                {input, g.int32(5), g.int32(7), g.boolean(false), g.boolean(mode == 1),
                 g.boolean(mode == 2)},
                {output});
    g.finish({input}, {output});
    // The reference rounds int8 by adding 0.5 and truncating toward zero, so
    // negative halves and more round up there; XNNPACK rounds to nearest.
    expectSameAsReference(g, {in}, out, 1, isSigned() ? 0.5 : 0.25);
  }
}

TEST_P(QuantOpTest, DepthToSpace) {
  TestGraph g;
  const Tensor in{{1, 2, 3, 8}, q(0.05f, 128)};
  const Tensor out{{1, 4, 6, 2}, in.type};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_DEPTH_TO_SPACE, {input, g.int32(2)}, {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST_P(QuantOpTest, QuantizeAndDequantize) {
  {
    TestGraph g;
    const Tensor in{{3, 17}, {ANEURALNETWORKS_TENSOR_FLOAT32}};
    const Tensor out{{3, 17}, q(0.02f, 100)};
    const uint32_t input = g.tensor(in.dims), output = g.tensor(out.dims, out.type);
    g.operation(ANEURALNETWORKS_QUANTIZE, {input}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
  {
    TestGraph g;
    const Tensor in{{3, 17}, q(0.02f, 100)};
    const Tensor out{{3, 17}, {ANEURALNETWORKS_TENSOR_FLOAT32}};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims);
    g.operation(ANEURALNETWORKS_DEQUANTIZE, {input}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST_P(QuantOpTest, MeanSpatial) {
  for (int32_t keep : {0, 1}) {
    TestGraph g;
    const Tensor in{{2, 4, 5, 3}, q(0.05f, 128)};
    const Tensor out{keep ? std::vector<uint32_t>{2, 1, 1, 3} : std::vector<uint32_t>{2, 3},
                     q(0.03f, 110)};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    g.operation(ANEURALNETWORKS_MEAN, {input, g.int32Tensor({2}, {2, -3}), g.int32(keep)},
                {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST_P(QuantOpTest, MeanOverLastAxes) {
  TestGraph g;
  const Tensor in{{3, 4, 5}, q(0.05f, 128)};
  const Tensor out{{3}, q(0.02f, 120)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_MEAN, {input, g.int32Tensor({2}, {-1, 1}), g.int32(0)}, {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

// Reducing axes of size 1 only drops them (MEAN may still requantize).
TEST_P(QuantOpTest, ReductionsOfSizeOneAxes) {
  for (int32_t op : {ANEURALNETWORKS_MEAN, ANEURALNETWORKS_REDUCE_MAX}) {
    TestGraph g;
    const Tensor in{{3, 1, 4}, q(0.05f, 100)};
    const Tensor out{{3, 4}, op == ANEURALNETWORKS_MEAN ? q(0.03f, 120) : in.type};
    const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    const uint32_t keep = op == ANEURALNETWORKS_MEAN ? g.int32(0) : g.boolean(false);
    g.operation(op, {input, g.int32Tensor({1}, {1}), keep}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST_P(QuantOpTest, ReduceMaxAndMin) {
  for (int32_t op : {ANEURALNETWORKS_REDUCE_MAX, ANEURALNETWORKS_REDUCE_MIN}) {
    for (bool spatial : {false, true}) {
      TestGraph g;
      const Tensor in{{2, 3, 4, 5}, q(0.05f, 100)};
      const Tensor out{spatial ? std::vector<uint32_t>{2, 1, 1, 5} : std::vector<uint32_t>{2, 5},
                       in.type};
      const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
      g.operation(op, {input, g.int32Tensor({2}, {1, 2}), g.boolean(spatial)}, {output});
      g.finish({input}, {output});
      expectSameAsReference(g, {in}, out);
    }
  }
}

TEST_P(QuantOpTest, PreluPerChannelAlpha) {
  TestGraph g;
  const Tensor in{{1, 3, 4, 5}, q(0.05f, 128)};
  const Tensor out{in.dims, q(0.04f, 120)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  const uint32_t alpha = g.constant({1, 1, 5}, q(0.01f, 100), randomBytes(5, 41));
  g.operation(ANEURALNETWORKS_PRELU, {input, alpha}, {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

INSTANTIATE_TEST_SUITE_P(Quant8, QuantOpTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Int8" : "Uint8";
                         });

// conv -> depthwise -> add (residual) -> average pool -> FC -> softmax, int8
// with per-channel filters, in one XNNPACK runtime.
TEST(QuantNetworkTest, Int8PerChannelBlockInOneRuntime) {
  TestGraph g;
  const Tensor in{{1, 8, 8, 4}, quant8(true, 0.05f, 128)};
  const TensorType act = quant8(true, 0.1f, 100);
  const uint32_t input = g.tensor(in.dims, in.type);
  const uint32_t c1 = g.tensor({1, 8, 8, 4}, act);
  g.operation(ANEURALNETWORKS_CONV_2D,
              {input, g.perChannel({4, 1, 1, 4}, randomInt8(16, 51), 0, channelScales(4, 0.02f)),
               perChannelBias(g, 4, 52), g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1),
               g.int32(1), g.int32(ANEURALNETWORKS_FUSED_RELU6)},
              {c1});
  const uint32_t c2 = g.tensor({1, 8, 8, 4}, act);
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {c1, g.perChannel({1, 3, 3, 4}, randomInt8(36, 53), 3, channelScales(4, 0.02f)),
               perChannelBias(g, 4, 54), g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1),
               g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_RELU)},
              {c2});
  const uint32_t sum = g.tensor({1, 8, 8, 4}, quant8(true, 0.12f, 110));
  g.operation(ANEURALNETWORKS_ADD, {c2, input, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
  const uint32_t pooled = g.tensor({1, 1, 1, 4}, quant8(true, 0.12f, 110));
  g.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {sum, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(1), g.int32(1), g.int32(8),
               g.int32(8), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {pooled});
  const uint32_t logits = g.tensor({1, 5}, quant8(true, 0.1f, 128));
  g.operation(ANEURALNETWORKS_FULLY_CONNECTED,
              {pooled, quantFilter(g, true, {5, 4}, 0.02f, 55),
               g.int32Tensor({5}, randomInt32(5, 56, -500, 500), 0.12f * 0.02f),
               g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {logits});
  const TensorType probabilitiesType{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1.0f / 256.0f,
                                     -128};
  const uint32_t probabilities = g.tensor({1, 5}, probabilitiesType);
  g.operation(ANEURALNETWORKS_SOFTMAX, {logits, g.float32(1.0f)}, {probabilities});
  g.finish({input}, {probabilities});
  expectSameAsReference(g, {in}, {{1, 5}, probabilitiesType});
}

// ---------------------------------------------------------------------------
// Float32 operations lowered through compositions.

TEST(FloatCompositionTest, Tanh) {
  TestGraph g;
  const Tensor in{{5, 31}, {}};
  const uint32_t input = g.tensor(in.dims), output = g.tensor(in.dims);
  g.operation(ANEURALNETWORKS_TANH, {input}, {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, in);
}

TEST(FloatCompositionTest, ConcatenationThreeInputs) {
  TestGraph g;
  const uint32_t a = g.tensor({2, 3, 4}), b = g.tensor({2, 1, 4}), c = g.tensor({2, 2, 4});
  const uint32_t output = g.tensor({2, 6, 4});
  g.operation(ANEURALNETWORKS_CONCATENATION, {a, b, c, g.int32(1)}, {output});
  g.finish({a, b, c}, {output});
  expectSameAsReference(g, {{{2, 3, 4}, {}}, {{2, 1, 4}, {}}, {{2, 2, 4}, {}}}, {{2, 6, 4}, {}});
}

TEST(FloatCompositionTest, PreluAndMean) {
  TestGraph g;
  const uint32_t input = g.tensor({2, 5, 4, 3});
  const uint32_t activated = g.tensor({2, 5, 4, 3});
  g.operation(ANEURALNETWORKS_PRELU, {input, g.constant({3}, randomValues(3, 61))}, {activated});
  const uint32_t output = g.tensor({2, 3});
  g.operation(ANEURALNETWORKS_MEAN, {activated, g.int32Tensor({2}, {1, 2}), g.int32(0)}, {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {{{2, 5, 4, 3}, {}}}, {{2, 3}, {}});
}

TEST(FloatCompositionTest, Reductions) {
  for (int32_t op : {ANEURALNETWORKS_MEAN, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_REDUCE_MAX,
                     ANEURALNETWORKS_REDUCE_MIN}) {
    TestGraph g;
    const uint32_t input = g.tensor({2, 3, 4, 5});
    const uint32_t output = g.tensor({2, 1, 1, 5});
    const uint32_t keep = op == ANEURALNETWORKS_MEAN ? g.int32(1) : g.boolean(true);
    g.operation(op, {input, g.int32Tensor({2}, {2, 1}), keep}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {{{2, 3, 4, 5}, {}}}, {{2, 1, 1, 5}, {}});
  }
  for (int32_t op : {ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_REDUCE_MIN}) {
    TestGraph g;
    const uint32_t input = g.tensor({4, 7});
    const uint32_t output = g.tensor({7});
    g.operation(op, {input, g.int32Tensor({1}, {0}), g.boolean(false)}, {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {{{4, 7}, {}}}, {{7}, {}});
  }
}

// BATCH_MATMUL with a constant right-hand side, as a fully connected layer.
TEST(FloatCompositionTest, BatchMatmulConstantRhs) {
  for (bool adjY : {false, true}) {
    TestGraph g;
    const uint32_t lhs = g.tensor({2, 3, 5});
    const uint32_t rhs =
        g.constant(adjY ? std::vector<uint32_t>{1, 4, 5} : std::vector<uint32_t>{1, 5, 4},
                   randomValues(20, 81));
    const uint32_t output = g.tensor({2, 3, 4});
    g.operation(ANEURALNETWORKS_BATCH_MATMUL, {lhs, rhs, g.boolean(false), g.boolean(adjY)},
                {output});
    g.finish({lhs}, {output});
    expectSameAsReference(g, {{{2, 3, 5}, {}}}, {{2, 3, 4}, {}});
  }
}

TEST(QuantNetworkTest, Int8BatchMatmulConstantRhs) {
  // Weight zero point 0 runs on XNNPACK's int8 kernels, another one in float.
  for (int32_t weightZero : {128, 140}) {
    TestGraph g;
    const Tensor in{{2, 3, 6}, quant8(true, 0.05f, 120)};
    const Tensor out{{2, 3, 4}, quant8(true, productScale(0.05f, 0.02f, 6), 128)};
    const uint32_t lhs = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
    const uint32_t rhs =
        g.constant({1, 6, 4}, quant8(true, 0.02f, weightZero), randomBytes(24, 82));
    g.operation(ANEURALNETWORKS_BATCH_MATMUL, {lhs, rhs, g.boolean(false), g.boolean(false)},
                {output});
    g.finish({lhs}, {output});
    expectSameAsReference(g, {in}, out);
  }
}

TEST(FloatCompositionTest, GroupedConvExplicitPadding) {
  TestGraph g;
  const uint32_t input = g.tensor({1, 6, 5, 6});
  const uint32_t output = g.tensor({1, 3, 3, 9});
  g.operation(
      ANEURALNETWORKS_GROUPED_CONV_2D,
      {input, g.constant({9, 3, 2, 2}, randomValues(108, 62)), g.constant({9}, randomValues(9, 63)),
       g.int32(1), g.int32(0), g.int32(1), g.int32(0), g.int32(2), g.int32(2), g.int32(3),
       g.int32(ANEURALNETWORKS_FUSED_RELU), g.boolean(false)},
      {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {{{1, 6, 5, 6}, {}}}, {{1, 3, 3, 9}, {}});
}

// SAME padding for a requested output size: 8 and 7 pad (1 and 2 in total);
// with a 1x1 filter, 8 needs a negative tail, an XNNPACK adjustment.
TEST(FloatCompositionTest, TransposeConvImplicitSame) {
  for (auto [filterSize, outSize] : {std::pair{3u, 8u}, {3u, 7u}, {1u, 8u}}) {
    TestGraph g;
    const uint32_t input = g.tensor({1, 4, 4, 3});
    const uint32_t output = g.tensor({1, outSize, outSize, 2});
    g.operation(
        ANEURALNETWORKS_TRANSPOSE_CONV_2D,
        {input,
         g.constant({2, filterSize, filterSize, 3},
                    randomValues(size_t{6} * filterSize * filterSize, 64)),
         g.constant({2}, randomValues(2, 65)),
         g.int32Tensor({4}, {1, static_cast<int32_t>(outSize), static_cast<int32_t>(outSize), 2}),
         g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(2), g.int32(2),
         g.int32(ANEURALNETWORKS_FUSED_NONE), g.boolean(false)},
        {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {{{1, 4, 4, 3}, {}}}, {{1, outSize, outSize, 2}, {}});
  }
}

// ---------------------------------------------------------------------------
// Quantized ops XNNPACK's integer kernels cannot take as they are, which
// annrt-cpu computes in float32 (and must still claim and get right).

TEST(QuantFloatPathTest, Uint8ActivationsWithPerChannelFilter) {
  TestGraph g;
  const Tensor in{{1, 5, 4, 3}, quant8(false, 0.05f, 110)};
  const Tensor out{{1, 5, 4, 4}, quant8(false, productScale(0.05f, 0.02f, 27), 128)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_CONV_2D,
              {input, g.perChannel({4, 3, 3, 3}, randomInt8(108, 1), 0, channelScales(4, 0.02f)),
               perChannelBias(g, 4, 2), g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1),
               g.int32(1), g.int32(ANEURALNETWORKS_FUSED_RELU)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST(QuantFloatPathTest, Int8FilterWithZeroPoint) {
  TestGraph g;
  const Tensor in{{1, 4, 4, 3}, quant8(true, 0.05f, 128)};
  const Tensor out{{1, 4, 4, 3}, quant8(true, productScale(0.05f, 0.01f, 4), 128)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(
      ANEURALNETWORKS_DEPTHWISE_CONV_2D,
      {input, g.constant({1, 2, 2, 3}, quant8(true, 0.01f, 131), randomBytes(12, 3)),
       g.int32Tensor({3}, {100, -200, 300}, 0.05f * 0.01f), g.int32(ANEURALNETWORKS_PADDING_SAME),
       g.int32(1), g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_NONE)},
      {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST(QuantFloatPathTest, ConvRequantizationScaleAbove256) {
  TestGraph g;
  // 1.0 * 1.0 / 0.001 = 1000 >= 256: most outputs saturate, as in the reference.
  const Tensor in{{1, 3, 3, 1}, quant8(true, 1.0f, 128)};
  const Tensor out{{1, 3, 3, 1}, quant8(true, 0.001f, 128)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_CONV_2D,
              {input, g.constant({1, 1, 1, 1}, quant8(true, 1.0f, 128), {1}),
               g.int32Tensor({1}, {0}, 1.0f), g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1),
               g.int32(1), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST(QuantFloatPathTest, PerChannelTransposeConv) {
  TestGraph g;
  const Tensor in{{1, 3, 3, 2}, quant8(true, 0.05f, 128)};
  const Tensor out{{1, 6, 6, 2}, quant8(true, productScale(0.05f, 0.02f, 2), 128)};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
              {input, g.perChannel({2, 2, 2, 2}, randomInt8(16, 4), 0, {0.01f, 0.02f}),
               perChannelBias(g, 2, 5), g.int32(0), g.int32(0), g.int32(0), g.int32(0), g.int32(2),
               g.int32(2), g.int32(ANEURALNETWORKS_FUSED_NONE), g.boolean(false)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

TEST(QuantFloatPathTest, AddScaleRatioOutsideXnnpackRange) {
  TestGraph g;
  // 0.0001 / 0.05 < 2^-10
  const Tensor a{{2, 8}, quant8(false, 0.0001f, 128)}, b{{2, 8}, quant8(false, 0.05f, 100)};
  const Tensor out{{2, 8}, quant8(false, 0.05f, 128)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_ADD, {x, y, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {output});
  g.finish({x, y}, {output});
  expectSameAsReference(g, {a, b}, out);
}

TEST(QuantFloatPathTest, MulScaleRatioBelowXnnpackRange) {
  TestGraph g;
  // 0.002 * 0.002 / 0.5 < 2^-16
  const Tensor a{{9}, quant8(true, 0.002f, 128)}, b{{9}, quant8(true, 0.002f, 120)};
  const Tensor out{{9}, quant8(true, 0.5f, 128)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(b.dims, b.type);
  const uint32_t output = g.tensor(out.dims, out.type);
  g.operation(ANEURALNETWORKS_MUL, {x, y, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {output});
  g.finish({x, y}, {output});
  expectSameAsReference(g, {a, b}, out);
}

TEST(QuantFloatPathTest, FusedReluWithEmptyQuantizedRange) {
  TestGraph g;
  // Zero point 255: RELU leaves [255, 255], which XNNPACK's kernels refuse.
  const Tensor a{{6}, quant8(false, 0.1f, 255)};
  const uint32_t x = g.tensor(a.dims, a.type), y = g.tensor(a.dims, a.type);
  const uint32_t output = g.tensor(a.dims, a.type);
  g.operation(ANEURALNETWORKS_ADD, {x, y, g.int32(ANEURALNETWORKS_FUSED_RELU)}, {output});
  g.finish({x, y}, {output});
  expectSameAsReference(g, {a, a}, a);
}

// 1x1 pooling windows: a clamp (stride 1) or a strided 1x1 depthwise
// convolution with unit weights.
class SinglePixelPoolTest : public testing::TestWithParam<std::tuple<int32_t, int32_t, bool>> {};

TEST_P(SinglePixelPoolTest, MatchesReference) {
  const auto [op, stride, quantized] = GetParam();
  TestGraph g;
  const TensorType type = quantized ? quant8(true, 0.05f, 120) : TensorType{};
  const Tensor in{{1, 5, 6, 3}, type};
  const uint32_t size = stride == 1 ? 5 : 3, width = stride == 1 ? 6 : 3;
  const Tensor out{{1, size, width, 3}, type};
  const uint32_t input = g.tensor(in.dims, in.type), output = g.tensor(out.dims, out.type);
  g.operation(op,
              {input, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(stride), g.int32(stride),
               g.int32(1), g.int32(1), g.int32(ANEURALNETWORKS_FUSED_RELU1)},
              {output});
  g.finish({input}, {output});
  expectSameAsReference(g, {in}, out);
}

INSTANTIATE_TEST_SUITE_P(Pools, SinglePixelPoolTest,
                         testing::Combine(testing::Values(ANEURALNETWORKS_AVERAGE_POOL_2D,
                                                          ANEURALNETWORKS_MAX_POOL_2D),
                                          testing::Values(1, 2), testing::Bool()));

// MediaPipe's Convolution2DTransposeBias, as the TFLite importer emits it.
TEST(ExtensionTest, Convolution2DTransposeBias) {
  for (int32_t scheme : {1, 2}) {
    TestGraph g;
    ANeuralNetworksOperationType type = 0;
    ASSERT_EQ(
        ANeuralNetworksModel_getExtensionOperationType(g.model(), "com.annrt.tflite", 0, &type),
        ANEURALNETWORKS_NO_ERROR);
    const uint32_t input = g.tensor({1, 5, 4, 3});
    // SAME: pad = max(0, 4 - (in - 1) % 2 - 1): h 3, w 2; VALID: none.
    const std::vector<uint32_t> outDims =
        scheme == 1 ? std::vector<uint32_t>{1, 9, 8, 2} : std::vector<uint32_t>{1, 12, 10, 2};
    const uint32_t output = g.tensor(outDims);
    g.operation(type,
                {input, g.constant({2, 4, 4, 3}, randomValues(96, 71)),
                 g.constant({2}, randomValues(2, 72)), g.int32(scheme), g.int32(2), g.int32(2)},
                {output});
    g.finish({input}, {output});
    expectSameAsReference(g, {{{1, 5, 4, 3}, {}}}, {outDims, {}});
  }
}

// ---------------------------------------------------------------------------
// What annrt-cpu must decline (and the reference accepts).

void expectDeclined(const TestGraph& g) {
  EXPECT_EQ(g.supportedBy(kCpu), std::vector<bool>{false});
  EXPECT_EQ(g.supportedBy(kReference), std::vector<bool>{true});
}

TEST(DeclinesTest, SoftmaxNotOnLastAxis) {
  TestGraph g;
  const uint32_t input = g.tensor({3, 4}, quant8(false, 0.1f, 128));
  const uint32_t output = g.tensor({3, 4}, quant8(false, 1.0f / 256.0f, 0));
  g.operation(ANEURALNETWORKS_SOFTMAX, {input, g.float32(1.0f), g.int32(0)}, {output});
  g.finish({input}, {output});
  expectDeclined(g);
}

TEST(DeclinesTest, MeanOverSeparateAxes) {
  TestGraph g;
  const uint32_t input = g.tensor({2, 2, 3, 4});
  const uint32_t output = g.tensor({2, 3});
  g.operation(ANEURALNETWORKS_MEAN, {input, g.int32Tensor({2}, {1, 3}), g.int32(0)}, {output});
  g.finish({input}, {output});
  expectDeclined(g);
}

TEST(DeclinesTest, QuantizedFilterNotConstant) {
  TestGraph g;
  const uint32_t input = g.tensor({1, 3, 3, 2}, quant8(true, 0.05f, 128));
  const uint32_t filter = g.tensor({2, 1, 1, 2}, quant8(true, 0.01f, 128));
  const uint32_t output = g.tensor({1, 3, 3, 2}, quant8(true, 0.5f, 128));
  g.operation(ANEURALNETWORKS_CONV_2D,
              {input, filter, g.int32Tensor({2}, {0, 0}, 0.05f * 0.01f),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1),
               g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {output});
  g.finish({input, filter}, {output});
  expectDeclined(g);
}

TEST(DeclinesTest, QuantizedMaxPoolWithEmptyActivationRange) {
  TestGraph g;
  const TensorType type = quant8(false, 0.1f, 255);
  const uint32_t input = g.tensor({1, 4, 4, 1}, type), output = g.tensor({1, 2, 2, 1}, type);
  g.operation(ANEURALNETWORKS_MAX_POOL_2D,
              {input, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(2), g.int32(2), g.int32(2),
               g.int32(2), g.int32(ANEURALNETWORKS_FUSED_RELU)},
              {output});
  g.finish({input}, {output});
  expectDeclined(g);
}

TEST(DeclinesTest, BatchMatmulTransposedLhs) {
  TestGraph g;
  const uint32_t lhs = g.tensor({3, 2}), output = g.tensor({2, 4});
  g.operation(ANEURALNETWORKS_BATCH_MATMUL,
              {lhs, g.constant({3, 4}, randomValues(12, 83)), g.boolean(true), g.boolean(false)},
              {output});
  g.finish({lhs}, {output});
  expectDeclined(g);
}

TEST(DeclinesTest, Float16) {
  TestGraph g;
  const TensorType half{ANEURALNETWORKS_TENSOR_FLOAT16};
  const uint32_t input = g.tensor({2, 3}, half), output = g.tensor({2, 3}, half);
  g.operation(ANEURALNETWORKS_RELU, {input}, {output});
  g.finish({input}, {output});
  expectDeclined(g);
}

}  // namespace
}  // namespace annrt::test
