// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D,
// FULLY_CONNECTED and BATCH_MATMUL on small hand-checked cases, layout and
// grouping equivalences, and rejection of bad runtime values.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "ops/operation.h"

namespace annrt::ops {
namespace {

struct Operand {
  Shape shape;
  std::vector<uint8_t> data;
};

template <typename T>
Operand tensor(OperandType type, std::vector<uint32_t> dims, std::vector<T> values,
               float scale = 0.0f, int32_t zeroPoint = 0) {
  Operand operand{{type, std::move(dims), scale, zeroPoint, std::nullopt}, {}};
  operand.data.resize(values.size() * sizeof(T));
  std::memcpy(operand.data.data(), values.data(), operand.data.size());
  return operand;
}

Operand floats(std::vector<uint32_t> dims, std::vector<float> values) {
  return tensor(OperandType::TENSOR_FLOAT32, std::move(dims), std::move(values));
}
Operand i32(int32_t value) {
  return tensor(OperandType::INT32, {}, std::vector<int32_t>{value});
}
Operand boolean(bool value) {
  return tensor(OperandType::BOOL, {}, std::vector<uint8_t>{value ? uint8_t{1} : uint8_t{0}});
}

class Context : public ExecutionContext, public ValidationContext {
 public:
  Context(std::vector<Operand> inputs, Shape output)
      : inputs_(std::move(inputs)), output_(std::move(output)) {}
  uint32_t inputCount() const override { return static_cast<uint32_t>(inputs_.size()); }
  uint32_t outputCount() const override { return 1; }
  const Shape& inputShape(uint32_t i) const override { return inputs_[i].shape; }
  const Shape& outputShape(uint32_t) const override { return output_; }
  bool isOmittedInput(uint32_t) const override { return false; }
  const void* constantInput(uint32_t i) const override { return inputs_[i].data.data(); }
  const void* inputData(uint32_t i) const override { return inputs_[i].data.data(); }
  Result<void> setOutputShape(uint32_t, const Shape& shape) override {
    output_.dims = shape.dims;
    outputData_.assign(byteSize(output_), 0);
    return {};
  }
  void* outputData(uint32_t) override { return outputData_.data(); }
  bool isRelaxed() const override { return false; }

  template <typename T>
  std::vector<T> result() const {
    std::vector<T> values(outputData_.size() / sizeof(T));
    std::memcpy(values.data(), outputData_.data(), outputData_.size());
    return values;
  }

 private:
  std::vector<Operand> inputs_;
  Shape output_;
  std::vector<uint8_t> outputData_;
};

// validate + prepare + execute; the first error, if any.
Result<void> run(OperationType type, Context& context) {
  const OperationRegistration* op = findOperation(type);
  if (op == nullptr) return makeError(ErrorCode::OP_FAILED, "not registered");
  ANNRT_RETURN_IF_ERROR(op->validate(static_cast<const ValidationContext&>(context)));
  ANNRT_RETURN_IF_ERROR(op->prepare(context));
  return op->execute(context);
}

Shape floatOutput() {
  return {OperandType::TENSOR_FLOAT32, {}, 0.0f, 0, std::nullopt};
}

// 3x3 single-channel image, 2x2 filter, VALID padding, stride 1.
std::vector<Operand> simpleConvInputs(int32_t stride, int32_t padding) {
  return {floats({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
          floats({1, 2, 2, 1}, {1, 0, 0, 1}),
          floats({1}, {0.5f}),
          i32(padding),
          i32(stride),
          i32(stride),
          i32(0)};
}

TEST(ConvOpsTest, Conv2dValidPadding) {
  Context context(simpleConvInputs(1, /*VALID*/ 2), floatOutput());
  ASSERT_TRUE(run(OperationType::CONV_2D, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{1, 2, 2, 1}));
  EXPECT_EQ(context.result<float>(), (std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f}));
}

TEST(ConvOpsTest, Conv2dSamePaddingPadsAtTheEnd) {
  Context context(simpleConvInputs(1, /*SAME*/ 1), floatOutput());
  ASSERT_TRUE(run(OperationType::CONV_2D, context).ok());
  EXPECT_EQ(context.result<float>(),
            (std::vector<float>{6.5f, 8.5f, 3.5f, 12.5f, 14.5f, 6.5f, 7.5f, 8.5f, 9.5f}));
}

TEST(ConvOpsTest, Conv2dRejectsBadScalarsInsteadOfCrashing) {
  for (int32_t stride : {0, -1}) {
    Context context(simpleConvInputs(stride, 2), floatOutput());
    EXPECT_FALSE(run(OperationType::CONV_2D, context).ok()) << stride;
  }
  Context badScheme(simpleConvInputs(1, 7), floatOutput());
  EXPECT_FALSE(run(OperationType::CONV_2D, badScheme).ok());
  // Explicit padding as large as the filter is refused (as AOSP does).
  std::vector<Operand> inputs = simpleConvInputs(1, 2);
  inputs.erase(inputs.begin() + 3);
  for (int32_t pad : {2, 2, 0, 0}) inputs.insert(inputs.begin() + 3, i32(pad));
  Context bigPadding(std::move(inputs), floatOutput());
  EXPECT_FALSE(run(OperationType::CONV_2D, bigPadding).ok());
}

TEST(ConvOpsTest, Conv2dPerChannelQuantizedMatchesFloat) {
  // Input q = 2x, filter channel c has scale 0.5 * (c + 1).
  Operand input = tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {1, 1, 2, 2},
                                  {130, 132, 134, 136}, 0.5f, 128);  // 1, 2, 3, 4
  Operand filter = tensor<int8_t>(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 1, 1, 2},
                                  {2, 4, 2, -2}, 0.0f, 0);  // {1, 2}, {2, -2}
  filter.shape.channelQuant = ChannelQuant{0, {0.5f, 1.0f}};
  Operand bias = tensor<int32_t>(OperandType::TENSOR_INT32, {2}, {4, 2}, 0.0f, 0);  // 1, 1
  Shape output{OperandType::TENSOR_QUANT8_ASYMM, {}, 0.25f, 100, std::nullopt};
  Context context({input, filter, bias, i32(2), i32(1), i32(1), i32(0)}, output);
  ASSERT_TRUE(run(OperationType::CONV_2D, context).ok());
  // Pixel (1, 2): 1 + 4 + 1 = 6, 2 - 4 + 1 = -1; pixel (3, 4): 12, -1.
  EXPECT_EQ(context.result<uint8_t>(), (std::vector<uint8_t>{124, 96, 148, 96}));
}

TEST(ConvOpsTest, Conv2dPerChannelNeedsOneScalePerOutputChannel) {
  Operand filter =
      tensor<int8_t>(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 1, 1, 1}, {1, 1}, 0.0f, 0);
  filter.shape.channelQuant = ChannelQuant{0, {0.5f}};
  Context context(
      {tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {1, 1, 1, 1}, {1}, 1.0f, 0), filter,
       tensor<int32_t>(OperandType::TENSOR_INT32, {2}, {0, 0}), i32(2), i32(1), i32(1), i32(0)},
      {OperandType::TENSOR_QUANT8_ASYMM, {}, 1.0f, 0, std::nullopt});
  EXPECT_FALSE(run(OperationType::CONV_2D, context).ok());
}

TEST(ConvOpsTest, DepthwiseNchwMatchesNhwc) {
  // 2 channels, depth multiplier 2, 2x2 image, 1x1 filter.
  auto runLayout = [](bool nchw) {
    Operand input = nchw ? floats({1, 2, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40})
                         : floats({1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40});
    Context context({input, floats({1, 1, 1, 4}, {1, 2, 3, 4}), floats({4}, {0, 0, 0, 1}), i32(2),
                     i32(1), i32(1), i32(2), i32(0), boolean(nchw)},
                    floatOutput());
    EXPECT_TRUE(run(OperationType::DEPTHWISE_CONV_2D, context).ok());
    return context.result<float>();
  };
  const std::vector<float> nhwc = runLayout(false);
  EXPECT_EQ(nhwc, (std::vector<float>{1, 2, 30, 41, 2, 4, 60, 81, 3, 6, 90, 121, 4, 8, 120, 161}));
  const std::vector<float> nchw = runLayout(true);
  for (size_t c = 0; c < 4; ++c) {
    for (size_t p = 0; p < 4; ++p) EXPECT_EQ(nchw[c * 4 + p], nhwc[p * 4 + c]);
  }
}

TEST(ConvOpsTest, DepthwiseRejectsMultiplierMismatch) {
  Context context({floats({1, 1, 1, 2}, {1, 2}), floats({1, 1, 1, 4}, {1, 2, 3, 4}),
                   floats({4}, {0, 0, 0, 0}), i32(2), i32(1), i32(1), i32(3), i32(0)},
                  floatOutput());
  EXPECT_FALSE(run(OperationType::DEPTHWISE_CONV_2D, context).ok());
}

TEST(ConvOpsTest, GroupedConvKeepsGroupsApart) {
  // Two groups of one channel each; each output sees only its own group.
  Context context({floats({1, 1, 1, 2}, {3, 5}), floats({2, 1, 1, 1}, {2, 10}), floats({2}, {0, 0}),
                   i32(2), i32(1), i32(1), i32(2), i32(0), boolean(false)},
                  floatOutput());
  ASSERT_TRUE(run(OperationType::GROUPED_CONV_2D, context).ok());
  EXPECT_EQ(context.result<float>(), (std::vector<float>{6, 50}));
}

TEST(ConvOpsTest, TransposeConvImplicitPaddingHitsRequestedSize) {
  // 2x2 input, 3x3 filter of ones, stride 2, SAME, requested output 4x4.
  Context context(
      {floats({1, 2, 2, 1}, {1, 2, 3, 4}), floats({1, 3, 3, 1}, std::vector<float>(9, 1.0f)),
       floats({1}, {0}), tensor<int32_t>(OperandType::TENSOR_INT32, {4}, {1, 4, 4, 1}), i32(1),
       i32(2), i32(2), i32(0), boolean(false)},
      floatOutput());
  ASSERT_TRUE(run(OperationType::TRANSPOSE_CONV_2D, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{1, 4, 4, 1}));
  EXPECT_EQ(context.result<float>(),
            (std::vector<float>{1, 1, 3, 2, 1, 1, 3, 2, 4, 4, 10, 6, 3, 3, 7, 4}));
}

TEST(ConvOpsTest, TransposeConvRejectsMalformedOutputShape) {
  Context context(
      {floats({1, 2, 2, 1}, {1, 2, 3, 4}), floats({1, 3, 3, 1}, std::vector<float>(9, 1.0f)),
       floats({1}, {0}), tensor<int32_t>(OperandType::TENSOR_INT32, {2}, {4, 4}), i32(1), i32(2),
       i32(2), i32(0), boolean(false)},
      floatOutput());
  EXPECT_FALSE(run(OperationType::TRANSPOSE_CONV_2D, context).ok());
}

TEST(ConvOpsTest, FullyConnectedFlattensTheInput) {
  Context context({floats({2, 1, 2}, {1, 2, 3, 4}), floats({3, 2}, {1, 0, 0, 1, 1, 1}),
                   floats({3}, {0, 0, 10}), i32(1)},
                  floatOutput());
  ASSERT_TRUE(run(OperationType::FULLY_CONNECTED, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(context.result<float>(), (std::vector<float>{1, 2, 13, 3, 4, 17}));
  Context ragged({floats({1, 3}, {1, 2, 3}), floats({3, 2}, {1, 0, 0, 1, 1, 1}),
                  floats({3}, {0, 0, 0}), i32(0)},
                 floatOutput());
  EXPECT_FALSE(run(OperationType::FULLY_CONNECTED, ragged).ok());
}

TEST(ConvOpsTest, BatchMatmulBroadcastsBatchesAndTransposes) {
  // lhs [2, 1, 2] x rhs^T where rhs is [1, 3, 2] with adj_y: out [2, 1, 3].
  Context context({floats({2, 1, 2}, {1, 2, 3, 4}), floats({1, 3, 2}, {1, 0, 0, 1, 1, 1}),
                   boolean(false), boolean(true)},
                  floatOutput());
  ASSERT_TRUE(run(OperationType::BATCH_MATMUL, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{2, 1, 3}));
  EXPECT_EQ(context.result<float>(), (std::vector<float>{1, 2, 3, 3, 4, 7}));
  Context mismatch(
      {floats({1, 2}, {1, 2}), floats({3, 1}, {1, 2, 3}), boolean(false), boolean(false)},
      floatOutput());
  EXPECT_FALSE(run(OperationType::BATCH_MATMUL, mismatch).ok());
}

}  // namespace
}  // namespace annrt::ops
