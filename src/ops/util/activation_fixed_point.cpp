// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/activation_fixed_point.h"

#include <bit>

namespace annrt::ops::fixed_point {
namespace {

// (a + b) / 2 rounded half away from zero, without overflow.
Fixed<0> roundingHalfSum(Fixed<0> a, Fixed<0> b) {
  const int64_t sum = static_cast<int64_t>(a.raw) + b.raw;
  return {static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2)};
}

// 2 / (1 + a) for a in [0, 1] in Q2.29: three Newton-Raphson steps on the
// reciprocal of the half denominator, from the 48/17 - 32/17 d estimate.
Fixed<2> twoOverOnePlusX(Fixed<0> a) {
  const Fixed<0> halfDenominator = roundingHalfSum(a, Fixed<0>::one());
  constexpr Fixed<2> k48Over17{1515870810};
  constexpr Fixed<2> kMinus32Over17{-1010580540};
  Fixed<2> x = k48Over17 + halfDenominator * kMinus32Over17;
  for (int i = 0; i < 3; ++i) {
    const Fixed<2> oneMinusHalfDenominatorTimesX = Fixed<2>::one() - halfDenominator * x;
    x = x + rescale<2>(x * oneMinusHalfDenominatorTimesX);
  }
  return x;
}

}  // namespace

int32_t saturatingRoundingMultiplyByPowerOfTwo(int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return roundingDivideByPOT(x, -exponent);
  const int32_t threshold = (int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return std::numeric_limits<int32_t>::max();
  if (x < -threshold) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

Fixed<0> expOnIntervalMinusQuarterToZero(Fixed<0> a) {
  // Taylor expansion around -1/8: exp(-1/8) * (1 + x + x^2/2 + x^3/6 + x^4/24)
  // with x = a + 1/8.
  constexpr Fixed<0> kExpMinusEighth{1895147668};
  constexpr Fixed<0> kOneThird{715827883};
  const Fixed<0> x = a + Fixed<0>::powerOfTwo(-3);
  const Fixed<0> x2 = x * x;
  const Fixed<0> x3 = x2 * x;
  const Fixed<0> x4 = x2 * x2;
  const Fixed<0> x4Over4{roundingDivideByPOT(x4.raw, 2)};
  const Fixed<0> higherTerms{roundingDivideByPOT(((x4Over4 + x3) * kOneThird + x2).raw, 1)};
  return kExpMinusEighth + kExpMinusEighth * (x + higherTerms);
}

Fixed<0> oneOverOnePlusX(Fixed<0> a) {
  // Halving is exact: the same raw value read with one integer bit fewer.
  return rescale<0>(Fixed<1>{twoOverOnePlusX(a).raw});
}

Fixed<0> oneMinusXOverOnePlusX(Fixed<0> a) {
  return rescale<0>(twoOverOnePlusX(a) - Fixed<2>::one());
}

QuantizedMultiplier inverseSqrtMultiplier(int32_t x) {
  if (x <= 1) return {std::numeric_limits<int32_t>::max(), 0};
  // Normalize x into [2^27, 2^29) by whole bit pairs, so that its square
  // root moves by whole bits, tracked in `shift`.
  int shift = 11;
  while (x >= (1 << 29)) {
    x /= 4;
    ++shift;
  }
  const int leftShiftBitPairs = (std::countl_zero(static_cast<uint32_t>(x)) - 1) / 2 - 1;
  shift -= leftShiftBitPairs;
  x <<= 2 * leftShiftBitPairs;
  // Newton-Raphson on 1/sqrt(x/2) from 1, five steps, in Q3.28.
  const Fixed<3> halfInput{roundingDivideByPOT(x >> 1, 1)};
  constexpr Fixed<3> kThreeHalves{(1 << 28) + (1 << 27)};
  Fixed<3> estimate = Fixed<3>::one();
  for (int i = 0; i < 5; ++i) {
    const Fixed<3> cube = rescale<3>(estimate * estimate * estimate);
    estimate = rescale<3>(kThreeHalves * estimate - halfInput * cube);
  }
  constexpr Fixed<0> kHalfSqrt2{1518500250};
  int32_t multiplier = (estimate * kHalfSqrt2).raw;
  if (shift < 0) {
    multiplier = static_cast<int32_t>(static_cast<uint32_t>(multiplier) << -shift);
    shift = 0;
  }
  return {multiplier, -shift};
}

}  // namespace annrt::ops::fixed_point
