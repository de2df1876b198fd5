// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "input_data.h"

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cstring>

#include "client/cache_token.h"
#include "common/temp_path.h"

namespace annrt::tools {
namespace {

TEST(InputDataTest, RandomDataIsDeterministicAndInRange) {
  const TensorDesc desc{"x", ANEURALNETWORKS_TENSOR_FLOAT32, {2, 50}, 0.0f, 0};
  auto a = randomTensorData(desc, 1);
  auto b = randomTensorData(desc, 1);
  auto c = randomTensorData(desc, 2);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  ASSERT_EQ(a->size(), 400u);
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  for (size_t i = 0; i < 100; ++i) {
    float value;
    std::memcpy(&value, a->data() + 4 * i, 4);
    EXPECT_GE(value, -0.5f);
    EXPECT_LT(value, 0.5f);
  }
}

TEST(InputDataTest, IntegerRangesLikeBenchmarkModel) {
  const TensorDesc u8{"q", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1000}, 0.5f, 128};
  auto bytes = randomTensorData(u8, 0);
  ASSERT_TRUE(bytes.ok());
  for (uint8_t v : *bytes) EXPECT_LE(v, 254);
  const TensorDesc s8{"q", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, {1000}, 0.5f, 0};
  auto signedBytes = randomTensorData(s8, 0);
  ASSERT_TRUE(signedBytes.ok());
  for (uint8_t v : *signedBytes) EXPECT_NE(static_cast<int8_t>(v), -128);
  const TensorDesc i32{"i", ANEURALNETWORKS_TENSOR_INT32, {100}, 0.0f, 0};
  auto ints = randomTensorData(i32, 0);
  ASSERT_TRUE(ints.ok());
  for (size_t i = 0; i < 100; ++i) {
    int32_t v;
    std::memcpy(&v, ints->data() + 4 * i, 4);
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 99);
  }
}

TEST(InputDataTest, UnsupportedTypeIsAnError) {
  const TensorDesc desc{"m", ANEURALNETWORKS_MODEL, {}, 0.0f, 0};
  EXPECT_FALSE(randomTensorData(desc, 0).ok());
}

TEST(InputDataTest, HalfConversion) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1e6f), 0x7c00);
  EXPECT_EQ(floatToHalf(0x1.0p-24f), 0x0001);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  for (float v : {0.5f, -0.25f, 0.1f, 1000.0f, 0x1.0p-20f}) {
    EXPECT_NEAR(halfToFloat(floatToHalf(v)), v, std::abs(v) * 1e-3f) << v;
  }
}

TEST(InputDataTest, ReadTensorFileChecksSize) {
  const TensorDesc desc{"x", ANEURALNETWORKS_TENSOR_FLOAT32, {2}, 0.0f, 0};
  const annrt::test::TempPath tensorFile("annrt_input_data_test.bin");
  const std::string& path = tensorFile.str();
  FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  const float values[2] = {1.0f, 2.0f};
  std::fwrite(values, sizeof(values), 1, file);
  std::fclose(file);
  auto bytes = readTensorFile(path, desc);
  ASSERT_TRUE(bytes.ok());
  std::vector<uint8_t> written(sizeof(values));
  std::memcpy(written.data(), values, sizeof(values));
  EXPECT_EQ(*bytes, written);
  const TensorDesc bigger{"x", ANEURALNETWORKS_TENSOR_FLOAT32, {3}, 0.0f, 0};
  auto wrong = readTensorFile(path, bigger);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("has 8 bytes"), std::string::npos);
  EXPECT_FALSE(readTensorFile(path + ".missing", desc).ok());
}

TEST(CacheTokenTest, HashesToThirtyTwoStableBytes) {
  const client::CacheToken a = client::hashCacheToken("face_detection");
  EXPECT_EQ(a, client::hashCacheToken("face_detection"));
  EXPECT_NE(a, client::hashCacheToken("face_detection2"));
  EXPECT_NE(client::hashCacheToken(""), client::hashCacheToken(std::string(1, '\0')));
  EXPECT_EQ(a.size(), 32u);
}

}  // namespace
}  // namespace annrt::tools
