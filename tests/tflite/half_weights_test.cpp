// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Float16 weights (DEQUANTIZE of a FLOAT16 constant, as MediaPipe's models
// store them): the importer keeps them float16 behind an NNAPI CAST, read in
// place from the mapped file, and every device computes the float32 result;
// annrt-cpu claims the CAST and the convolution and folds the cast.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/device_lookup.h"
#include "common/temp_path.h"
#include "common/types.h"
#include "model_runner.h"
#include "tflite/importer.h"
#include "tflite_builder.h"

namespace annrt::tflite {
namespace {

using testing::ModelSpec;
namespace fb = ::annrt::tflite::fb;

constexpr int32_t kConv2d = 3, kDequantize = 6;
constexpr int8_t kFloat32 = 0, kFloat16 = 1;

// Filter [out=3][1][1][in=2], exactly representable in float16.
const float kFilter[3][2] = {{0.5f, -1.25f}, {2.0f, 0.75f}, {-0.125f, 3.5f}};
const float kBias[3] = {0.25f, -1.0f, 0.5f};

// input [1,2,2,2] -> CONV_2D 1x1 (filter = DEQUANTIZE(float16 constant)) -> [1,2,2,3]
ModelSpec halfWeightsModel() {
  ModelSpec spec;
  spec.addOpcode(kDequantize, 3);
  spec.addOpcode(kConv2d, 3);
  std::vector<Float16> half;
  for (const auto& row : kFilter) {
    for (float value : row) half.push_back(static_cast<Float16>(value));
  }
  const std::vector<float> bias(std::begin(kBias), std::end(kBias));
  const testing::TensorSpec input{{1, 2, 2, 2}, kFloat32, 0, "input"};
  const testing::TensorSpec halfFilter{{3, 1, 1, 2}, kFloat16, spec.addBuffer(half), "filter16"};
  const testing::TensorSpec filter{{3, 1, 1, 2}, kFloat32, 0, "filter"};
  const testing::TensorSpec biases{{3}, kFloat32, spec.addBuffer(bias), "bias"};
  const testing::TensorSpec output{{1, 2, 2, 3}, kFloat32, 0, "output"};
  testing::OperatorSpec conv{1, {0, 2, 3}, {4}};
  conv.options = {fb::BuiltinOptions::Conv2DOptions, [](flatbuffers::FlatBufferBuilder& b) {
                    return fb::CreateConv2DOptions(b, fb::Padding::VALID, 1, 1).Union();
                  }};
  spec.subgraphs = {{{input, halfFilter, filter, biases, output},
                     {testing::OperatorSpec{0, {1}, {2}}, conv},
                     {0},
                     {4}}};
  return spec;
}

// The model written to `file`, whose path it returns.
const std::string& writeModel(const annrt::test::TempPath& file) {
  const std::string& path = file.str();
  const std::vector<uint8_t> bytes = testing::serialize(halfWeightsModel());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

void expectConvolution(const std::vector<uint8_t>& outputBytes, const std::vector<float>& x,
                       const std::string& device) {
  ASSERT_EQ(outputBytes.size(), 12 * sizeof(float)) << device;
  std::vector<float> y(12);
  std::memcpy(y.data(), outputBytes.data(), outputBytes.size());
  for (size_t pixel = 0; pixel < 4; ++pixel) {
    for (size_t oc = 0; oc < 3; ++oc) {
      const float expected =
          kBias[oc] + x[pixel * 2] * kFilter[oc][0] + x[pixel * 2 + 1] * kFilter[oc][1];
      EXPECT_NEAR(y[pixel * 3 + oc], expected, 1e-5f)
          << device << ": pixel " << pixel << " channel " << oc;
    }
  }
}

TEST(HalfWeightsTest, KeptFloat16BehindACastAndComputedOnEveryDevice) {
  const annrt::test::TempPath file("annrt_half_weights.tflite");
  auto imported = importFile(writeModel(file));
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& model = **imported;
  ASSERT_EQ(model.operations().size(), 2u);
  EXPECT_EQ(model.operations()[0].tfliteName, "DEQUANTIZE");
  EXPECT_EQ(model.operations()[0].nnapiName, "CAST");
  EXPECT_EQ(model.operations()[1].nnapiName, "CONV_2D");

  const std::vector<float> x = {1, 2, -3, 0.5f, 4, -1, 0, 7};
  std::vector<uint8_t> input(x.size() * sizeof(float));
  std::memcpy(input.data(), x.data(), input.size());
  for (const std::string device : {"nnapi-reference", ""}) {
    auto outputs = testing::runModel(model.model(), {input}, model.outputs(), device);
    ASSERT_TRUE(outputs.ok()) << outputs.error().message;
    expectConvolution((*outputs)[0], x, device.empty() ? "default plan" : device);
  }

  const ANeuralNetworksDevice* cpu = test::findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "built without annrt-cpu";
  bool supported[2] = {false, false};
  ASSERT_EQ(
      ANeuralNetworksModel_getSupportedOperationsForDevices(model.model(), &cpu, 1, supported),
      ANEURALNETWORKS_NO_ERROR);
  EXPECT_TRUE(supported[0]) << "annrt-cpu does not fold the float16 CAST";
  EXPECT_TRUE(supported[1]) << "annrt-cpu does not take a convolution on float16 weights";
  auto outputs = testing::runModel(model.model(), {input}, model.outputs(), "annrt-cpu");
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  expectConvolution((*outputs)[0], x, "annrt-cpu");
}

TEST(HalfWeightsTest, FoldedToFloat32WhenAsked) {
  ImportOptions options;
  options.keepFloat16Weights = false;
  const annrt::test::TempPath file("annrt_half_weights.tflite");
  auto imported = importFile(writeModel(file), options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  ASSERT_EQ((*imported)->operations().size(), 1u);
  EXPECT_EQ((*imported)->operations()[0].nnapiName, "CONV_2D");
  const std::vector<float> x = {1, 2, -3, 0.5f, 4, -1, 0, 7};
  std::vector<uint8_t> input(x.size() * sizeof(float));
  std::memcpy(input.data(), x.data(), input.size());
  auto outputs = testing::runModel((*imported)->model(), {input}, (*imported)->outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  expectConvolution((*outputs)[0], x, "nnapi-reference");
}

}  // namespace
}  // namespace annrt::tflite
