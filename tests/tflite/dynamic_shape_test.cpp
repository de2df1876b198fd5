// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// TensorFlow Lite's input shape semantics in the importer: inputs take the
// `shape` the file declares (shape_signature -1 only marks what may be
// resized), resizes are checked like ResizeInputTensorStrict (or, non-strict,
// like ResizeInputTensor) and every other operand's dims are inferred from
// them, and keepDynamicDims leaves the -1 dims for execution time.
#include <gtest/gtest.h>

#include <cstring>

#include "common/device_lookup.h"
#include "import_expect.h"
#include "model_runner.h"
#include "tflite/importer.h"
#include "tflite_builder.h"

namespace annrt::tflite {
namespace {

using testing::expectRejected;
using testing::ModelSpec;
using testing::serialize;

// input [1,2,2,1] (shape_signature [-1,2,2,1]) + c -> t; t + c -> output,
// c = {1,2,3,4} of shape [1,2,2,1]. t and output store batch-1 shapes only,
// as in files whose inputs were given a dynamic batch.
ModelSpec twoAddModel() {
  ModelSpec spec = testing::addModel();
  testing::SubgraphSpec& main = spec.subgraphs[0];
  main.tensors[0].signature = {-1, 2, 2, 1};
  main.tensors.push_back({{1, 2, 2, 1}, 0, 0, "sum"});
  main.operators.push_back(main.operators[0]);
  main.operators[0].outputs = {3};
  main.operators[1].inputs = {3, 1};
  return spec;
}

std::vector<uint8_t> floatBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<float> floats(const std::vector<uint8_t>& bytes, size_t count) {
  std::vector<float> values(count);
  std::memcpy(values.data(), bytes.data(), count * sizeof(float));
  return values;
}

// input + 2 * {1,2,3,4}, broadcast over the batch.
std::vector<float> expectedSums(const std::vector<float>& input) {
  std::vector<float> sums;
  for (size_t i = 0; i < input.size(); ++i) sums.push_back(input[i] + 2.0f * (1 + i % 4));
  return sums;
}

std::vector<float> ramp(size_t count) {
  std::vector<float> values;
  for (size_t i = 0; i < count; ++i) values.push_back(10.0f * i);
  return values;
}

Result<std::unique_ptr<ImportedModel>> importTwoAdd(const ImportOptions& options) {
  return importBuffer(serialize(twoAddModel()), options);
}

// The model's input and output are [batch,2,2,1] and it computes the sums.
void expectSumsAtBatch(const ImportedModel& model, uint32_t batch) {
  EXPECT_EQ(model.inputs()[0].dims, (std::vector<uint32_t>{batch, 2, 2, 1}));
  EXPECT_EQ(model.outputs()[0].dims, (std::vector<uint32_t>{batch, 2, 2, 1}));
  const std::vector<float> input = ramp(size_t{4} * batch);
  auto outputs = testing::runModel(model.model(), {floatBytes(input)}, model.outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  EXPECT_EQ(floats((*outputs)[0], size_t{4} * batch), expectedSums(input));
}

TEST(DynamicShapeTest, InputsTakeTheDeclaredShapeAndRecordTheSignature) {
  auto imported = importTwoAdd({});
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_EQ((*imported)->inputs()[0].signature, (std::vector<int32_t>{-1, 2, 2, 1}));
  EXPECT_EQ((*imported)->outputs()[0].signature, (std::vector<int32_t>{1, 2, 2, 1}));
  expectSumsAtBatch(**imported, 1);
}

// The output's dims are inferred through the intermediate "sum", whose file
// shape has batch 1.
TEST(DynamicShapeTest, ResizingTheDynamicBatchInfersEveryShape) {
  ImportOptions options;
  options.inputShapes = {{3, 2, 2, 1}};
  auto imported = importTwoAdd(options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  expectSumsAtBatch(**imported, 3);
}

// FULLY_CONNECTED with keep_num_dims: input [1,2,3] (shape_signature
// [-1,2,3]) times weights [2 units, 3] -> output [1,2,2], which NNAPI
// computes as [rows, units] and reshapes; at another batch the reshape must
// follow the rows, not the stored batch-1 shape.
TEST(DynamicShapeTest, FullyConnectedKeepingDimsFollowsTheBatch) {
  ModelSpec spec;
  const uint32_t weights = spec.addBuffer(std::vector<float>{1, 0, 0, 0, 1, 10});
  spec.addOpcode(9);  // FULLY_CONNECTED
  testing::SubgraphSpec main;
  main.tensors = {
      {{1, 2, 3}, 0, 0, "input"}, {{2, 3}, 0, weights, "weights"}, {{1, 2, 2}, 0, 0, "output"}};
  main.tensors[0].signature = {-1, 2, 3};
  testing::OperatorSpec fc{0, {0, 1, -1}, {2}};
  fc.options = {fb::BuiltinOptions::FullyConnectedOptions, [](flatbuffers::FlatBufferBuilder& b) {
                  return fb::CreateFullyConnectedOptions(b, fb::ActivationFunctionType::NONE, 0,
                                                         true)
                      .Union();
                }};
  main.operators = {fc};
  main.inputs = {0};
  main.outputs = {2};
  spec.subgraphs = {main};
  ImportOptions options;
  options.inputShapes = {{3, 2, 3}};
  auto imported = importBuffer(serialize(spec), options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_EQ((*imported)->outputs()[0].dims, (std::vector<uint32_t>{3, 2, 2}));
  const std::vector<float> input = ramp(18);
  auto outputs =
      testing::runModel((*imported)->model(), {floatBytes(input)}, (*imported)->outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  std::vector<float> expected;
  for (size_t row = 0; row < 6; ++row) {
    expected.push_back(input[row * 3]);
    expected.push_back(input[row * 3 + 1] + 10 * input[row * 3 + 2]);
  }
  EXPECT_EQ(floats((*outputs)[0], 12), expected);
}

// Known dims everywhere: a device that needs static shapes takes the model.
TEST(DynamicShapeTest, ResizedModelIsClaimedByAnnrtCpu) {
  const ANeuralNetworksDevice* cpu = test::findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built";
  for (uint32_t batch : {1u, 2u}) {
    ImportOptions options;
    options.inputShapes = {{batch, 2, 2, 1}};
    auto imported = importTwoAdd(options);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    bool supported[2] = {false, false};
    ASSERT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices((*imported)->model(), &cpu, 1,
                                                                    supported),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_TRUE(supported[0] && supported[1]) << "batch " << batch;
  }
}

TEST(DynamicShapeTest, StrictResizeRefusesDimsTheSignatureFixes) {
  ImportOptions options;
  options.inputShapes = {{1, 3, 2, 1}};
  expectRejected(serialize(twoAddModel()),
                 "input 0 'input': cannot resize dimension 1 from 2 to 3: only dimensions whose "
                 "shape_signature is -1 may change (shape_signature [-1,2,2,1])",
                 options);
  // Without a shape_signature every dim is fixed, the batch too.
  options.inputShapes = {{2, 2, 2, 1}};
  expectRejected(serialize(testing::addModel()), "cannot resize dimension 0 from 1 to 2", options);
  options.inputShapes = {{0, 2, 2, 1}};
  expectRejected(serialize(twoAddModel()), "dimension 0 of the new shape [0,2,2,1] is 0", options);
}

// ResizeInputTensor (benchmark_model's): any dim may change; what the
// operations cannot take fails, as TFLite's AllocateTensors would.
TEST(DynamicShapeTest, NonStrictResizeChangesFixedDimsTheOperationsAccept) {
  ImportOptions options;
  options.strictResize = false;
  options.inputShapes = {{1, 2, 2, 3}};  // channels broadcast against c's 1
  auto imported = importTwoAdd(options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_EQ((*imported)->outputs()[0].dims, (std::vector<uint32_t>{1, 2, 2, 3}));
  // 3 rows cannot broadcast against c's 2: the runtime's validation of the
  // ADD, whose input dims are now known, refuses it.
  options.inputShapes = {{1, 3, 2, 1}};
  expectRejected(serialize(twoAddModel()), "ADD (tflite op #0): NNAPI rejected ADD", options);
}

TEST(DynamicShapeTest, KeepDynamicDimsTakesDimsAtExecutionTime) {
  ImportOptions options;
  options.keepDynamicDims = true;
  auto imported = importTwoAdd(options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& model = **imported;
  EXPECT_EQ(model.inputs()[0].dims, (std::vector<uint32_t>{0, 2, 2, 1}));
  EXPECT_EQ(model.outputs()[0].dims, (std::vector<uint32_t>{0, 0, 0, 0}));
  for (uint32_t batch : {1u, 3u}) {
    TensorInfo input = model.inputs()[0];
    input.dims[0] = batch;
    const std::vector<float> values = ramp(size_t{4} * batch);
    auto outputs = testing::runWithInputDims(model.model(), {input}, {floatBytes(values)}, 1, 1024);
    ASSERT_TRUE(outputs.ok()) << outputs.error().message;
    EXPECT_EQ((*outputs)[0].dims, (std::vector<uint32_t>{batch, 2, 2, 1}));
    EXPECT_EQ(floats((*outputs)[0].bytes, size_t{4} * batch), expectedSums(values));
  }
}

TEST(DynamicShapeTest, KeepDynamicDimsAndInputShapesExcludeEachOther) {
  ImportOptions options;
  options.keepDynamicDims = true;
  options.inputShapes = {{2, 2, 2, 1}};
  expectRejected(serialize(twoAddModel()), "give inputShapes or keepDynamicDims, not both",
                 options);
}

}  // namespace
}  // namespace annrt::tflite
