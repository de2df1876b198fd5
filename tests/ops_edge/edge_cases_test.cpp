// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Checks against direct computations written here, on nnapi-reference.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/single_op.h"

namespace {

using namespace annrt::test;  // NOLINT(google-build-using-namespace): the harness

std::vector<float> randomFloats(size_t count, uint32_t seed, float low = -1, float high = 1) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> v(count);
  for (float& x : v) x = distribution(generator);
  return v;
}

float activate(float x, int32_t activation) {
  switch (activation) {
    case ANEURALNETWORKS_FUSED_RELU: return std::max(0.0f, x);
    case ANEURALNETWORKS_FUSED_RELU1: return std::clamp(x, -1.0f, 1.0f);
    case ANEURALNETWORKS_FUSED_RELU6: return std::clamp(x, 0.0f, 6.0f);
    default: return x;
  }
}

constexpr int32_t kActivations[] = {ANEURALNETWORKS_FUSED_NONE, ANEURALNETWORKS_FUSED_RELU,
                                    ANEURALNETWORKS_FUSED_RELU1, ANEURALNETWORKS_FUSED_RELU6};

class FusedActivationTest : public ::testing::TestWithParam<int32_t> {};

// Values on both sides of every clamp bound, exactly representable.
const std::vector<float> kSpread = {-7.5f, -3, -1, -0.5f, 0, 0.5f, 1, 3, 6, 7.5f};

TEST_P(FusedActivationTest, FloatAddMulAndConv) {
  const int32_t act = GetParam();
  const uint32_t n = static_cast<uint32_t>(kSpread.size());
  const Operand zeros = f32({n}, std::vector<float>(n, 0.0f));
  const Operand ones = f32({n}, std::vector<float>(n, 1.0f));
  Operand out = output<float>(kF32, {n});
  ASSERT_EQ(run(ANEURALNETWORKS_ADD, {f32({n}, kSpread), zeros, i32(act)}, out), kOk);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(values<float>(out)[i], activate(kSpread[i], act));
  ASSERT_EQ(run(ANEURALNETWORKS_MUL, {f32({n}, kSpread), ones, i32(act)}, out), kOk);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(values<float>(out)[i], activate(kSpread[i], act));
  // A 1x1 convolution with weight 1 and bias 0 is the identity before the activation.
  Operand filter = f32({1, 1, 1, 1}, {1.0f});
  filter.constant = true;
  Operand bias = f32({1}, {0.0f});
  bias.constant = true;
  Operand conv = output<float>(kF32, {1, 1, n, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_CONV_2D,
                {f32({1, 1, n, 1}, kSpread), filter, bias, i32(ANEURALNETWORKS_PADDING_VALID),
                 i32(1), i32(1), i32(act)},
                conv),
            kOk);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(values<float>(conv)[i], activate(kSpread[i], act));
}

// Quantized ADD with scale 0.5: the clamp bounds land on exact steps.
TEST_P(FusedActivationTest, QuantizedAddBothSignednesses) {
  const int32_t act = GetParam();
  const uint32_t n = static_cast<uint32_t>(kSpread.size());
  for (const int32_t type : {kQ8, kQ8S}) {
    const int32_t zeroPoint = type == kQ8 ? 128 : 0;
    std::vector<uint8_t> raw(n), zero(n, static_cast<uint8_t>(zeroPoint));
    for (uint32_t i = 0; i < n; ++i) {
      raw[i] = static_cast<uint8_t>(static_cast<int32_t>(kSpread[i] * 2) + zeroPoint);
    }
    Operand a = tensor(type, {n}, raw, 0.5f, zeroPoint);
    Operand b = tensor(type, {n}, zero, 0.5f, zeroPoint);
    Operand out = output<uint8_t>(type, {n}, 0.5f, zeroPoint);
    ASSERT_EQ(run(ANEURALNETWORKS_ADD, {a, b, i32(act)}, out), kOk);
    const std::vector<uint8_t> got = values<uint8_t>(out);
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t q = type == kQ8 ? got[i] : static_cast<int8_t>(got[i]);
      EXPECT_EQ((q - zeroPoint) * 0.5f, activate(kSpread[i], act))
          << "type " << type << " element " << i;
    }
  }
}

std::string activationName(const ::testing::TestParamInfo<int32_t>& info) {
  static const char* const kNames[] = {"None", "Relu", "Relu1", "Relu6"};
  return kNames[info.param];
}

INSTANTIATE_TEST_SUITE_P(EachActivation, FusedActivationTest, ::testing::ValuesIn(kActivations),
                         activationName);

// NHWC convolution by definition, with explicit paddings, strides and dilations.
struct ConvGeometry {
  uint32_t batches, height, width, inChannels, outChannels, kernelH, kernelW;
  int32_t padLeft, padRight, padTop, padBottom, strideW, strideH, dilationW, dilationH;

  uint32_t outHeight() const {
    return static_cast<uint32_t>((static_cast<int32_t>(height) + padTop + padBottom -
                                  ((static_cast<int32_t>(kernelH) - 1) * dilationH + 1)) /
                                     strideH +
                                 1);
  }
  uint32_t outWidth() const {
    return static_cast<uint32_t>((static_cast<int32_t>(width) + padLeft + padRight -
                                  ((static_cast<int32_t>(kernelW) - 1) * dilationW + 1)) /
                                     strideW +
                                 1);
  }
};

std::vector<float> directConv(const ConvGeometry& g, const std::vector<float>& in,
                              const std::vector<float>& filter, const std::vector<float>& bias) {
  const uint32_t oh = g.outHeight(), ow = g.outWidth();
  std::vector<float> out;
  out.reserve(size_t{g.batches} * oh * ow * g.outChannels);
  for (uint32_t b = 0; b < g.batches; ++b) {
    for (uint32_t y = 0; y < oh; ++y) {
      for (uint32_t x = 0; x < ow; ++x) {
        for (uint32_t o = 0; o < g.outChannels; ++o) {
          double sum = bias[o];
          for (uint32_t ky = 0; ky < g.kernelH; ++ky) {
            const int32_t iy = static_cast<int32_t>(y) * g.strideH - g.padTop +
                               static_cast<int32_t>(ky) * g.dilationH;
            if (iy < 0 || iy >= static_cast<int32_t>(g.height)) continue;
            for (uint32_t kx = 0; kx < g.kernelW; ++kx) {
              const int32_t ix = static_cast<int32_t>(x) * g.strideW - g.padLeft +
                                 static_cast<int32_t>(kx) * g.dilationW;
              if (ix < 0 || ix >= static_cast<int32_t>(g.width)) continue;
              for (uint32_t c = 0; c < g.inChannels; ++c) {
                sum += double{in[((size_t{b} * g.height + iy) * g.width + ix) * g.inChannels + c]} *
                       filter[((size_t{o} * g.kernelH + ky) * g.kernelW + kx) * g.inChannels + c];
              }
            }
          }
          out.push_back(static_cast<float>(sum));
        }
      }
    }
  }
  return out;
}

void expectConvMatches(const ConvGeometry& g, uint32_t seed) {
  const std::vector<float> in =
      randomFloats(size_t{g.batches} * g.height * g.width * g.inChannels, seed);
  const std::vector<float> w =
      randomFloats(size_t{g.outChannels} * g.kernelH * g.kernelW * g.inChannels, seed + 1);
  const std::vector<float> bias = randomFloats(g.outChannels, seed + 2);
  Operand filter = f32({g.outChannels, g.kernelH, g.kernelW, g.inChannels}, w);
  filter.constant = true;
  Operand b = f32({g.outChannels}, bias);
  b.constant = true;
  Operand out = output<float>(kF32, {g.batches, g.outHeight(), g.outWidth(), g.outChannels});
  ASSERT_EQ(
      run(ANEURALNETWORKS_CONV_2D,
          {f32({g.batches, g.height, g.width, g.inChannels}, in), filter, b, i32(g.padLeft),
           i32(g.padRight), i32(g.padTop), i32(g.padBottom), i32(g.strideW), i32(g.strideH),
           i32(ANEURALNETWORKS_FUSED_NONE), boolean(false), i32(g.dilationW), i32(g.dilationH)},
          out),
      kOk);
  const std::vector<float> expected = directConv(g, in, w, bias);
  const std::vector<float> got = values<float>(out);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], expected[i], 1e-4f * (1 + std::abs(expected[i]))) << "element " << i;
  }
}

TEST(ConvGeometryTest, OddStridesDilationsAndAsymmetricPadding) {
  // 2 batches of 11x9x3; 3x2 kernel; pads L2 R0 T1 B3; strides W3 H2; dilations W2 H3.
  expectConvMatches({2, 11, 9, 3, 5, 3, 2, 2, 0, 1, 3, 3, 2, 2, 3}, 10);
  // A kernel as big as the padded image: one output element.
  expectConvMatches({1, 4, 5, 2, 3, 6, 7, 1, 1, 1, 1, 1, 1, 1, 1}, 20);
  // Stride larger than the kernel: inputs are skipped.
  expectConvMatches({1, 13, 13, 4, 2, 2, 2, 0, 0, 0, 0, 5, 4, 1, 1}, 30);
}

TEST(ConvGeometryTest, BigChannelCounts) {
  // 1x6x6x256 -> 3x3 -> 128 channels: 10.6 M multiply-adds.
  expectConvMatches({1, 6, 6, 256, 128, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 40);
}

TEST(BigShapeTest, AddOverEightMillionElements) {
  // 1x1024x1024x8 floats (32 MiB per tensor), the second input broadcast along batch.
  const uint32_t count = 1024u * 1024u * 8u;
  const std::vector<float> a = randomFloats(count, 50);
  const std::vector<float> b = randomFloats(count, 51);
  Operand out = output<float>(kF32, {1, 1024, 1024, 8});
  ASSERT_EQ(
      run(ANEURALNETWORKS_ADD,
          {f32({1, 1024, 1024, 8}, a), f32({1024, 1024, 8}, b), i32(ANEURALNETWORKS_FUSED_RELU6)},
          out),
      kOk);
  const std::vector<float> got = values<float>(out);
  for (uint32_t i = 0; i < count; i += 9973) {
    ASSERT_EQ(got[i], std::clamp(a[i] + b[i], 0.0f, 6.0f)) << "element " << i;
  }
  ASSERT_EQ(got[count - 1], std::clamp(a[count - 1] + b[count - 1], 0.0f, 6.0f));
}

TEST(BigShapeTest, SoftmaxOverALongAxis) {
  // 100000 classes: the sum must stay 1 and the order must be kept.
  const uint32_t count = 100000;
  const std::vector<float> logits = randomFloats(count, 60, -20, 20);
  Operand out = output<float>(kF32, {1, count});
  ASSERT_EQ(run(ANEURALNETWORKS_SOFTMAX, {f32({1, count}, logits), f32Scalar(1.0f)}, out), kOk);
  const std::vector<float> p = values<float>(out);
  double sum = 0;
  for (float x : p) sum += x;
  EXPECT_NEAR(sum, 1.0, 1e-4);
  const size_t top = std::max_element(logits.begin(), logits.end()) - logits.begin();
  EXPECT_EQ(static_cast<size_t>(std::max_element(p.begin(), p.end()) - p.begin()), top);
}

TEST(PaddingTest, PoolWindowLargerThanThePaddedInputIsRejected) {
  // The window never fits: a validation error, not an empty output or a crash.
  // (Zero-sized tensors proper are in ops_detect and ops_recurrent.)
  Operand out = output<float>(kF32, {1, 1, 1, 1});
  EXPECT_NE(run(ANEURALNETWORKS_MAX_POOL_2D,
                {f32({1, 2, 2, 1}, {1, 2, 3, 4}), i32(0), i32(0), i32(0), i32(0), i32(1), i32(1),
                 i32(3), i32(3), i32(ANEURALNETWORKS_FUSED_NONE)},
                out),
            kOk);
}

// fuzz/regressions/fuzz_nnapi_calls/transpose-of-an-omitted-input: TRANSPOSE
// may omit its permutation, and an execution that left its data out had it
// copy from a null buffer.
TEST(OmittedInputTest, AnOperationsFirstInputIsNeverOptional) {
  ReferenceGraph g;
  g.operation(ANEURALNETWORKS_TRANSPOSE, {g.omittedInput(f32({2, 3}, {1, 2, 3, 4, 5, 6}))},
              {g.output(output<float>(kF32, {3, 2}))});
  EXPECT_EQ(g.run(), ANEURALNETWORKS_BAD_DATA);
  ReferenceGraph given;
  given.operation(ANEURALNETWORKS_TRANSPOSE, {given.input(f32({2, 3}, {1, 2, 3, 4, 5, 6}))},
                  {given.output(output<float>(kF32, {3, 2}))});
  ASSERT_EQ(given.run(), kOk);
  EXPECT_EQ(given.result<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

}  // namespace
