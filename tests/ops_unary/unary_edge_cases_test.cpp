// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Values the conformance vectors do not cover: the unary kernels must give a
// defined, saturated answer (no overflow, no NaN-to-integer conversion) and
// validation must reject signatures the spec does not allow.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/operation.h"

namespace annrt::ops {
namespace {

// One-input (plus scalars), one-output operation over host buffers.
class FakeContext final : public ValidationContext, public ExecutionContext {
 public:
  FakeContext(std::vector<Shape> inputs, std::vector<std::vector<uint8_t>> data, Shape output)
      : inputs_(std::move(inputs)), data_(std::move(data)), output_(std::move(output)) {}

  uint32_t inputCount() const override { return inputs_.size(); }
  uint32_t outputCount() const override { return 1; }
  const Shape& inputShape(uint32_t i) const override { return inputs_[i]; }
  const Shape& outputShape(uint32_t) const override { return output_; }
  bool isOmittedInput(uint32_t) const override { return false; }
  const void* constantInput(uint32_t i) const override { return data_[i].data(); }
  const void* inputData(uint32_t i) const override { return data_[i].data(); }
  bool isRelaxed() const override { return false; }
  Result<void> setOutputShape(uint32_t, const Shape& shape) override {
    output_ = shape;
    outputData_.assign(byteSize(shape), 0);
    return {};
  }
  void* outputData(uint32_t) override { return outputData_.data(); }

  template <typename T>
  std::vector<T> output() const {
    std::vector<T> values(outputData_.size() / sizeof(T));
    std::memcpy(values.data(), outputData_.data(), outputData_.size());
    return values;
  }

 private:
  std::vector<Shape> inputs_;
  std::vector<std::vector<uint8_t>> data_;
  Shape output_;
  std::vector<uint8_t> outputData_;
};

template <typename T>
std::vector<uint8_t> bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

Shape shapeOf(OperandType type, std::vector<uint32_t> dims, float scale = 0.0f,
              int32_t zeroPoint = 0) {
  Shape shape;
  shape.type = type;
  shape.dims = std::move(dims);
  shape.scale = scale;
  shape.zeroPoint = zeroPoint;
  return shape;
}

Shape tensor(OperandType type, uint32_t count, float scale = 0.0f, int32_t zeroPoint = 0) {
  return shapeOf(type, {count}, scale, zeroPoint);
}

// Validates, prepares and executes `type` on the context; returns the first error.
Result<void> run(OperationType type, FakeContext& context) {
  const OperationRegistration* op = findOperation(type);
  if (op == nullptr) return makeError(ErrorCode::OP_FAILED, "not registered");
  ANNRT_RETURN_IF_ERROR(op->validate(context));
  ANNRT_RETURN_IF_ERROR(op->prepare(context));
  return op->execute(context);
}

constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(UnaryEdgeCasesTest, IntegerAbsAndNegWrapAtInt32Min) {
  for (OperationType type : {OperationType::ABS, OperationType::NEG}) {
    FakeContext context({tensor(OperandType::TENSOR_INT32, 2)}, {bytes<int32_t>({kInt32Min, -3})},
                        tensor(OperandType::TENSOR_INT32, 2));
    ASSERT_TRUE(run(type, context).ok());
    EXPECT_EQ(context.output<int32_t>()[0], kInt32Min);
    EXPECT_EQ(context.output<int32_t>()[1], 3);
  }
}

TEST(UnaryEdgeCasesTest, CastFromFloatSaturatesAndMapsNaNToZero) {
  FakeContext context({tensor(OperandType::TENSOR_FLOAT32, 4)},
                      {bytes<float>({1e20f, -1e20f, kNaN, -2.7f})},
                      tensor(OperandType::TENSOR_INT32, 4));
  ASSERT_TRUE(run(OperationType::CAST, context).ok());
  EXPECT_EQ(context.output<int32_t>(),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), kInt32Min, 0, -2}));
}

TEST(UnaryEdgeCasesTest, QuantizeSaturatesNaNHigh) {
  FakeContext context({tensor(OperandType::TENSOR_FLOAT32, 3)},
                      {bytes<float>({kNaN, -1e30f, 1.0f})},
                      tensor(OperandType::TENSOR_QUANT8_ASYMM, 3, 0.5f, 10));
  ASSERT_TRUE(run(OperationType::QUANTIZE, context).ok());
  EXPECT_EQ(context.output<uint8_t>(), (std::vector<uint8_t>{255, 0, 12}));
}

TEST(UnaryEdgeCasesTest, RsqrtOfNegativeQuantizedSaturates) {
  FakeContext context({tensor(OperandType::TENSOR_QUANT8_ASYMM, 2, 1.0f, 100)},
                      {bytes<uint8_t>({50, 104})},
                      tensor(OperandType::TENSOR_QUANT8_ASYMM, 2, 0.25f, 0));
  ASSERT_TRUE(run(OperationType::RSQRT, context).ok());
  EXPECT_EQ(context.output<uint8_t>(), (std::vector<uint8_t>{255, 2}));
}

TEST(UnaryEdgeCasesTest, LogisticRejectsWrongOutputQuantization) {
  FakeContext context({tensor(OperandType::TENSOR_QUANT8_ASYMM, 1, 0.1f, 128)},
                      {bytes<uint8_t>({1})},
                      tensor(OperandType::TENSOR_QUANT8_ASYMM, 1, 0.1f, 128));
  EXPECT_FALSE(findOperation(OperationType::LOGISTIC)->validate(context).ok());
}

TEST(UnaryEdgeCasesTest, HardSwishWithHugeInputScaleStaysInRange) {
  FakeContext context({tensor(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 3, 1e6f, 0)},
                      {bytes<int8_t>({-128, 0, 127})},
                      tensor(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 3, 1e5f, 0));
  ASSERT_TRUE(run(OperationType::HARD_SWISH, context).ok());
  EXPECT_EQ(context.output<int8_t>(), (std::vector<int8_t>{0, 0, 127}));
}

TEST(UnaryEdgeCasesTest, DequantizePerChannelUsesEachChannelsScale) {
  Shape input = shapeOf(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 2});
  input.channelQuant = ChannelQuant{.channelDim = 1, .scales = {0.5f, 2.0f}};
  FakeContext context({input}, {bytes<int8_t>({2, 2, -4, 3})},
                      shapeOf(OperandType::TENSOR_FLOAT32, {2, 2}));
  ASSERT_TRUE(run(OperationType::DEQUANTIZE, context).ok());
  EXPECT_EQ(context.output<float>(), (std::vector<float>{1.0f, 4.0f, -2.0f, 6.0f}));
}

TEST(UnaryEdgeCasesTest, CastRejectsUnsupportedPairs) {
  FakeContext context({tensor(OperandType::TENSOR_BOOL8, 1)}, {bytes<uint8_t>({1})},
                      tensor(OperandType::TENSOR_INT32, 1));
  EXPECT_FALSE(findOperation(OperationType::CAST)->validate(context).ok());
}

TEST(UnaryEdgeCasesTest, L2NormalizationRejectsOutOfRangeAxis) {
  FakeContext context({tensor(OperandType::TENSOR_FLOAT32, 2), shapeOf(OperandType::INT32, {})},
                      {bytes<float>({3.0f, 4.0f}), bytes<int32_t>({1})},
                      tensor(OperandType::TENSOR_FLOAT32, 2));
  EXPECT_FALSE(run(OperationType::L2_NORMALIZATION, context).ok());
}

TEST(UnaryEdgeCasesTest, L2NormalizationOfZerosIsZero) {
  FakeContext context({tensor(OperandType::TENSOR_QUANT8_ASYMM, 2, 0.1f, 7)},
                      {bytes<uint8_t>({7, 7})},
                      tensor(OperandType::TENSOR_QUANT8_ASYMM, 2, 1.0f / 128, 128));
  ASSERT_TRUE(run(OperationType::L2_NORMALIZATION, context).ok());
  EXPECT_EQ(context.output<uint8_t>(), (std::vector<uint8_t>{128, 128}));
}

}  // namespace
}  // namespace annrt::ops
