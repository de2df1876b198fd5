// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Element-wise ops through the public C API, for what the conformance
// vectors do not pin down: integer edge cases, rejected signatures,
// unclamped infinities and requantization across differing scales.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "common/single_op.h"

namespace {

using namespace annrt::test;  // NOLINT(google-build-using-namespace): the harness
using Tensor = Operand;

// Element-wise ops take their tensors, then (for arithmetic) an activation code.
int run(int32_t operation, std::vector<Tensor> inputs, std::optional<int32_t> activation,
        Tensor& output) {
  if (activation) inputs.push_back(i32(*activation));
  return run(operation, inputs, output);
}

constexpr int32_t kNone = ANEURALNETWORKS_FUSED_NONE;
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();

TEST(ElementwiseOpsTest, Int32DivFloorsAndNeverTraps) {
  const std::vector<int32_t> a{-7, 7, -7, 7, kInt32Min, 5};
  const std::vector<int32_t> b{2, 2, -2, -2, -1, 0};
  Tensor out = tensor(ANEURALNETWORKS_TENSOR_INT32, {6}, std::vector<int32_t>(6));
  ASSERT_EQ(run(ANEURALNETWORKS_DIV,
                {tensor(ANEURALNETWORKS_TENSOR_INT32, {6}, a),
                 tensor(ANEURALNETWORKS_TENSOR_INT32, {6}, b)},
                kNone, out),
            ANEURALNETWORKS_NO_ERROR);
  // Division by zero is undefined in the spec; annrt gives 0.
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{-4, 3, 3, -4, kInt32Min, 0}));
}

TEST(ElementwiseOpsTest, Int32ArithmeticWraps) {
  Tensor out = tensor(ANEURALNETWORKS_TENSOR_INT32, {2}, std::vector<int32_t>(2));
  ASSERT_EQ(run(ANEURALNETWORKS_ADD,
                {tensor(ANEURALNETWORKS_TENSOR_INT32, {2}, std::vector<int32_t>{kInt32Max, -1}),
                 tensor(ANEURALNETWORKS_TENSOR_INT32, {1}, std::vector<int32_t>{1})},
                kNone, out),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{kInt32Min, 0}));
}

TEST(ElementwiseOpsTest, RejectsInvalidSignatures) {
  const Tensor i32 = tensor(ANEURALNETWORKS_TENSOR_INT32, {2}, std::vector<int32_t>{1, 2});
  Tensor i32Out = i32;
  EXPECT_NE(run(ANEURALNETWORKS_ADD, {i32, i32}, ANEURALNETWORKS_FUSED_RELU, i32Out),
            ANEURALNETWORKS_NO_ERROR);
  const Tensor f32 = tensor(ANEURALNETWORKS_TENSOR_FLOAT32, {2}, std::vector<float>{1, 2});
  Tensor f32Out = f32;
  EXPECT_NE(run(ANEURALNETWORKS_ADD, {f32, f32}, 4, f32Out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(run(ANEURALNETWORKS_SUB, {f32, i32}, kNone, f32Out), ANEURALNETWORKS_NO_ERROR);
  const Tensor f32x3 = tensor(ANEURALNETWORKS_TENSOR_FLOAT32, {3}, std::vector<float>{1, 2, 3});
  EXPECT_NE(run(ANEURALNETWORKS_MAXIMUM, {f32, f32x3}, std::nullopt, f32Out),
            ANEURALNETWORKS_NO_ERROR);
  const Tensor q8 =
      tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {2}, std::vector<uint8_t>{1, 2}, 1.0f, 0);
  Tensor q8Out = q8;  // output scale 1 is not above 1 * 1
  EXPECT_NE(run(ANEURALNETWORKS_MUL, {q8, q8}, kNone, q8Out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(run(ANEURALNETWORKS_DIV, {q8, q8}, kNone, q8Out), ANEURALNETWORKS_NO_ERROR);
  const Tensor cond = tensor(ANEURALNETWORKS_TENSOR_BOOL8, {3}, std::vector<uint8_t>{1, 0, 1});
  EXPECT_NE(run(ANEURALNETWORKS_SELECT, {cond, f32, f32}, std::nullopt, f32Out),
            ANEURALNETWORKS_NO_ERROR);
}

TEST(ElementwiseOpsTest, FloatActivationNoneKeepsInfinity) {
  const float big = std::numeric_limits<float>::max();
  const Tensor a = tensor(ANEURALNETWORKS_TENSOR_FLOAT32, {2}, std::vector<float>{big, -big});
  Tensor out = a;
  ASSERT_EQ(run(ANEURALNETWORKS_ADD, {a, a}, kNone, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(values<float>(out)[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(values<float>(out)[1], -std::numeric_limits<float>::infinity());
  ASSERT_EQ(run(ANEURALNETWORKS_ADD, {a, a}, ANEURALNETWORKS_FUSED_RELU6, out),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(values<float>(out), (std::vector<float>{6.0f, 0.0f}));
}

// Quantized ADD/SUB with three different scales stay within one unit of the
// real-valued result.
TEST(ElementwiseOpsTest, QuantizedAddSubMatchRealArithmetic) {
  const std::vector<uint8_t> a{0, 10, 37, 128, 200, 255};
  const std::vector<uint8_t> b{255, 3, 90, 17, 64, 0};
  const Tensor ta = tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {6}, a, 0.5f, 10);
  const Tensor tb = tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {6}, b, 0.25f, 3);
  for (int32_t op : {ANEURALNETWORKS_ADD, ANEURALNETWORKS_SUB}) {
    Tensor out =
        tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {6}, std::vector<uint8_t>(6), 0.7f, 120);
    ASSERT_EQ(run(op, {ta, tb}, kNone, out), ANEURALNETWORKS_NO_ERROR);
    const std::vector<uint8_t> got = values<uint8_t>(out);
    for (size_t i = 0; i < a.size(); ++i) {
      const float x = 0.5f * (a[i] - 10);
      const float y = 0.25f * (b[i] - 3);
      const float real = op == ANEURALNETWORKS_ADD ? x + y : x - y;
      const float expected = std::clamp(std::round(real / 0.7f) + 120.0f, 0.0f, 255.0f);
      EXPECT_NEAR(got[i], expected, 1.0f) << "op " << op << " element " << i;
    }
  }
}

TEST(ElementwiseOpsTest, QuantizedComparisonUsesRealValues) {
  // 20 at (scale 0.5, zp 0) and 13 at (scale 1, zp 3) are both 10.
  const Tensor a =
      tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {2}, std::vector<uint8_t>{20, 21}, 0.5f, 0);
  const Tensor b =
      tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1}, std::vector<uint8_t>{13}, 1.0f, 3);
  Tensor out = tensor(ANEURALNETWORKS_TENSOR_BOOL8, {2}, std::vector<uint8_t>(2));
  ASSERT_EQ(run(ANEURALNETWORKS_EQUAL, {a, b}, std::nullopt, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(values<uint8_t>(out), (std::vector<uint8_t>{1, 0}));
}

}  // namespace
