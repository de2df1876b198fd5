// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "diff_stats.h"

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tensor_values.h"

namespace annrt::tools {
namespace {

TEST(DiffStatTest, AbsoluteDifferenceStatistics) {
  DiffStat stat;
  ASSERT_TRUE(stat.add({1.0, 2.0, 3.0}, {1.0, 2.5, 2.0}).ok());
  ASSERT_TRUE(stat.add({0.0}, {0.5}).ok());
  EXPECT_EQ(stat.count(), 4);
  EXPECT_DOUBLE_EQ(stat.max(), 1.0);
  EXPECT_DOUBLE_EQ(stat.min(), 0.0);
  EXPECT_DOUBLE_EQ(stat.avg(), 0.5);
  EXPECT_DOUBLE_EQ(stat.stdDeviation(), std::sqrt(0.125));
  EXPECT_EQ(outputDiffLine(0, "out", stat),
            "OutputDiff[0] out: max=1 min=0 avg=0.5 std_dev=0.353553 (4 values)");
}

TEST(DiffStatTest, IdenticalOutputsGiveZero) {
  DiffStat stat;
  ASSERT_TRUE(stat.add({1.0, -2.0}, {1.0, -2.0}).ok());
  EXPECT_EQ(outputDiffLine(1, "p", stat),
            "OutputDiff[1] p: max=0 min=0 avg=0 std_dev=0 (2 values)");
}

TEST(DiffStatTest, NanOnOneSideIsInfinite) {
  DiffStat stat;
  ASSERT_TRUE(stat.add({NAN, NAN}, {NAN, 1.0}).ok());
  EXPECT_EQ(stat.min(), 0.0);
  EXPECT_TRUE(std::isinf(stat.max()));
}

TEST(DiffStatTest, SizeMismatchIsAnError) {
  DiffStat stat;
  EXPECT_FALSE(stat.add({1.0}, {1.0, 2.0}).ok());
}

TEST(DiffStatTest, LatencyLine) {
  RunStat stat;
  stat.add(100);
  stat.add(300);
  EXPECT_EQ(latencyLine("Reference", stat), "Reference run latency: avg=200(us), std_dev=100(us)");
}

TEST(TensorValuesTest, DequantizesAndDecodes) {
  const uint8_t q[] = {128, 130};
  const TensorDesc u8{"q", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {2}, 0.5f, 128};
  EXPECT_EQ(*tensorValues(u8, q), (std::vector<double>{0.0, 1.0}));
  const float f[] = {1.5f, -2.0f};
  const TensorDesc f32{"f", ANEURALNETWORKS_TENSOR_FLOAT32, {2}, 0.0f, 0};
  EXPECT_EQ(*tensorValues(f32, {reinterpret_cast<const uint8_t*>(f), 8}),
            (std::vector<double>{1.5, -2.0}));
  const uint16_t h[] = {0x3c00};
  const TensorDesc f16{"h", ANEURALNETWORKS_TENSOR_FLOAT16, {1}, 0.0f, 0};
  EXPECT_EQ(*tensorValues(f16, {reinterpret_cast<const uint8_t*>(h), 2}),
            (std::vector<double>{1.0}));
  const TensorDesc model{"m", ANEURALNETWORKS_MODEL, {1}, 0.0f, 0};
  EXPECT_FALSE(tensorValues(model, q).ok());
}

}  // namespace
}  // namespace annrt::tools
