// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/fixed_point16.h"

namespace annrt::ops::fixed16 {
namespace {

// (a + 1) / 2, rounded half away from zero.
Q<0> halfSumWithOne(Q<0> a) {
  const int32_t sum = int32_t{a.raw} + Q<0>::one().raw;
  return {static_cast<int16_t>((sum + (sum >= 0 ? 1 : -1)) / 2)};
}

// 2 / (1 + a) in Q2.13 by Newton-Raphson from 48/17 - 32/17 d.
Q<2> twoOverOnePlusX(Q<0> a) {
  const Q<0> halfDenominator = halfSumWithOne(a);
  const Q<2> k48Over17{constant(1515870810)};
  const Q<2> kMinus32Over17{constant(-1010580540)};
  Q<2> x = k48Over17 + halfDenominator * kMinus32Over17;
  for (int i = 0; i < 3; ++i) {
    const Q<2> error = Q<2>::one() - halfDenominator * x;
    x = x + rescale<2>(x * error);
  }
  return x;
}

}  // namespace

Q<0> expOnNegativeQuarter(Q<0> a) {
  // Taylor series around -1/8.
  const Q<0> expMinusOneEighth{constant(1895147668)};
  const Q<0> oneThird{constant(715827883)};
  const Q<0> x = a + Q<0>::powerOfTwo(-3);
  const Q<0> x2 = x * x;
  const Q<0> x3 = x2 * x;
  const Q<0> x4 = x2 * x2;
  const Q<0> x4Over4{multiplyByPOT(x4.raw, -2)};
  const Q<0> poly{multiplyByPOT(((x4Over4 + x3) * oneThird + x2).raw, -1)};
  return saturatingAdd(expMinusOneEighth, expMinusOneEighth * (x + poly));
}

Q<0> oneOverOnePlusX(Q<0> a) {
  return rescale<0>(Q<1>{twoOverOnePlusX(a).raw});
}

Q<0> oneMinusXOverOnePlusX(Q<0> a) {
  return rescale<0>(twoOverOnePlusX(a) - Q<2>::one());
}

bool tanhRaw(int integerBits, int16_t raw, int16_t* result) {
  switch (integerBits) {
    case 0: *result = tanh(Q<0>{raw}).raw; return true;
    case 1: *result = tanh(Q<1>{raw}).raw; return true;
    case 2: *result = tanh(Q<2>{raw}).raw; return true;
    case 3: *result = tanh(Q<3>{raw}).raw; return true;
    case 4: *result = tanh(Q<4>{raw}).raw; return true;
    case 5: *result = tanh(Q<5>{raw}).raw; return true;
    case 6: *result = tanh(Q<6>{raw}).raw; return true;
    default: return false;
  }
}

}  // namespace annrt::ops::fixed16
