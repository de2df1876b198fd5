// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/broadcast_kernel.h"

#include <gtest/gtest.h>

#include "ops/util/elementwise_quant.h"

namespace annrt::ops {
namespace {

using Dims = std::vector<uint32_t>;

Shape shape(Dims dims, OperandType type = OperandType::TENSOR_FLOAT32, float scale = 0.0f,
            int32_t zeroPoint = 0) {
  Shape s;
  s.type = type;
  s.dims = std::move(dims);
  s.scale = scale;
  s.zeroPoint = zeroPoint;
  return s;
}

TEST(BroadcastKernelTest, StretchesSizeOneAndMissingDimensions) {
  const Dims a{2, 1, 3};
  const Dims b{4, 1};
  const Dims out{2, 4, 3};
  const int a_data[] = {0, 1, 2, 10, 11, 12};
  const int b_data[] = {100, 200, 300, 400};
  std::vector<int> result(24);
  broadcastApply(
      out, result.data(), [](int x, int y) { return x + y; }, BroadcastOperand<int>{a, a_data},
      BroadcastOperand<int>{b, b_data});
  EXPECT_EQ(result[0], 100);
  EXPECT_EQ(result[2], 102);
  EXPECT_EQ(result[3], 200);   // [0,1,0]
  EXPECT_EQ(result[11], 402);  // [0,3,2]
  EXPECT_EQ(result[12], 110);  // [1,0,0]
  EXPECT_EQ(result[23], 412);  // [1,3,2]
}

TEST(BroadcastKernelTest, ThreeInputsAndMixedTypes) {
  const Dims dims{3};
  const std::vector<uint8_t> condition{1, 0, 1};
  const std::vector<float> x{1.0f, 2.0f, 3.0f};
  const std::vector<float> y{-1.0f, -2.0f, -3.0f};
  std::vector<float> out(3);
  broadcastApply(
      dims, out.data(), [](uint8_t c, float a, float b) { return c ? a : b; },
      BroadcastOperand<uint8_t>{dims, condition.data()}, BroadcastOperand<float>{dims, x.data()},
      BroadcastOperand<float>{dims, y.data()});
  EXPECT_EQ(out, (std::vector<float>{1.0f, -2.0f, 3.0f}));
}

TEST(BroadcastKernelTest, ValidateBroadcastableSkipsUnknownDimensions) {
  Shape a = shape({2, 0});
  const Shape b = shape({3});
  EXPECT_TRUE(validateBroadcastable(a, b).ok());
  a.dims = {2, 4};
  EXPECT_FALSE(validateBroadcastable(a, b).ok());
  a.dims = {};  // unknown rank
  EXPECT_TRUE(validateBroadcastable(a, b).ok());
}

TEST(ElementwiseQuantTest, RequantizeRoundsHalfAwayAndSaturates) {
  constexpr auto kU8 = OperandType::TENSOR_QUANT8_ASYMM;
  constexpr auto kS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const Shape from = shape({1}, kU8, 1.0f, 0);
  const Shape to = shape({1}, kU8, 2.0f, 10);
  EXPECT_EQ(requantize<uint8_t>(3, from, to), 12);  // 1.5 + 10 -> 12 (half away from zero)
  EXPECT_EQ(requantize<uint8_t>(255, from, to), 138);
  EXPECT_EQ(requantize<uint8_t>(200, from, shape({1}, kU8, 0.5f, 0)), 255);
  EXPECT_EQ(requantize<int8_t>(-100, shape({1}, kS8, 1.0f, 0), shape({1}, kS8, 0.5f, 0)), -128);
}

}  // namespace
}  // namespace annrt::ops
