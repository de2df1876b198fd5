// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Pooling, softmax, resize, MEAN, REDUCE_*, ARGMAX/ARGMIN and TOPK_V2 through
// the public C API, for what the conformance vectors do not pin down:
// rejected signatures and runtime values, rounding of quantized averages,
// tie breaking, and inputs past the fixed-point formats' comfortable range.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "common/single_op.h"

namespace {

using namespace annrt::test;  // NOLINT(google-build-using-namespace): the harness

// Implicit-padding pool over a [1, H, W, 1] input: scheme, strides, filter, activation.
std::vector<Operand> implicitPool(Operand input, int32_t scheme, int32_t stride, int32_t filter) {
  return {std::move(input),
          i32(scheme),
          i32(stride),
          i32(stride),
          i32(filter),
          i32(filter),
          i32(ANEURALNETWORKS_FUSED_NONE)};
}

// Explicit-padding pool: left, right, top, bottom, strides, filter, activation.
std::vector<Operand> explicitPool(Operand input, int32_t pad, int32_t stride, int32_t filter) {
  return {std::move(input), i32(pad),    i32(pad),    i32(pad),    i32(pad),
          i32(stride),      i32(stride), i32(filter), i32(filter), i32(ANEURALNETWORKS_FUSED_NONE)};
}

TEST(PoolingTest, QuantizedAverageRoundsHalfAwayFromZero) {
  // Windows of two: {1, 2} -> 1.5 and {-1, -2} -> -1.5 (raw values).
  Operand outU8 = output<uint8_t>(kQ8, {1, 1, 1, 1}, 1.0f, 0);
  ASSERT_EQ(
      run(ANEURALNETWORKS_AVERAGE_POOL_2D,
          explicitPool(tensor(kQ8, {1, 1, 2, 1}, std::vector<uint8_t>{1, 2}, 1.0f, 0), 0, 2, 2),
          outU8),
      ANEURALNETWORKS_BAD_DATA)
      << "a 2x2 filter does not fit a 1x2 input without padding";
  std::vector<Operand> inputs = {tensor(kQ8, {1, 1, 2, 1}, std::vector<uint8_t>{1, 2}, 1.0f, 0),
                                 i32(0),
                                 i32(0),
                                 i32(0),
                                 i32(0),
                                 i32(1),
                                 i32(1),
                                 i32(2),
                                 i32(1),
                                 i32(ANEURALNETWORKS_FUSED_NONE)};
  ASSERT_EQ(run(ANEURALNETWORKS_AVERAGE_POOL_2D, inputs, outU8), kOk);
  EXPECT_EQ(values<uint8_t>(outU8), std::vector<uint8_t>{2});
  inputs[0] = tensor(kQ8S, {1, 1, 2, 1}, std::vector<int8_t>{-1, -2}, 1.0f, 0);
  Operand outI8 = output<int8_t>(kQ8S, {1, 1, 1, 1}, 1.0f, 0);
  ASSERT_EQ(run(ANEURALNETWORKS_AVERAGE_POOL_2D, inputs, outI8), kOk);
  EXPECT_EQ(values<int8_t>(outI8), std::vector<int8_t>{-2});
}

TEST(PoolingTest, PaddingNeverCountsInTheWindow) {
  // SAME padding on a 2x2 input with a 3x3 filter: every window sees all four values.
  const Operand in = f32({1, 2, 2, 1}, {1, 2, 3, 4});
  Operand avg = output<float>(kF32, {1, 2, 2, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_AVERAGE_POOL_2D, implicitPool(in, 1, 1, 3), avg), kOk);
  EXPECT_EQ(values<float>(avg), (std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f}));
  Operand l2 = output<float>(kF32, {1, 2, 2, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_L2_POOL_2D, implicitPool(in, 1, 1, 3), l2), kOk);
  EXPECT_FLOAT_EQ(values<float>(l2)[0], std::sqrt(30.0f / 4));
  const Operand negative = f32({1, 2, 2, 1}, {-1, -2, -3, -4});
  Operand max = output<float>(kF32, {1, 2, 2, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_MAX_POOL_2D, implicitPool(negative, 1, 1, 3), max), kOk);
  EXPECT_EQ(values<float>(max), (std::vector<float>{-1, -1, -1, -1}));
}

TEST(PoolingTest, NchwMatchesNhwc) {
  // [1, 2, 2, 2] NHWC holds channel 0 = {1, 3, 5, 7}, channel 1 = {2, 4, 6, 8}.
  std::vector<Operand> nhwc = implicitPool(f32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), 2, 1, 2);
  nhwc.push_back(boolean(false));
  Operand outNhwc = output<float>(kF32, {1, 1, 1, 2});
  ASSERT_EQ(run(ANEURALNETWORKS_MAX_POOL_2D, nhwc, outNhwc), kOk);
  EXPECT_EQ(values<float>(outNhwc), (std::vector<float>{7, 8}));
  std::vector<Operand> nchw = implicitPool(f32({1, 2, 2, 2}, {1, 3, 5, 7, 2, 4, 6, 8}), 2, 1, 2);
  nchw.push_back(boolean(true));
  Operand outNchw = output<float>(kF32, {1, 2, 1, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_MAX_POOL_2D, nchw, outNchw), kOk);
  EXPECT_EQ(values<float>(outNchw), (std::vector<float>{7, 8}));
}

TEST(PoolingTest, RejectsBadSignaturesAndValues) {
  const Operand in = f32({1, 2, 2, 1}, {1, 2, 3, 4});
  Operand out = output<float>(kF32, {1, 1, 1, 1});
  EXPECT_NE(run(ANEURALNETWORKS_MAX_POOL_2D, explicitPool(in, 2, 1, 2), out), kOk)
      << "padding as large as the filter";
  EXPECT_NE(run(ANEURALNETWORKS_MAX_POOL_2D, explicitPool(in, 0, 0, 2), out), kOk) << "stride 0";
  EXPECT_NE(run(ANEURALNETWORKS_MAX_POOL_2D, implicitPool(in, 3, 1, 2), out), kOk)
      << "unknown padding scheme";
  std::vector<Operand> badActivation = implicitPool(in, 2, 1, 2);
  badActivation.back() = i32(7);
  EXPECT_NE(run(ANEURALNETWORKS_MAX_POOL_2D, badActivation, out), kOk);
  const Operand q8 = tensor(kQ8, {1, 2, 2, 1}, std::vector<uint8_t>{1, 2, 3, 4}, 0.5f, 0);
  Operand q8Out = output<uint8_t>(kQ8, {1, 1, 1, 1}, 0.5f, 0);
  EXPECT_NE(run(ANEURALNETWORKS_L2_POOL_2D, implicitPool(q8, 2, 1, 2), q8Out), kOk)
      << "L2 pooling is float only";
  Operand rescaled = output<uint8_t>(kQ8, {1, 1, 1, 1}, 0.25f, 0);
  EXPECT_NE(run(ANEURALNETWORKS_AVERAGE_POOL_2D, implicitPool(q8, 2, 1, 2), rescaled), kOk)
      << "output quantization must match the input's";
  EXPECT_NE(run(ANEURALNETWORKS_MAX_POOL_2D, implicitPool(f32({4}, {1, 2, 3, 4}), 2, 1, 2), out),
            kOk)
      << "rank 1 input";
}

TEST(SoftmaxTest, QuantizedOutputMustUseScaleOneOver256) {
  const Operand in = tensor(kQ8, {1, 2}, std::vector<uint8_t>{1, 2}, 0.5f, 0);
  Operand wrongScale = output<uint8_t>(kQ8, {1, 2}, 0.5f, 0);
  EXPECT_NE(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(1.0f)}, wrongScale), kOk);
  Operand wrongZero = output<uint8_t>(kQ8, {1, 2}, 1.0f / 256, 128);
  EXPECT_NE(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(1.0f)}, wrongZero), kOk);
  Operand out = output<uint8_t>(kQ8, {1, 2}, 1.0f / 256, 0);
  EXPECT_EQ(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(1.0f)}, out), kOk);
  EXPECT_NE(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(0.0f)}, out), kOk) << "beta must be > 0";
}

TEST(SoftmaxTest, QuantizedLongAxisStaysInRange) {
  // 5000 equal maxima: the sum of exps leaves its Q12.19 format, every
  // probability (1/5000) rounds to 0.
  const Operand in = tensor(kQ8S, {1, 5000}, std::vector<int8_t>(5000, 7), 0.1f, 0);
  Operand out = output<int8_t>(kQ8S, {1, 5000}, 1.0f / 256, -128);
  ASSERT_EQ(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(1.0f)}, out), kOk);
  for (int8_t v : values<int8_t>(out)) ASSERT_LE(v, -127);
}

TEST(SoftmaxTest, AxisAndLogSoftmax) {
  const Operand in = f32({2, 2}, {0, 0, 1, 1});
  Operand out = output<float>(kF32, {2, 2});
  ASSERT_EQ(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(1.0f), i32(0)}, out), kOk);
  const float e = std::exp(1.0f);
  EXPECT_FLOAT_EQ(values<float>(out)[0], 1 / (1 + e));
  EXPECT_FLOAT_EQ(values<float>(out)[2], e / (1 + e));
  EXPECT_NE(run(ANEURALNETWORKS_SOFTMAX, {in, f32Scalar(1.0f), i32(2)}, out), kOk);
  ASSERT_EQ(run(ANEURALNETWORKS_LOG_SOFTMAX, {in, f32Scalar(1.0f), i32(-1)}, out), kOk);
  EXPECT_FLOAT_EQ(values<float>(out)[0], std::log(0.5f));
}

TEST(MeanTest, RepeatedAxesAndQuantizedTruncation) {
  const Operand in = tensor(kQ8S, {2, 2}, std::vector<int8_t>{-1, -2, 4, 4}, 1.0f, 0);
  Operand out = output<int8_t>(kQ8S, {1}, 1.0f, 0);
  // Both axes, one of them twice and negative: (-1 - 2 + 4 + 4) / 4 = 1.25 -> 1.
  ASSERT_EQ(run(ANEURALNETWORKS_MEAN, {in, axes({0, 1, -1}), i32(0)}, out), kOk);
  EXPECT_EQ(values<int8_t>(out), std::vector<int8_t>{1});
  Operand rows = output<int8_t>(kQ8S, {2, 1}, 1.0f, 0);
  ASSERT_EQ(run(ANEURALNETWORKS_MEAN, {in, axes({1}), i32(1)}, rows), kOk);
  EXPECT_EQ(values<int8_t>(rows), (std::vector<int8_t>{-1, 4}));  // -1.5 truncates to -1
  Operand requantized = output<int8_t>(kQ8S, {1}, 0.5f, 3);
  ASSERT_EQ(run(ANEURALNETWORKS_MEAN, {in, axes({0, 1}), i32(0)}, requantized), kOk);
  EXPECT_EQ(values<int8_t>(requantized), std::vector<int8_t>{6});  // 1.25 / 0.5 + 3 = 5.5
  EXPECT_NE(run(ANEURALNETWORKS_MEAN, {in, axes({2}), i32(0)}, out), kOk);
}

TEST(ReduceTest, ProdSumLogical) {
  const float inf = std::numeric_limits<float>::infinity();
  Operand prod = output<float>(kF32, {2});
  ASSERT_EQ(run(ANEURALNETWORKS_REDUCE_PROD,
                {f32({2, 2}, {0, inf, 2, 3}), axes({1}), boolean(false)}, prod),
            kOk);
  EXPECT_EQ(values<float>(prod), (std::vector<float>{0, 6}));
  Operand sum = output<float>(kF32, {1, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_REDUCE_SUM,
                {f32({2, 2}, {1, 2, 3, 4}), axes({0, 1}), boolean(true)}, sum),
            kOk);
  EXPECT_EQ(values<float>(sum), std::vector<float>{10});
  const Operand flags = tensor(kBool8, {2, 2}, std::vector<uint8_t>{1, 0, 1, 1});
  Operand all = output<uint8_t>(kBool8, {2});
  ASSERT_EQ(run(ANEURALNETWORKS_REDUCE_ALL, {flags, axes({-1}), boolean(false)}, all), kOk);
  EXPECT_EQ(values<uint8_t>(all), (std::vector<uint8_t>{0, 1}));
  Operand any = output<uint8_t>(kBool8, {2});
  ASSERT_EQ(run(ANEURALNETWORKS_REDUCE_ANY, {flags, axes({0}), boolean(false)}, any), kOk);
  EXPECT_EQ(values<uint8_t>(any), (std::vector<uint8_t>{1, 1}));
  EXPECT_NE(run(ANEURALNETWORKS_REDUCE_SUM, {flags, axes({0}), boolean(false)}, any), kOk)
      << "REDUCE_SUM is float only";
  EXPECT_NE(run(ANEURALNETWORKS_REDUCE_ALL, {flags, axes({-3}), boolean(false)}, all), kOk);
}

TEST(ArgMinMaxTest, TiesGoToTheFirstIndex) {
  const Operand in = tensor(kI32, {2, 3}, std::vector<int32_t>{5, 9, 9, 1, 1, 0});
  Operand out = output<int32_t>(kI32, {2});
  ASSERT_EQ(run(ANEURALNETWORKS_ARGMAX, {in, i32(1)}, out), kOk);
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{1, 0}));
  ASSERT_EQ(run(ANEURALNETWORKS_ARGMIN, {in, i32(-1)}, out), kOk);
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{0, 2}));
  Operand single = output<int32_t>(kI32, {1});
  ASSERT_EQ(run(ANEURALNETWORKS_ARGMAX, {f32({3}, {1, 3, 2}), i32(0)}, single), kOk);
  EXPECT_EQ(values<int32_t>(single), std::vector<int32_t>{1});
  EXPECT_NE(run(ANEURALNETWORKS_ARGMAX, {in, i32(2)}, out), kOk);
}

TEST(TopKTest, TiesPutTheHigherIndexFirst) {
  Operand values3 = output<float>(kF32, {3});
  Operand indices3 = output<int32_t>(kI32, {3});
  ASSERT_EQ(run(ANEURALNETWORKS_TOPK_V2, {f32({4}, {1, 3, 3, 2}), i32(3)}, {&values3, &indices3}),
            kOk);
  EXPECT_EQ(values<float>(values3), (std::vector<float>{3, 3, 2}));
  EXPECT_EQ(values<int32_t>(indices3), (std::vector<int32_t>{2, 1, 3}));
  Operand values5 = output<float>(kF32, {5});
  Operand indices5 = output<int32_t>(kI32, {5});
  EXPECT_NE(run(ANEURALNETWORKS_TOPK_V2, {f32({4}, {1, 3, 3, 2}), i32(5)}, {&values5, &indices5}),
            kOk);
  Operand values0 = output<float>(kF32, {1});
  Operand indices0 = output<int32_t>(kI32, {1});
  EXPECT_NE(run(ANEURALNETWORKS_TOPK_V2, {f32({4}, {1, 3, 3, 2}), i32(0)}, {&values0, &indices0}),
            kOk);
}

TEST(ResizeTest, ScaleFactorsAndFlags) {
  // A 1x2 row scaled by 1.6 gives floor(3.2) = 3 columns.
  const Operand in = f32({1, 1, 2, 1}, {0, 10});
  Operand out = output<float>(kF32, {1, 1, 3, 1});
  ASSERT_EQ(run(ANEURALNETWORKS_RESIZE_BILINEAR, {in, f32Scalar(1.6f), f32Scalar(1.0f)}, out), kOk);
  const std::vector<float> row = values<float>(out);
  EXPECT_FLOAT_EQ(row[0], 0);
  EXPECT_FLOAT_EQ(row[1], 10 * 2 / 3.0f);
  EXPECT_FLOAT_EQ(row[2], 10);
  ASSERT_EQ(run(ANEURALNETWORKS_RESIZE_BILINEAR,
                {in, i32(3), i32(1), boolean(false), boolean(true), boolean(false)}, out),
            kOk);
  EXPECT_EQ(values<float>(out), (std::vector<float>{0, 5, 10}));  // align_corners
  EXPECT_NE(run(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR,
                {in, i32(3), i32(1), boolean(false), boolean(true), boolean(true)}, out),
            kOk)
      << "align_corners and half_pixel_centers together";
  EXPECT_NE(run(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, {in, i32(3), i32(1)}, out), kOk)
      << "nearest neighbor requires the layout flag";
  EXPECT_NE(run(ANEURALNETWORKS_RESIZE_BILINEAR, {in, i32(0), i32(1)}, out), kOk);
  ASSERT_EQ(run(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR,
                {in, i32(3), i32(1), boolean(false), boolean(false), boolean(true)}, out),
            kOk);
  EXPECT_EQ(values<float>(out), (std::vector<float>{0, 10, 10}));  // half_pixel_centers
}

}  // namespace
