// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/quantization.h"

#include <gtest/gtest.h>

#include <cmath>

namespace annrt::ops {
namespace {

TEST(QuantizationTest, MultiplierRoundTripsTheRealValue) {
  for (double real : {0.0001, 0.0123, 0.5, 0.75, 0.999999, 1.0, 3.7, 1234.5}) {
    const QuantizedMultiplier m = quantizeMultiplier(real);
    const double back = m.multiplier / static_cast<double>(1LL << 31) * std::ldexp(1.0, m.shift);
    EXPECT_NEAR(back, real, real * 1e-9) << real;
    EXPECT_GE(m.multiplier, 1 << 30);
  }
}

TEST(QuantizationTest, ZeroAndUnderflowGiveZeroMultiplier) {
  EXPECT_EQ(quantizeMultiplier(0.0).multiplier, 0);
  EXPECT_EQ(quantizeMultiplier(1e-12).multiplier, 0);
}

// fuzz/regressions/fuzz_abi_model/add-quant-infinite-scales: ADD of int8
// tensors with scales of +inf (valid) divided inf by inf.
TEST(QuantizationTest, NonFiniteGivesZeroMultiplier) {
  for (double real : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    const QuantizedMultiplier m = quantizeMultiplier(real);
    EXPECT_EQ(m.multiplier, 0) << real;
    EXPECT_EQ(m.shift, 0) << real;
  }
}

// fuzz/regressions/fuzz_abi_model/add-quant-tiny-scale: RELU1 on an int8
// output of scale 1e-40 quantized -1 to -inf and converted it to int32.
TEST(QuantizationTest, ActivationRangeOfATinyScaleIsTheTypesRange) {
  int32_t low = 0, high = 0;
  activationRange<int8_t>(FusedActivation::RELU1, 1e-40f, 0, &low, &high);
  EXPECT_EQ(low, -128);
  EXPECT_EQ(high, 127);
  activationRange<int8_t>(FusedActivation::RELU1, 0.5f, 0, &low, &high);
  EXPECT_EQ(low, -2);
  EXPECT_EQ(high, 2);
}

TEST(QuantizationTest, MantissaRoundingUpToTwoBumpsTheExponent) {
  // Just below 1.0: the Q31 mantissa rounds to 2^31 and must renormalize.
  const QuantizedMultiplier m = quantizeMultiplier(1.0 - 1e-12);
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 1);
}

TEST(QuantizationTest, RoundingDivideRoundsHalfAwayFromZero) {
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);    // 2.5 -> 3
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3);  // -2.5 -> -3
  EXPECT_EQ(roundingDivideByPOT(4, 2), 1);
  EXPECT_EQ(roundingDivideByPOT(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(roundingDivideByPOT(7, 0), 7);
}

TEST(QuantizationTest, DoublingHighMulSaturatesTheOnlyOverflow) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(saturatingRoundingDoublingHighMul(min, min), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
}

TEST(QuantizationTest, MultiplyMatchesRealArithmetic) {
  for (double real : {0.003, 0.25, 0.9, 2.5}) {
    const QuantizedMultiplier m = quantizeMultiplier(real);
    for (int32_t x : {-100000, -255, -1, 0, 1, 77, 255, 100000}) {
      EXPECT_NEAR(multiplyByQuantizedMultiplier(x, m), x * real, 1.0) << x << " * " << real;
    }
  }
}

// fuzz/regressions/fuzz_nnapi_calls/add-quant8-shift-125: a quant8 ADD whose
// input scales are 2^100 times its output scale shifted an int64 by 125
// (UBSan, in the ASan+UBSan build; the plain build's shift happened to wrap
// to the same 0).
TEST(QuantizationTest, HugeLeftShiftsWrapToZero) {
  for (const int exponent : {32, 62, 100, 125}) {
    const QuantizedMultiplier m = quantizeMultiplier(std::ldexp(1.0, exponent));
    ASSERT_GE(m.shift, 32);
    EXPECT_EQ(multiplyByQuantizedMultiplier(5, m), 0) << "2^" << exponent;
  }
  EXPECT_EQ(multiplyByQuantizedMultiplier(3, quantizeMultiplier(std::ldexp(1.0, 4))), 48);
}

TEST(QuantizationTest, ConvolutionMultiplierChecksBiasScale) {
  EXPECT_TRUE(convolutionMultiplier(0.5f, 0.25f, 0.125f, 1.0f).ok());
  EXPECT_FALSE(convolutionMultiplier(0.5f, 0.25f, 0.2f, 1.0f).ok());
  EXPECT_FALSE(convolutionMultiplier(0.5f, 0.25f, 0.125f, 0.0f).ok());
}

TEST(QuantizationTest, ActivationRangesFollowTheOutputQuantization) {
  int32_t lo = 0;
  int32_t hi = 0;
  activationRange<uint8_t>(FusedActivation::RELU6, 0.1f, 10, &lo, &hi);
  EXPECT_EQ(lo, 10);
  EXPECT_EQ(hi, 70);
  activationRange<int8_t>(FusedActivation::RELU1, 0.01f, 0, &lo, &hi);
  EXPECT_EQ(lo, -100);
  EXPECT_EQ(hi, 100);
  activationRange<int8_t>(FusedActivation::NONE, 1.0f, 0, &lo, &hi);
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
}

TEST(QuantizationTest, QuantizeSaturates) {
  EXPECT_EQ(quantize<uint8_t>(1000.0f, 1.0f, 0), 255);
  EXPECT_EQ(quantize<int8_t>(-1000.0f, 1.0f, 0), -128);
  EXPECT_EQ(quantize<uint8_t>(0.26f, 0.1f, 128), 131);
  EXPECT_FLOAT_EQ(dequantize<uint8_t>(131, 0.1f, 128), 0.3f);
}

TEST(QuantizationTest, FusedActivationCodesAreValidated) {
  EXPECT_TRUE(toFusedActivation(3).ok());
  EXPECT_FALSE(toFusedActivation(4).ok());
  EXPECT_FALSE(toFusedActivation(-1).ok());
}

}  // namespace
}  // namespace annrt::ops
