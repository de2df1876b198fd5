// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// 16-bit gemmlowp fixed-point arithmetic, as the quantized LSTMs of the NNAPI
// reference use it (QUANTIZED_16BIT_LSTM through TFLite's LstmCell,
// QUANTIZED_LSTM through its int16 gate nonlinearities): Q(I).(15 - I) values
// on int16 raw data, with the int16 flavours of the high multiply, of the
// constants (the int32 constants rounded by 16 bits) and of the saturating
// add inside exp(). activation_fixed_point.h is the 32-bit counterpart; the
// two differ in every rounding step, which is why both exist.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "ops/util/quantization.h"

namespace annrt::ops::fixed16 {

template <int kIntegerBits>
struct Q {
  static constexpr int kFractionalBits = 15 - kIntegerBits;
  int16_t raw = 0;

  static constexpr Q one() {
    return {kIntegerBits == 0 ? std::numeric_limits<int16_t>::max()
                              : static_cast<int16_t>(1 << kFractionalBits)};
  }
  static constexpr Q powerOfTwo(int exponent) {
    return {static_cast<int16_t>(1 << (kFractionalBits + exponent))};
  }
};

inline int16_t wrap(int32_t value) {
  return static_cast<int16_t>(value);
}
inline int16_t saturate(int32_t value) {
  return static_cast<int16_t>(std::clamp<int32_t>(value, std::numeric_limits<int16_t>::min(),
                                                  std::numeric_limits<int16_t>::max()));
}

// gemmlowp's int16 SaturatingRoundingDoublingHighMul.
inline int16_t highMul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) {
    return std::numeric_limits<int16_t>::max();
  }
  const int32_t product = int32_t{a} * int32_t{b};
  const int32_t nudge = product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((product + nudge) / (1 << 15));
}

// x * 2^exponent, rounded (exponent < 0) or saturated (exponent > 0).
inline int16_t multiplyByPOT(int16_t x, int exponent) {
  if (exponent <= 0) return static_cast<int16_t>(roundingDivideByPOT(x, -exponent));
  const int32_t threshold = (1 << (15 - exponent)) - 1;
  if (x > threshold) return std::numeric_limits<int16_t>::max();
  if (x < -threshold) return std::numeric_limits<int16_t>::min();
  return static_cast<int16_t>(x * (1 << exponent));
}

// An int32 fixed-point constant of gemmlowp rounded to 16 bits.
constexpr int16_t constant(int32_t q31) {
  const int32_t remainder = q31 & 0xFFFF;
  const int32_t threshold = 0x7FFF + (q31 < 0 ? 1 : 0);
  return static_cast<int16_t>((q31 >> 16) + (remainder > threshold ? 1 : 0));
}

template <int I>
Q<I> operator+(Q<I> a, Q<I> b) {
  return {wrap(a.raw + b.raw)};
}
template <int I>
Q<I> operator-(Q<I> a, Q<I> b) {
  return {wrap(a.raw - b.raw)};
}
template <int I>
Q<I> operator-(Q<I> a) {
  return {wrap(-a.raw)};
}
template <int A, int B>
Q<A + B> operator*(Q<A> a, Q<B> b) {
  return {highMul(a.raw, b.raw)};
}

template <int kDst, int kSrc>
Q<kDst> rescale(Q<kSrc> x) {
  return {multiplyByPOT(x.raw, kSrc - kDst)};
}

template <int I>
Q<I> saturatingAdd(Q<I> a, Q<I> b) {
  return {saturate(a.raw + b.raw)};
}

// exp(a) for a in [-1/4, 0).
Q<0> expOnNegativeQuarter(Q<0> a);
// (1 - a) / (1 + a) and 1 / (1 + a) for a in [0, 1].
Q<0> oneMinusXOverOnePlusX(Q<0> a);
Q<0> oneOverOnePlusX(Q<0> a);

// exp(a) for a <= 0.
template <int I>
Q<0> expOnNegativeValues(Q<I> a) {
  constexpr int kFractional = Q<I>::kFractionalBits;
  const Q<I> oneQuarter = Q<I>::powerOfTwo(-2);
  const Q<I> mask{static_cast<int16_t>(oneQuarter.raw - 1)};
  const Q<I> aModQuarterMinusQuarter = Q<I>{static_cast<int16_t>(a.raw & mask.raw)} - oneQuarter;
  Q<0> result = expOnNegativeQuarter(rescale<0>(aModQuarterMinusQuarter));
  const int16_t remainder = (aModQuarterMinusQuarter - a).raw;
  // exp(-2^k) for k = -2 .. 4, one factor per set bit of the remainder.
  constexpr int32_t kExpOfMinusPowerOfTwo[] = {1672461947, 1302514674, 790015084, 290630308,
                                               39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (I <= k) break;
    if (remainder & (1 << (kFractional + k))) {
      result = result * Q<0>{constant(kExpOfMinusPowerOfTwo[k + 2])};
    }
  }
  if constexpr (I > 5) {
    const Q<I> clamp{constant(-(1 << (36 - I)))};
    if (a.raw < clamp.raw) result = Q<0>{0};
  }
  return a.raw == 0 ? Q<0>::one() : result;
}

template <int I>
Q<0> logistic(Q<I> a) {
  if (a.raw == 0) return Q<0>{constant(1 << 30)};
  const bool positive = a.raw > 0;
  const Q<I> absolute = positive ? a : -a;
  const Q<0> ofPositive = oneOverOnePlusX(expOnNegativeValues(-absolute));
  return positive ? ofPositive : Q<0>::one() - ofPositive;
}

template <int I>
Q<0> tanh(Q<I> a) {
  if (a.raw == 0) return Q<0>{0};
  const bool negative = a.raw < 0;
  const Q<I> minusAbsolute = negative ? a : -a;
  const Q<0> t = oneMinusXOverOnePlusX(expOnNegativeValues(Q<I + 1>{minusAbsolute.raw}));
  return negative ? -t : t;
}

// tanh of a raw value with `integerBits` (0 to 6) integer bits; false for
// other formats.
bool tanhRaw(int integerBits, int16_t raw, int16_t* result);

}  // namespace annrt::ops::fixed16
