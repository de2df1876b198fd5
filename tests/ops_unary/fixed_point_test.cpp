// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The fixed-point sigmoid, tanh and inverse square root against float math:
// they must be accurate to well under one output quantum (1/256).
#include <gtest/gtest.h>

#include <cmath>

#include "ops/util/activation_fixed_point.h"

namespace annrt::ops::fixed_point {
namespace {

constexpr double kQ4 = 1 << 27;  // Q4.27 raw units per 1.0
constexpr double kQ0 = 2147483648.0;

TEST(FixedPointTest, LogisticMatchesFloat) {
  for (double x = -15.9; x < 15.9; x += 0.037) {
    const Fixed<4> in{static_cast<int32_t>(std::lround(x * kQ4))};
    EXPECT_NEAR(logistic(in).raw / kQ0, 1.0 / (1.0 + std::exp(-x)), 1e-6) << x;
  }
  EXPECT_EQ(logistic(Fixed<4>{0}).raw, 1 << 30);
}

TEST(FixedPointTest, TanhMatchesFloat) {
  for (double x = -7.9; x < 7.9; x += 0.029) {
    const Fixed<4> in{static_cast<int32_t>(std::lround(x * kQ4))};
    EXPECT_NEAR(tanh(in).raw / kQ0, std::tanh(x), 1e-6) << x;
  }
  EXPECT_EQ(tanh(Fixed<4>{0}).raw, 0);
}

TEST(FixedPointTest, ExpOnNegativeValuesMatchesFloat) {
  for (double x = -15.9; x <= 0.0; x += 0.041) {
    const Fixed<4> in{static_cast<int32_t>(std::lround(x * kQ4))};
    EXPECT_NEAR(expOnNegativeValues(in).raw / kQ0, std::exp(x), 1e-6) << x;
  }
}

TEST(FixedPointTest, InverseSqrtMultiplierMatchesFloat) {
  for (int32_t x : {2, 3, 7, 100, 12345, 65025, 1 << 20, 1 << 29, 2147483647}) {
    const QuantizedMultiplier m = inverseSqrtMultiplier(x);
    EXPECT_LE(m.shift, 0);
    const double value = std::ldexp(m.multiplier / kQ0, m.shift);
    EXPECT_NEAR(value * std::sqrt(static_cast<double>(x)), 1.0, 1e-5) << x;
  }
  EXPECT_EQ(inverseSqrtMultiplier(0).multiplier, 2147483647);
  EXPECT_EQ(inverseSqrtMultiplier(1).shift, 0);
}

}  // namespace
}  // namespace annrt::ops::fixed_point
