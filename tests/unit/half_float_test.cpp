// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "common/types.h"

namespace annrt {
namespace {

// IEEE 754 binary16 decoded from its fields, independently of the compiler's
// _Float16 and of any vector instruction.
float decodeHalf(uint16_t bits) {
  const float sign = (bits & 0x8000) != 0 ? -1.0f : 1.0f;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0x1f) {
    return mantissa == 0 ? sign * std::numeric_limits<float>::infinity()
                         : std::numeric_limits<float>::quiet_NaN();
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  return sign * std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
}

void expectSameValue(float actual, float expected, uint16_t bits) {
  if (std::isnan(expected)) {
    EXPECT_TRUE(std::isnan(actual)) << std::hex << bits;
    return;
  }
  EXPECT_EQ(actual, expected) << std::hex << bits;
  EXPECT_EQ(std::signbit(actual), std::signbit(expected)) << std::hex << bits;
}

TEST(HalfFloatTest, WidensEveryBitPatternExactly) {
  // One byte of offset: weights inside a model file have no alignment.
  constexpr size_t kCount = 65536;
  std::vector<uint8_t> bytes(1 + kCount * 2);
  for (size_t i = 0; i < kCount; ++i) {
    const auto bits = static_cast<uint16_t>(i);
    std::memcpy(bytes.data() + 1 + i * 2, &bits, 2);
  }
  const std::vector<float> values = halfToFloat(bytes.data() + 1, kCount);
  ASSERT_EQ(values.size(), kCount);
  for (size_t i = 0; i < kCount; ++i) {
    expectSameValue(values[i], decodeHalf(static_cast<uint16_t>(i)), static_cast<uint16_t>(i));
  }
}

TEST(HalfFloatTest, WidensCountsThatAreNotAMultipleOfTheVectorWidth) {
  for (size_t count : {0u, 1u, 7u, 9u, 15u, 17u}) {
    std::vector<uint16_t> half(count);
    for (size_t i = 0; i < count; ++i) half[i] = static_cast<uint16_t>(0x3c00 + i * 0x123);
    const std::vector<float> values =
        halfToFloat(reinterpret_cast<const uint8_t*>(half.data()), count);
    ASSERT_EQ(values.size(), count);
    for (size_t i = 0; i < count; ++i) expectSameValue(values[i], decodeHalf(half[i]), half[i]);
  }
}

}  // namespace
}  // namespace annrt
