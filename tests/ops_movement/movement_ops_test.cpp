// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The shape and data-movement ops on small hand-checked cases: shape
// inference, layout equivalences, quantized padding and requantization, and
// rejection of bad runtime values (including dimensions that would overflow).
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <vector>

#include "ops/operation.h"

namespace annrt::ops {
namespace {

struct Operand {
  Shape shape;
  std::vector<uint8_t> data;
  bool omitted = false;
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
Operand ints(std::vector<int32_t> values) {
  const auto size = static_cast<uint32_t>(values.size());
  return tensor(OperandType::TENSOR_INT32, {size}, std::move(values));
}
Operand i32(int32_t value) {
  return tensor(OperandType::INT32, {}, std::vector<int32_t>{value});
}
Operand boolean(bool value) {
  return tensor(OperandType::BOOL, {}, std::vector<uint8_t>{value ? uint8_t{1} : uint8_t{0}});
}
Operand omitted(OperandType type) {
  Operand operand{{type, {}, 0.0f, 0, std::nullopt}, {}};
  operand.omitted = true;
  return operand;
}

Shape shapeOf(OperandType type, float scale = 0.0f, int32_t zeroPoint = 0) {
  return {type, {}, scale, zeroPoint, std::nullopt};
}
Shape floatOutput() {
  return shapeOf(OperandType::TENSOR_FLOAT32);
}

class Context : public ExecutionContext, public ValidationContext {
 public:
  Context(std::vector<Operand> inputs, std::vector<Shape> outputs)
      : inputs_(std::move(inputs)), outputs_(std::move(outputs)), data_(outputs_.size()) {}
  Context(std::vector<Operand> inputs, Shape output)
      : Context(std::move(inputs), std::vector<Shape>{std::move(output)}) {}
  uint32_t inputCount() const override { return static_cast<uint32_t>(inputs_.size()); }
  uint32_t outputCount() const override { return static_cast<uint32_t>(outputs_.size()); }
  const Shape& inputShape(uint32_t i) const override { return inputs_[i].shape; }
  const Shape& outputShape(uint32_t i) const override { return outputs_[i]; }
  bool isOmittedInput(uint32_t i) const override { return inputs_[i].omitted; }
  const void* constantInput(uint32_t i) const override { return inputData(i); }
  const void* inputData(uint32_t i) const override {
    return inputs_[i].omitted ? nullptr : inputs_[i].data.data();
  }
  Result<void> setOutputShape(uint32_t i, const Shape& shape) override {
    outputs_[i].dims = shape.dims;
    data_[i].assign(byteSize(outputs_[i]), 0);
    return {};
  }
  void* outputData(uint32_t i) override { return data_[i].data(); }
  bool isRelaxed() const override { return false; }

  template <typename T>
  std::vector<T> result(uint32_t i = 0) const {
    std::vector<T> values(data_[i].size() / sizeof(T));
    std::memcpy(values.data(), data_[i].data(), data_[i].size());
    return values;
  }

 private:
  std::vector<Operand> inputs_;
  std::vector<Shape> outputs_;
  std::vector<std::vector<uint8_t>> data_;
};

// validate + prepare + execute; the first error, if any.
Result<void> run(OperationType type, Context& context) {
  const OperationRegistration* op = findOperation(type);
  if (op == nullptr) return makeError(ErrorCode::OP_FAILED, "not registered");
  ANNRT_RETURN_IF_ERROR(op->validate(static_cast<const ValidationContext&>(context)));
  ANNRT_RETURN_IF_ERROR(op->prepare(context));
  return op->execute(context);
}

std::vector<float> iota(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i);
  return values;
}

using Dims = std::vector<uint32_t>;

TEST(MovementOpsTest, ReshapeInfersTheMinusOneDimension) {
  Context context({floats({2, 3, 2}, iota(12)), ints({3, -1})}, floatOutput());
  ASSERT_TRUE(run(OperationType::RESHAPE, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (Dims{3, 4}));
  EXPECT_EQ(context.result<float>(), iota(12));
}

TEST(MovementOpsTest, ReshapeRejectsBadShapes) {
  for (std::vector<int32_t> shape :
       {std::vector<int32_t>{-1, -1}, {5, -1}, {2, 2}, {-2, -6}, {65536, 65536, 65536, 2}}) {
    Context context({floats({2, 3, 2}, iota(12)), ints(shape)}, floatOutput());
    EXPECT_FALSE(run(OperationType::RESHAPE, context).ok()) << shape[0] << "," << shape[1];
  }
}

TEST(MovementOpsTest, SqueezeAllOrListedDimensions) {
  Context all({floats({1, 2, 1, 3}, iota(6)), omitted(OperandType::TENSOR_INT32)}, floatOutput());
  ASSERT_TRUE(run(OperationType::SQUEEZE, all).ok());
  EXPECT_EQ(all.outputShape(0).dims, (Dims{2, 3}));
  Context listed({floats({1, 2, 1, 3}, iota(6)), ints({-2})}, floatOutput());
  ASSERT_TRUE(run(OperationType::SQUEEZE, listed).ok());
  EXPECT_EQ(listed.outputShape(0).dims, (Dims{1, 2, 3}));
  Context notOne({floats({1, 2, 1, 3}, iota(6)), ints({1})}, floatOutput());
  EXPECT_FALSE(run(OperationType::SQUEEZE, notOne).ok());
}

TEST(MovementOpsTest, ExpandDimsAcceptsTheAxisAfterTheLast) {
  Context context({floats({2, 3}, iota(6)), i32(-1)}, floatOutput());
  ASSERT_TRUE(run(OperationType::EXPAND_DIMS, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (Dims{2, 3, 1}));
  Context tooFar({floats({2, 3}, iota(6)), i32(3)}, floatOutput());
  EXPECT_FALSE(run(OperationType::EXPAND_DIMS, tooFar).ok());
}

TEST(MovementOpsTest, DepthToSpaceMovesChannelBlocks) {
  // One pixel with 4 channels becomes a 2x2 block.
  Context context({floats({1, 1, 1, 4}, {1, 2, 3, 4}), i32(2)}, floatOutput());
  ASSERT_TRUE(run(OperationType::DEPTH_TO_SPACE, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (Dims{1, 2, 2, 1}));
  EXPECT_EQ(context.result<float>(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(MovementOpsTest, SpaceToDepthNchwMatchesNhwc) {
  // NHWC [1, 2, 2, 2]: pixel (h, w) holds channels {10 * (2h + w), 10 * (2h + w) + 1}.
  Context nhwc({floats({1, 2, 2, 2}, {0, 1, 10, 11, 20, 21, 30, 31}), i32(2)}, floatOutput());
  ASSERT_TRUE(run(OperationType::SPACE_TO_DEPTH, nhwc).ok());
  EXPECT_EQ(nhwc.result<float>(), (std::vector<float>{0, 1, 10, 11, 20, 21, 30, 31}));
  Context nchw({floats({1, 2, 2, 2}, {0, 10, 20, 30, 1, 11, 21, 31}), i32(2), boolean(true)},
               floatOutput());
  ASSERT_TRUE(run(OperationType::SPACE_TO_DEPTH, nchw).ok());
  EXPECT_EQ(nchw.outputShape(0).dims, (Dims{1, 8, 1, 1}));
  EXPECT_EQ(nchw.result<float>(), nhwc.result<float>());
}

TEST(MovementOpsTest, SpaceDepthRejectsBadBlockSizes) {
  for (int32_t block : {0, -3, 3, 65536}) {
    Context context({floats({1, 2, 2, 4}, iota(16)), i32(block)}, floatOutput());
    EXPECT_FALSE(run(OperationType::DEPTH_TO_SPACE, context).ok()) << block;
  }
}

TEST(MovementOpsTest, ConcatenationRequantizesToTheOutputScale) {
  Operand a = tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {1, 2}, {10, 20}, 1.0f, 0);
  Operand b = tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {1, 2}, {130, 140}, 0.5f, 128);
  Context context({a, b, i32(1)}, shapeOf(OperandType::TENSOR_QUANT8_ASYMM, 2.0f, 0));
  ASSERT_TRUE(run(OperationType::CONCATENATION, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (Dims{1, 4}));
  // Reals 10, 20, 1, 6 at scale 2 (halves round away from zero).
  EXPECT_EQ(context.result<uint8_t>(), (std::vector<uint8_t>{5, 10, 1, 3}));
}

TEST(MovementOpsTest, ConcatenationRejectsMismatchedDims) {
  Context context({floats({2, 2}, iota(4)), floats({3, 3}, iota(9)), i32(0)}, floatOutput());
  EXPECT_FALSE(run(OperationType::CONCATENATION, context).ok());
}

TEST(MovementOpsTest, SplitAndPackAreInverses) {
  Context split({floats({2, 3}, iota(6)), i32(1), i32(3)}, std::vector<Shape>(3, floatOutput()));
  ASSERT_TRUE(run(OperationType::SPLIT, split).ok());
  EXPECT_EQ(split.outputShape(2).dims, (Dims{2, 1}));
  EXPECT_EQ(split.result<float>(1), (std::vector<float>{1, 4}));
  Context pack({i32(1), floats({2}, split.result<float>(0)), floats({2}, split.result<float>(1)),
                floats({2}, split.result<float>(2))},
               floatOutput());
  ASSERT_TRUE(run(OperationType::PACK, pack).ok());
  EXPECT_EQ(pack.outputShape(0).dims, (Dims{2, 3}));
  EXPECT_EQ(pack.result<float>(), iota(6));
}

TEST(MovementOpsTest, TransposeDefaultsToReversedAxes) {
  Context context({floats({2, 3}, iota(6)), omitted(OperandType::TENSOR_INT32)}, floatOutput());
  ASSERT_TRUE(run(OperationType::TRANSPOSE, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (Dims{3, 2}));
  EXPECT_EQ(context.result<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  Context notAPermutation({floats({2, 3}, iota(6)), ints({0, 0})}, floatOutput());
  EXPECT_FALSE(run(OperationType::TRANSPOSE, notAPermutation).ok());
}

TEST(MovementOpsTest, ChannelShuffleAndReverse) {
  Context shuffle({floats({6}, iota(6)), i32(2), i32(0)}, floatOutput());
  ASSERT_TRUE(run(OperationType::CHANNEL_SHUFFLE, shuffle).ok());
  EXPECT_EQ(shuffle.result<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  Context reverse({floats({2, 3}, iota(6)), ints({-1})}, floatOutput());
  ASSERT_TRUE(run(OperationType::REVERSE, reverse).ok());
  EXPECT_EQ(reverse.result<float>(), (std::vector<float>{2, 1, 0, 5, 4, 3}));
}

TEST(MovementOpsTest, QuantizedPadUsesTheZeroPoint) {
  Operand input = tensor<int8_t>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {2}, {1, 2}, 0.5f, -3);
  Context context({input, tensor<int32_t>(OperandType::TENSOR_INT32, {1, 2}, {1, 2})},
                  shapeOf(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 0.5f, -3));
  ASSERT_TRUE(run(OperationType::PAD, context).ok());
  EXPECT_EQ(context.result<int8_t>(), (std::vector<int8_t>{-3, 1, 2, -3, -3}));
  // PAD_V2's quantized pad value saturates to the type's range.
  Context v2({input, tensor<int32_t>(OperandType::TENSOR_INT32, {1, 2}, {0, 1}), i32(1000)},
             shapeOf(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 0.5f, -3));
  ASSERT_TRUE(run(OperationType::PAD_V2, v2).ok());
  EXPECT_EQ(v2.result<int8_t>(), (std::vector<int8_t>{1, 2, 127}));
}

TEST(MovementOpsTest, PadRequiresTheOutputQuantizationOfTheInput) {
  Operand input = tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {2}, {1, 2}, 0.5f, 3);
  Context context({input, tensor<int32_t>(OperandType::TENSOR_INT32, {1, 2}, {1, 1})},
                  shapeOf(OperandType::TENSOR_QUANT8_ASYMM, 0.25f, 3));
  EXPECT_FALSE(run(OperationType::PAD, context).ok());
}

TEST(MovementOpsTest, MirrorPadReflectsAndMirrors) {
  const Operand paddings = tensor<int32_t>(OperandType::TENSOR_INT32, {1, 2}, {2, 2});
  Context reflect({floats({3}, {1, 2, 3}), paddings, i32(0)}, floatOutput());
  ASSERT_TRUE(run(OperationType::MIRROR_PAD, reflect).ok());
  EXPECT_EQ(reflect.result<float>(), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  Context symmetric({floats({3}, {1, 2, 3}), paddings, i32(1)}, floatOutput());
  ASSERT_TRUE(run(OperationType::MIRROR_PAD, symmetric).ok());
  EXPECT_EQ(symmetric.result<float>(), (std::vector<float>{2, 1, 1, 2, 3, 3, 2}));
  // REFLECT cannot pad by the full size; neither mode beyond it.
  const Operand big = tensor<int32_t>(OperandType::TENSOR_INT32, {1, 2}, {3, 0});
  Context reflectTooFar({floats({3}, {1, 2, 3}), big, i32(0)}, floatOutput());
  EXPECT_FALSE(run(OperationType::MIRROR_PAD, reflectTooFar).ok());
  Context badMode({floats({3}, {1, 2, 3}), paddings, i32(2)}, floatOutput());
  EXPECT_FALSE(run(OperationType::MIRROR_PAD, badMode).ok());
}

TEST(MovementOpsTest, SpaceToBatchThenBatchToSpaceRoundTrips) {
  const Operand input = floats({1, 2, 4, 1}, iota(8));
  Context toBatch(
      {input, ints({2, 2}), tensor<int32_t>(OperandType::TENSOR_INT32, {2, 2}, {0, 0, 0, 0})},
      floatOutput());
  ASSERT_TRUE(run(OperationType::SPACE_TO_BATCH_ND, toBatch).ok());
  EXPECT_EQ(toBatch.outputShape(0).dims, (Dims{4, 1, 2, 1}));
  EXPECT_EQ(toBatch.result<float>(), (std::vector<float>{0, 2, 1, 3, 4, 6, 5, 7}));
  Context back({floats({4, 1, 2, 1}, toBatch.result<float>()), ints({2, 2})}, floatOutput());
  ASSERT_TRUE(run(OperationType::BATCH_TO_SPACE_ND, back).ok());
  EXPECT_EQ(back.result<float>(), iota(8));
}

TEST(MovementOpsTest, StridedSliceWithNegativeStrideAndShrink) {
  // Row 1 reversed: begin (1, -1), end (2, -4) with stride (1, -1), shrinking axis 0.
  Context context({floats({2, 3}, iota(6)), ints({1, -1}), ints({2, -4}), ints({1, -1}), i32(0),
                   i32(0), i32(1)},
                  floatOutput());
  ASSERT_TRUE(run(OperationType::STRIDED_SLICE, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (Dims{3}));
  EXPECT_EQ(context.result<float>(), (std::vector<float>{5, 4, 3}));
  Context zeroStride(
      {floats({2, 3}, iota(6)), ints({0, 0}), ints({2, 3}), ints({1, 0}), i32(0), i32(0), i32(0)},
      floatOutput());
  EXPECT_FALSE(run(OperationType::STRIDED_SLICE, zeroStride).ok());
}

TEST(MovementOpsTest, SliceAndGatherCheckTheirIndices) {
  Context slice({floats({2, 3}, iota(6)), ints({1, 1}), ints({-1, 2})}, floatOutput());
  ASSERT_TRUE(run(OperationType::SLICE, slice).ok());
  EXPECT_EQ(slice.result<float>(), (std::vector<float>{4, 5}));
  Context outside({floats({2, 3}, iota(6)), ints({1, 2}), ints({1, 2})}, floatOutput());
  EXPECT_FALSE(run(OperationType::SLICE, outside).ok());
  Context gather({floats({2, 3}, iota(6)), i32(1), ints({2, 0})}, floatOutput());
  ASSERT_TRUE(run(OperationType::GATHER, gather).ok());
  EXPECT_EQ(gather.result<float>(), (std::vector<float>{2, 0, 5, 3}));
  Context badIndex({floats({2, 3}, iota(6)), i32(1), ints({3})}, floatOutput());
  EXPECT_FALSE(run(OperationType::GATHER, badIndex).ok());
}

TEST(MovementOpsTest, TileRejectsOverflowingMultiples) {
  Context tile({floats({1, 2}, {1, 2}), ints({2, 2})}, floatOutput());
  ASSERT_TRUE(run(OperationType::TILE, tile).ok());
  EXPECT_EQ(tile.result<float>(), (std::vector<float>{1, 2, 1, 2, 1, 2, 1, 2}));
  // 3 * INT32_MAX does not fit a 32-bit dimension.
  Context huge({floats({1, 3}, {1, 2, 3}), ints({1, INT32_MAX})}, floatOutput());
  EXPECT_FALSE(run(OperationType::TILE, huge).ok());
  Context zero({floats({1, 2}, {1, 2}), ints({1, 0})}, floatOutput());
  EXPECT_FALSE(run(OperationType::TILE, zero).ok());
}

TEST(MovementOpsTest, FillAndRank) {
  Context fill({ints({2, 2}), tensor(OperandType::INT32, {}, std::vector<int32_t>{7})},
               shapeOf(OperandType::TENSOR_INT32));
  ASSERT_TRUE(run(OperationType::FILL, fill).ok());
  EXPECT_EQ(fill.result<int32_t>(), (std::vector<int32_t>{7, 7, 7, 7}));
  Context rank({floats({1, 2, 3}, iota(6))}, shapeOf(OperandType::INT32));
  ASSERT_TRUE(run(OperationType::RANK, rank).ok());
  EXPECT_EQ(rank.result<int32_t>(), (std::vector<int32_t>{3}));
}

}  // namespace
}  // namespace annrt::ops
