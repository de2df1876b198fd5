// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// BOX_WITH_NMS_LIMIT, ROI_ALIGN, ROI_POOLING, AXIS_ALIGNED_BBOX_TRANSFORM,
// GENERATE_PROPOSALS, HEATMAP_MAX_KEYPOINT and DETECTION_POSTPROCESSING on
// small hand-checked cases, zero-sized inputs, layout equivalence, and
// rejection of bad signatures and bad runtime values.
#include <gtest/gtest.h>

#include <cstring>
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
  operand.data.resize(std::max<size_t>(values.size() * sizeof(T), 1));
  if (!values.empty()) std::memcpy(operand.data.data(), values.data(), values.size() * sizeof(T));
  return operand;
}

Operand floats(std::vector<uint32_t> dims, std::vector<float> values) {
  return tensor(OperandType::TENSOR_FLOAT32, std::move(dims), std::move(values));
}
Operand ints(std::vector<uint32_t> dims, std::vector<int32_t> values) {
  return tensor(OperandType::TENSOR_INT32, std::move(dims), std::move(values));
}
Operand f32(float value) {
  return tensor(OperandType::FLOAT32, {}, std::vector<float>{value});
}
Operand i32(int32_t value) {
  return tensor(OperandType::INT32, {}, std::vector<int32_t>{value});
}
Operand boolean(bool value) {
  return tensor(OperandType::BOOL, {}, std::vector<uint8_t>{value ? uint8_t{1} : uint8_t{0}});
}

Shape shapeOf(OperandType type, float scale = 0.0f, int32_t zeroPoint = 0) {
  return {type, {}, scale, zeroPoint, std::nullopt};
}

class Context : public ExecutionContext, public ValidationContext {
 public:
  Context(std::vector<Operand> inputs, std::vector<Shape> outputs)
      : inputs_(std::move(inputs)), outputs_(std::move(outputs)), data_(outputs_.size()) {}
  uint32_t inputCount() const override { return static_cast<uint32_t>(inputs_.size()); }
  uint32_t outputCount() const override { return static_cast<uint32_t>(outputs_.size()); }
  const Shape& inputShape(uint32_t i) const override { return inputs_[i].shape; }
  const Shape& outputShape(uint32_t i) const override { return outputs_[i]; }
  bool isOmittedInput(uint32_t) const override { return false; }
  const void* constantInput(uint32_t i) const override { return inputs_[i].data.data(); }
  const void* inputData(uint32_t i) const override { return inputs_[i].data.data(); }
  Result<void> setOutputShape(uint32_t i, const Shape& shape) override {
    outputs_[i].dims = shape.dims;
    data_[i].assign(std::max<size_t>(byteSize(outputs_[i]), 1), 0);
    return {};
  }
  void* outputData(uint32_t i) override { return data_[i].data(); }
  bool isRelaxed() const override { return false; }

  template <typename T>
  std::vector<T> result(uint32_t i) const {
    std::vector<T> values(elementCount(outputs_[i]));
    std::memcpy(values.data(), data_[i].data(), values.size() * sizeof(T));
    return values;
  }

 private:
  std::vector<Operand> inputs_;
  std::vector<Shape> outputs_;
  std::vector<std::vector<uint8_t>> data_;
};

const OperationRegistration& op(OperationType type) {
  const OperationRegistration* registration = findOperation(type);
  EXPECT_NE(registration, nullptr);
  return *registration;
}

Result<void> validate(OperationType type, const Context& context) {
  return op(type).validate(static_cast<const ValidationContext&>(context));
}

// validate + prepare + execute (skipped, as the executor does, when an output
// is zero-sized); the first error, if any.
Result<void> run(OperationType type, Context& context) {
  ANNRT_RETURN_IF_ERROR(validate(type, context));
  ANNRT_RETURN_IF_ERROR(op(type).prepare(context));
  for (uint32_t i = 0; i < context.outputCount(); ++i) {
    if (elementCount(context.outputShape(i)) == 0) return {};
  }
  return op(type).execute(context);
}

// ---------------------------------------------------------------- BOX_WITH_NMS_LIMIT

std::vector<Shape> nmsOutputs() {
  return {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32),
          shapeOf(OperandType::TENSOR_INT32), shapeOf(OperandType::TENSOR_INT32)};
}

std::vector<Operand> nmsInputs(Operand scores, Operand rois, Operand batches, int32_t kernel) {
  return {std::move(scores), std::move(rois), std::move(batches), f32(0.1f), i32(-1),
          i32(kernel),       f32(0.5f),       f32(1.0f),          f32(0.3f)};
}

// Three boxes of class 1: the second overlaps the first (IoU 0.81), the third is apart.
std::vector<Operand> overlappingBoxes(std::vector<int32_t> batches, int32_t kernel = 0) {
  return nmsInputs(floats({3, 2}, {0.0f, 0.9f, 0.0f, 0.8f, 0.0f, 0.7f}),
                   floats({3, 8}, {0, 0, 10, 10, 0,  0,  10, 10,  //
                                   0, 0, 10, 10, 1,  1,  10, 10,  //
                                   0, 0, 10, 10, 20, 20, 30, 30}),
                   ints({3}, std::move(batches)), kernel);
}

TEST(DetectOpsTest, BoxWithNmsLimitHardDropsTheOverlappingBox) {
  Context context(overlappingBoxes({0, 0, 0}), nmsOutputs());
  ASSERT_TRUE(run(OperationType::BOX_WITH_NMS_LIMIT, context).ok());
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{0.9f, 0.7f}));
  EXPECT_EQ(context.result<float>(1), (std::vector<float>{0, 0, 10, 10, 20, 20, 30, 30}));
  EXPECT_EQ(context.result<int32_t>(2), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(context.result<int32_t>(3), (std::vector<int32_t>{0, 0}));
}

TEST(DetectOpsTest, BoxWithNmsLimitKeepsImagesApartAndInOrder) {
  // The overlapping box is in another image, so nothing is suppressed.
  Context context(overlappingBoxes({0, 3, 3}), nmsOutputs());
  ASSERT_TRUE(run(OperationType::BOX_WITH_NMS_LIMIT, context).ok());
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{0.9f, 0.8f, 0.7f}));
  EXPECT_EQ(context.result<int32_t>(3), (std::vector<int32_t>{0, 3, 3}));
}

TEST(DetectOpsTest, BoxWithNmsLimitLinearRescoresTheOverlappingBox) {
  Context context(overlappingBoxes({0, 0, 0}, /*linear*/ 1), nmsOutputs());
  ASSERT_TRUE(run(OperationType::BOX_WITH_NMS_LIMIT, context).ok());
  // 0.8 * (1 - 0.81) = 0.152 < 0.3: dropped as well.
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{0.9f, 0.7f}));
}

TEST(DetectOpsTest, BoxWithNmsLimitZeroRoisGivesEmptyOutputs) {
  Context context(nmsInputs(floats({0, 2}, {}), floats({0, 8}, {}), ints({0}, {}), 0),
                  nmsOutputs());
  ASSERT_TRUE(run(OperationType::BOX_WITH_NMS_LIMIT, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{0}));
  EXPECT_EQ(context.outputShape(1).dims, (std::vector<uint32_t>{0, 4}));
  EXPECT_EQ(context.outputShape(3).dims, (std::vector<uint32_t>{0}));
}

TEST(DetectOpsTest, BoxWithNmsLimitRejectsBadKernelsBoxesAndShapes) {
  Context badKernel(overlappingBoxes({0, 0, 0}, 3), nmsOutputs());
  EXPECT_FALSE(run(OperationType::BOX_WITH_NMS_LIMIT, badKernel).ok());
  Context badBox(nmsInputs(floats({1, 2}, {0.0f, 0.9f}), floats({1, 8}, {5, 0, 1, 10, 0, 0, 1, 1}),
                           ints({1}, {0}), 0),
                 nmsOutputs());
  EXPECT_FALSE(run(OperationType::BOX_WITH_NMS_LIMIT, badBox).ok());
  Context oneClass(
      nmsInputs(floats({1, 1}, {0.9f}), floats({1, 4}, {0, 0, 1, 1}), ints({1}, {0}), 0),
      nmsOutputs());
  EXPECT_FALSE(run(OperationType::BOX_WITH_NMS_LIMIT, oneClass).ok());
}

TEST(DetectOpsTest, BoxWithNmsLimitRejectsMixedSignatures) {
  // A float16 score tensor needs FLOAT16 scalars.
  std::vector<Operand> inputs = overlappingBoxes({0, 0, 0});
  inputs[0].shape.type = OperandType::TENSOR_FLOAT16;
  inputs[1].shape.type = OperandType::TENSOR_FLOAT16;
  std::vector<Shape> outputs = nmsOutputs();
  outputs[0].type = outputs[1].type = OperandType::TENSOR_FLOAT16;
  Context context(std::move(inputs), std::move(outputs));
  EXPECT_FALSE(validate(OperationType::BOX_WITH_NMS_LIMIT, context).ok());
}

// ---------------------------------------------------------------- ROI_ALIGN / ROI_POOLING

std::vector<Operand> roiAlignInputs(Operand input, Operand rois, Operand batches, bool nchw,
                                    int32_t outSize = 2) {
  return {std::move(input), std::move(rois), std::move(batches), i32(outSize),
          i32(outSize),     f32(1.0f),       f32(1.0f),          i32(2),
          i32(2),           boolean(nchw)};
}

std::vector<float> ramp(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 7) * 0.5f - 1.0f;
  return values;
}

TEST(DetectOpsTest, RoiAlignNchwMatchesNhwc) {
  const std::vector<float> nhwc = ramp(size_t{2} * 4 * 5 * 3);
  std::vector<float> nchw(nhwc.size());
  for (uint32_t b = 0; b < 2; ++b)
    for (uint32_t h = 0; h < 4; ++h)
      for (uint32_t w = 0; w < 5; ++w)
        for (uint32_t c = 0; c < 3; ++c)
          nchw[((b * 3 + c) * 4 + h) * 5 + w] = nhwc[((b * 4 + h) * 5 + w) * 3 + c];
  const std::vector<float> rois = {0, 0, 4, 3, 1.5f, 0.5f, 3.5f, 2.5f, 2, 1, 2, 1};
  Context a(
      roiAlignInputs(floats({2, 4, 5, 3}, nhwc), floats({3, 4}, rois), ints({3}, {0, 1, 1}), false),
      {shapeOf(OperandType::TENSOR_FLOAT32)});
  Context b(
      roiAlignInputs(floats({2, 3, 4, 5}, nchw), floats({3, 4}, rois), ints({3}, {0, 1, 1}), true),
      {shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::ROI_ALIGN, a).ok());
  ASSERT_TRUE(run(OperationType::ROI_ALIGN, b).ok());
  EXPECT_EQ(a.outputShape(0).dims, (std::vector<uint32_t>{3, 2, 2, 3}));
  EXPECT_EQ(b.outputShape(0).dims, (std::vector<uint32_t>{3, 3, 2, 2}));
  const std::vector<float> outA = a.result<float>(0);
  const std::vector<float> outB = b.result<float>(0);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 2; ++x)
        for (uint32_t c = 0; c < 3; ++c)
          EXPECT_FLOAT_EQ(outA[((r * 2 + y) * 2 + x) * 3 + c], outB[((r * 3 + c) * 2 + y) * 2 + x]);
}

TEST(DetectOpsTest, RoiAlignOfAConstantMapIsConstant) {
  Context context(roiAlignInputs(floats({1, 3, 3, 1}, std::vector<float>(9, 2.5f)),
                                 floats({1, 4}, {0.5f, 0.5f, 2.5f, 3.0f}), ints({1}, {0}), false),
                  {shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::ROI_ALIGN, context).ok());
  for (float value : context.result<float>(0)) EXPECT_FLOAT_EQ(value, 2.5f);
}

TEST(DetectOpsTest, RoiAlignRejectsBoxesOutsideTheMapOrBatch) {
  for (const auto& [box, batch] : std::vector<std::pair<std::vector<float>, int32_t>>{
           {{0, 0, 4, 2}, 0},   // wider than the 3x3 map
           {{-1, 0, 2, 2}, 0},  // negative
           {{2, 0, 1, 2}, 0},   // x2 < x1
           {{0, 0, 2, 2}, 1},   // no batch 1
           {{0, 0, 2, 2}, -1}}) {
    Context context(roiAlignInputs(floats({1, 3, 3, 1}, std::vector<float>(9, 1.0f)),
                                   floats({1, 4}, box), ints({1}, {batch}), false),
                    {shapeOf(OperandType::TENSOR_FLOAT32)});
    EXPECT_FALSE(run(OperationType::ROI_ALIGN, context).ok()) << box[0] << " " << batch;
  }
}

TEST(DetectOpsTest, RoiAlignZeroRoisGivesAnEmptyOutput) {
  Context context(roiAlignInputs(floats({1, 2, 3, 3}, std::vector<float>(18, 1.0f)),
                                 floats({0, 4}, {}), ints({0}, {}), true),
                  {shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::ROI_ALIGN, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{0, 2, 2, 2}));
}

TEST(DetectOpsTest, RoiAlignRejectsQuantizedBoxesOfAnotherScale) {
  Context context(
      roiAlignInputs(
          tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {1, 2, 2, 1}, {1, 2, 3, 4}, 0.5f, 0),
          tensor<uint16_t>(OperandType::TENSOR_QUANT16_ASYMM, {1, 4}, {0, 0, 8, 8}, 0.25f, 0),
          ints({1}, {0}), false),
      {shapeOf(OperandType::TENSOR_QUANT8_ASYMM, 0.5f, 0)});
  EXPECT_FALSE(validate(OperationType::ROI_ALIGN, context).ok());
}

std::vector<Operand> roiPoolingInputs(Operand input, Operand rois, Operand batches) {
  return {std::move(input), std::move(rois), std::move(batches), i32(2),
          i32(2),           f32(1.0f),       f32(1.0f),          boolean(false)};
}

TEST(DetectOpsTest, RoiPoolingTakesTheMaximumOfEachBin) {
  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i) input[i] = static_cast<float>(i);
  Context context(
      roiPoolingInputs(floats({1, 4, 4, 1}, input), floats({1, 4}, {0, 0, 3, 3}), ints({1}, {0})),
      {shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::ROI_POOLING, context).ok());
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{5, 7, 13, 15}));
}

TEST(DetectOpsTest, RoiPoolingQuantizedOutputMustKeepTheInputScale) {
  Context context(roiPoolingInputs(tensor<int8_t>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                                                  {1, 2, 2, 1}, {1, 2, 3, 4}, 0.5f, 0),
                                   tensor<uint16_t>(OperandType::TENSOR_QUANT16_ASYMM, {1, 4},
                                                    {0, 0, 8, 8}, 0.125f, 0),
                                   ints({1}, {0})),
                  {shapeOf(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 0.25f, 0)});
  EXPECT_FALSE(validate(OperationType::ROI_POOLING, context).ok());
}

// ---------------------------------------------------------------- AXIS_ALIGNED_BBOX_TRANSFORM

TEST(DetectOpsTest, BboxTransformWithZeroDeltasClipsToTheImage) {
  Context context({floats({1, 4}, {2, 2, 30, 8}), floats({1, 8}, {0, 0, 0, 0, 0.5f, 0, 0, 0}),
                   ints({1}, {0}), floats({1, 2}, {10, 20})},
                  {shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::AXIS_ALIGNED_BBOX_TRANSFORM, context).ok());
  // Class 1 moves the center right by half the width (14).
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{2, 2, 20, 8, 16, 2, 20, 8}));
}

TEST(DetectOpsTest, BboxTransformRejectsBadBatchIndexAndShapes) {
  Context badBatch({floats({1, 4}, {2, 2, 3, 3}), floats({1, 4}, {0, 0, 0, 0}), ints({1}, {1}),
                    floats({1, 2}, {10, 20})},
                   {shapeOf(OperandType::TENSOR_FLOAT32)});
  EXPECT_FALSE(run(OperationType::AXIS_ALIGNED_BBOX_TRANSFORM, badBatch).ok());
  Context badDeltas({floats({1, 4}, {2, 2, 3, 3}), floats({1, 6}, {0, 0, 0, 0, 0, 0}),
                     ints({1}, {0}), floats({1, 2}, {10, 20})},
                    {shapeOf(OperandType::TENSOR_FLOAT32)});
  EXPECT_FALSE(run(OperationType::AXIS_ALIGNED_BBOX_TRANSFORM, badDeltas).ok());
}

// ---------------------------------------------------------------- GENERATE_PROPOSALS

std::vector<Operand> proposalInputs(Operand deltas, int32_t postNms) {
  // One 1x2 feature map with one anchor; the two shifted anchors overlap heavily.
  return {floats({1, 1, 2, 1}, {0.9f, 0.8f}),
          std::move(deltas),
          floats({1, 4}, {0, 0, 4, 4}),
          floats({1, 2}, {10, 10}),
          f32(1.0f),
          f32(1.0f),
          i32(-1),
          i32(postNms),
          f32(0.3f),
          f32(1.0f),
          boolean(false)};
}

std::vector<Shape> proposalOutputs() {
  return {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32),
          shapeOf(OperandType::TENSOR_INT32)};
}

TEST(DetectOpsTest, GenerateProposalsSuppressesTheOverlappingAnchor) {
  Context context(proposalInputs(floats({1, 1, 2, 4}, std::vector<float>(8, 0.0f)), -1),
                  proposalOutputs());
  ASSERT_TRUE(run(OperationType::GENERATE_PROPOSALS, context).ok());
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{0.9f}));
  EXPECT_EQ(context.result<float>(1), (std::vector<float>{0, 0, 4, 4}));
  EXPECT_EQ(context.result<int32_t>(2), (std::vector<int32_t>{0}));
}

TEST(DetectOpsTest, GenerateProposalsCanProduceNothing) {
  Context context(proposalInputs(floats({1, 1, 2, 4}, std::vector<float>(8, 0.0f)), 0),
                  proposalOutputs());
  ASSERT_TRUE(run(OperationType::GENERATE_PROPOSALS, context).ok());
  EXPECT_EQ(context.outputShape(1).dims, (std::vector<uint32_t>{0, 4}));
}

TEST(DetectOpsTest, GenerateProposalsRejectsMismatchedDeltas) {
  Context context(proposalInputs(floats({1, 1, 2, 8}, std::vector<float>(16, 0.0f)), -1),
                  proposalOutputs());
  EXPECT_FALSE(run(OperationType::GENERATE_PROPOSALS, context).ok());
}

// ---------------------------------------------------------------- HEATMAP_MAX_KEYPOINT

TEST(DetectOpsTest, HeatmapMaxKeypointFindsACenteredPeak) {
  // A symmetric peak in the middle of a 3x3 map: no sub-pixel shift.
  Context context({floats({1, 3, 3, 1}, {0, 1, 0, 1, 4, 1, 0, 1, 0}),
                   floats({1, 4}, {0, 0, 30, 60}), boolean(false)},
                  {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::HEATMAP_MAX_KEYPOINT, context).ok());
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{4.0f}));
  EXPECT_EQ(context.result<float>(1), (std::vector<float>{15.0f, 30.0f}));
}

TEST(DetectOpsTest, HeatmapMaxKeypointRejectsTinyOrNonSquareMaps) {
  Context tiny({floats({1, 1, 1, 1}, {1}), floats({1, 4}, {0, 0, 1, 1}), boolean(false)},
               {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32)});
  EXPECT_FALSE(run(OperationType::HEATMAP_MAX_KEYPOINT, tiny).ok());
  Context oblong(
      {floats({1, 2, 3, 1}, {1, 2, 3, 4, 5, 6}), floats({1, 4}, {0, 0, 1, 1}), boolean(false)},
      {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32)});
  EXPECT_FALSE(run(OperationType::HEATMAP_MAX_KEYPOINT, oblong).ok());
}

TEST(DetectOpsTest, HeatmapMaxKeypointZeroBoxesGivesEmptyOutputs) {
  Context context({floats({0, 3, 3, 2}, {}), floats({0, 4}, {}), boolean(false)},
                  {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32)});
  ASSERT_TRUE(run(OperationType::HEATMAP_MAX_KEYPOINT, context).ok());
  EXPECT_EQ(context.outputShape(1).dims, (std::vector<uint32_t>{0, 2, 2}));
}

// ---------------------------------------------------------------- DETECTION_POSTPROCESSING

std::vector<Operand> postprocessingInputs(bool regular, int32_t maxDetections) {
  // Two anchors at the same place; class 2 wins on both.
  return {floats({1, 2, 3}, {0.0f, 0.1f, 0.9f, 0.0f, 0.2f, 0.8f}),
          floats({1, 2, 4}, std::vector<float>(8, 0.0f)),
          floats({2, 4}, {5, 5, 2, 2, 5, 5, 2, 2}),
          f32(10.0f),
          f32(10.0f),
          f32(5.0f),
          f32(5.0f),
          boolean(regular),
          i32(maxDetections),
          i32(1),
          i32(2),
          f32(0.0f),
          f32(0.5f),
          boolean(false)};
}

std::vector<Shape> postprocessingOutputs() {
  return {shapeOf(OperandType::TENSOR_FLOAT32), shapeOf(OperandType::TENSOR_FLOAT32),
          shapeOf(OperandType::TENSOR_INT32), shapeOf(OperandType::TENSOR_INT32)};
}

TEST(DetectOpsTest, DetectionPostprocessingFastNmsPadsWithZeros) {
  Context context(postprocessingInputs(false, 3), postprocessingOutputs());
  ASSERT_TRUE(run(OperationType::DETECTION_POSTPROCESSING, context).ok());
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{0.9f, 0, 0}));
  EXPECT_EQ(context.result<float>(1), (std::vector<float>{4, 4, 6, 6, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(context.result<int32_t>(2), (std::vector<int32_t>{1, 0, 0}));
  EXPECT_EQ(context.result<int32_t>(3), (std::vector<int32_t>{1}));
}

TEST(DetectOpsTest, DetectionPostprocessingRegularNmsKeepsOnePerOverlap) {
  Context context(postprocessingInputs(true, 3), postprocessingOutputs());
  ASSERT_TRUE(run(OperationType::DETECTION_POSTPROCESSING, context).ok());
  // Class 1: 0.2 (anchor 1) suppresses 0.1; class 2: 0.9 suppresses 0.8.
  EXPECT_EQ(context.result<float>(0), (std::vector<float>{0.9f, 0.2f, 0}));
  EXPECT_EQ(context.result<int32_t>(2), (std::vector<int32_t>{1, 0, 0}));
  EXPECT_EQ(context.result<int32_t>(3), (std::vector<int32_t>{2}));
}

TEST(DetectOpsTest, DetectionPostprocessingRejectsNoDetections) {
  Context context(postprocessingInputs(false, 0), postprocessingOutputs());
  EXPECT_FALSE(run(OperationType::DETECTION_POSTPROCESSING, context).ok());
}

}  // namespace
}  // namespace annrt::ops
