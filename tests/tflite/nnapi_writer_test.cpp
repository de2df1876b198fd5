// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The importer's NnapiWriter gives each scalar value of each type one
// operand, which every operation reading that value shares, and models
// built so run alike on every device.
#include "tflite/nnapi_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "model_runner.h"

namespace annrt::tflite {
namespace {

uint32_t added(const Result<uint32_t>& index) {
  EXPECT_TRUE(index.ok()) << index.error().message;
  return index.ok() ? *index : ~0u;
}

TEST(NnapiWriterTest, OneOperandPerScalarTypeAndValue) {
  NnapiWriter writer;
  ASSERT_TRUE(writer.create().ok());
  const uint32_t one = added(writer.addInt32(1));
  EXPECT_EQ(added(writer.addInt32(1)), one);
  EXPECT_NE(added(writer.addInt32(2)), one);
  EXPECT_NE(added(writer.addInt32(-1)), added(writer.addInt32(1)));

  // The same bits in another type are another operand.
  int32_t bitsOfOne = 0;
  const float floatOne = 1.0f;
  std::memcpy(&bitsOfOne, &floatOne, sizeof bitsOfOne);
  const uint32_t asFloat = added(writer.addFloat32(1.0f));
  EXPECT_EQ(added(writer.addFloat32(1.0f)), asFloat);
  EXPECT_NE(added(writer.addInt32(bitsOfOne)), asFloat);
  // Values are told apart by their bits: -0 is not 0.
  EXPECT_NE(added(writer.addFloat32(-0.0f)), added(writer.addFloat32(0.0f)));

  const uint32_t yes = added(writer.addBool(true));
  EXPECT_EQ(added(writer.addBool(true)), yes);
  EXPECT_NE(added(writer.addBool(false)), yes);
  EXPECT_NE(added(writer.addInt32(1)), yes);

  // 1, 2, -1, 1.0f, 0x3f800000, -0.0f, 0.0f, true, false.
  ASSERT_EQ(writer.operands().size(), 9u);
  for (const WrittenOperand& operand : writer.operands()) EXPECT_TRUE(operand.constant);
  int32_t value = 0;
  std::memcpy(&value, writer.operands()[one].value.data(), sizeof value);
  EXPECT_EQ(value, 1);
  EXPECT_EQ(writer.operands()[yes].value.size(), 1u);
  EXPECT_EQ(writer.operands()[yes].value[0], 1);
}

// y = relu(x + x), z = relu(y + x), both ADDs reading the one RELU operand.
TEST(NnapiWriterTest, OperationsSharingAScalarRunOnEveryDevice) {
  NnapiWriter writer;
  ASSERT_TRUE(writer.create().ok());
  const Shape vector = makeShape(OperandType::TENSOR_FLOAT32, {4});
  const uint32_t x = added(writer.addOperand(vector));
  const uint32_t relu = added(writer.addInt32(ANEURALNETWORKS_FUSED_RELU));
  const uint32_t y = added(writer.addOperand(vector));
  const uint32_t z = added(writer.addOperand(vector));
  ASSERT_EQ(added(writer.addInt32(ANEURALNETWORKS_FUSED_RELU)), relu);
  ASSERT_TRUE(writer.addOperation(ANEURALNETWORKS_ADD, {x, x, relu}, {y}).ok());
  ASSERT_TRUE(writer.addOperation(ANEURALNETWORKS_ADD, {y, x, relu}, {z}).ok());
  ASSERT_TRUE(writer.identifyInputsAndOutputs({x}, {z}).ok());
  auto finished = writer.finish(false);
  ASSERT_TRUE(finished.ok()) << finished.error().message;

  const std::vector<float> in = {-3, -1, 1, 2};
  std::vector<uint8_t> input(sizeof(float) * in.size());
  std::memcpy(input.data(), in.data(), input.size());
  TensorInfo output;
  output.type = ANEURALNETWORKS_TENSOR_FLOAT32;
  output.dims = {4};
  for (const std::string device : {"nnapi-reference", "annrt-cpu", ""}) {
    auto outputs = testing::runModel(writer.model(), {input}, {output}, device);
    ASSERT_TRUE(outputs.ok()) << device << ": " << outputs.error().message;
    std::vector<float> out(4);
    std::memcpy(out.data(), (*outputs)[0].data(), sizeof(float) * out.size());
    EXPECT_EQ(out, (std::vector<float>{0, 0, 3, 6})) << "device '" << device << "'";
  }
}

}  // namespace
}  // namespace annrt::tflite
