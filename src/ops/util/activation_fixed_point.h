// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The gemmlowp-style fixed-point math that the NNAPI reference (through
// TFLite) uses for quantized LOGISTIC, TANH and L2_NORMALIZATION: exp() on
// negative values, Newton-Raphson division and inverse square root, and the
// sigmoid/tanh built from them. Each step
// rounds exactly as the reference does; that is what makes quantized results
// agree with the conformance vectors rather than merely approximate them.
#pragma once

#include <cstdint>
#include <limits>

#include "ops/util/quantization.h"

namespace annrt::ops::fixed_point {

// A signed Q(kIntegerBits).(31 - kIntegerBits) number held as raw int32.
template <int kIntegerBits>
struct Fixed {
  static constexpr int kFractionalBits = 31 - kIntegerBits;
  int32_t raw = 0;

  // With no integer bits, 1 is not representable and saturates.
  static constexpr Fixed one() {
    return {kIntegerBits == 0 ? std::numeric_limits<int32_t>::max()
                              : int32_t{1} << kFractionalBits};
  }
  static constexpr Fixed powerOfTwo(int exponent) {
    return {int32_t{1} << (kFractionalBits + exponent)};
  }
};

// Raw additions wrap, as the reference's plain int32 arithmetic does on the
// (never overflowing) values it feeds them.
inline int32_t wrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

template <int I>
Fixed<I> operator+(Fixed<I> a, Fixed<I> b) {
  return {wrappingAdd(a.raw, b.raw)};
}
template <int I>
Fixed<I> operator-(Fixed<I> a, Fixed<I> b) {
  return {wrappingAdd(a.raw, static_cast<int32_t>(0u - static_cast<uint32_t>(b.raw)))};
}
template <int I>
Fixed<I> operator-(Fixed<I> a) {
  return Fixed<I>{0} - a;
}
template <int A, int B>
Fixed<A + B> operator*(Fixed<A> a, Fixed<B> b) {
  return {saturatingRoundingDoublingHighMul(a.raw, b.raw)};
}

// x * 2^exponent: saturating when exponent > 0, rounding half away from zero
// when exponent < 0.
int32_t saturatingRoundingMultiplyByPowerOfTwo(int32_t x, int exponent);

// The same value with kDst integer bits.
template <int kDst, int kSrc>
Fixed<kDst> rescale(Fixed<kSrc> x) {
  return {saturatingRoundingMultiplyByPowerOfTwo(x.raw, kSrc - kDst)};
}

// exp(a) for a in [-1/4, 0).
Fixed<0> expOnIntervalMinusQuarterToZero(Fixed<0> a);
// 1 / (1 + a) and (1 - a) / (1 + a) for a in [0, 1].
Fixed<0> oneOverOnePlusX(Fixed<0> a);
Fixed<0> oneMinusXOverOnePlusX(Fixed<0> a);

// exp(a) for a <= 0: exp of a's remainder modulo 1/4 times exp(-2^k) for
// each bit k of the rest.
template <int I>
Fixed<0> expOnNegativeValues(Fixed<I> a) {
  constexpr int kFractionalBits = Fixed<I>::kFractionalBits;
  const Fixed<I> quarter = Fixed<I>::powerOfTwo(-2);
  const Fixed<I> remainderMinusQuarter = Fixed<I>{a.raw & (quarter.raw - 1)} - quarter;
  Fixed<0> result = expOnIntervalMinusQuarterToZero(rescale<0>(remainderMinusQuarter));
  const int32_t rest = (remainderMinusQuarter - a).raw;
  // exp(-2^k) for k = -2..4, in Q0.31.
  constexpr int32_t kExpOfMinusPowerOfTwo[] = {1672461947, 1302514674, 790015084, 290630308,
                                               39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (I > k && (rest & (int32_t{1} << (kFractionalBits + k))) != 0) {
      result = result * Fixed<0>{kExpOfMinusPowerOfTwo[k + 2]};
    }
  }
  if constexpr (I > 5) {
    // Below -32 the result underflows to 0.
    if (a.raw < -(int32_t{1} << (36 - I))) result = Fixed<0>{0};
  }
  if (a.raw == 0) result = Fixed<0>::one();
  return result;
}

// 1 / (1 + exp(-a)).
template <int I>
Fixed<0> logistic(Fixed<I> a) {
  if (a.raw == 0) return Fixed<0>::powerOfTwo(-1);
  const bool positive = a.raw > 0;
  const Fixed<0> ofAbs = oneOverOnePlusX(expOnNegativeValues(positive ? -a : a));
  return positive ? ofAbs : Fixed<0>::one() - ofAbs;
}

// tanh(a) = (1 - exp(-2|a|)) / (1 + exp(-2|a|)) with a's sign.
template <int I>
Fixed<0> tanh(Fixed<I> a) {
  if (a.raw == 0) return Fixed<0>{0};
  const bool negative = a.raw < 0;
  const Fixed<I> minusAbs = negative ? a : -a;
  // Doubling is exact: the same raw value read with one more integer bit.
  const Fixed<0> ofAbs = oneMinusXOverOnePlusX(expOnNegativeValues(Fixed<I + 1>{minusAbs.raw}));
  return negative ? -ofAbs : ofAbs;
}

// 1 / sqrt(x) for an integer x >= 0 as a multiplier for
// multiplyByQuantizedMultiplier (shift <= 0); x <= 1 gives ~1.
QuantizedMultiplier inverseSqrtMultiplier(int32_t x);

}  // namespace annrt::ops::fixed_point
