// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// AXIS_ALIGNED_BBOX_TRANSFORM and GENERATE_PROPOSALS (level 3; quant8 signed
// since level 4): box regression deltas applied to regions of interest or
// anchors, clipped to the image. GENERATE_PROPOSALS then keeps the best
// pre_nms_top_n anchors, drops small or off-image boxes and applies hard NMS
// per image; how many proposals survive is only known after running it, so
// prepare computes the proposals to size the outputs and execute computes them
// again to write them. Quantized data is computed in float, as the reference
// does; boxes are TENSOR_QUANT16_ASYMM (anchors TENSOR_QUANT16_SYMM) of scale 0.125.
#include "ops/util/bbox.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "ops/operation.h"
#include "ops/util/pooling_common.h"
#include "ops/util/shape_helpers.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::bbox {
namespace {

using ops::bbox::Box;
using ops::bbox::kBoxDim;

namespace transform {

constexpr uint32_t kRois = 0;
constexpr uint32_t kDeltas = 1;
constexpr uint32_t kBatches = 2;
constexpr uint32_t kImageInfo = 3;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kRois);
  if (type == OperandType::TENSOR_QUANT16_ASYMM) {
    const OperandType deltaType = context.inputType(kDeltas);
    ANNRT_RETURN_IF_ERROR(validateTypeIn(
        deltaType, {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
        "box delta"));
    ANNRT_RETURN_IF_ERROR(ops::bbox::validateSignature(
        context, {type, deltaType, OperandType::TENSOR_INT32, type}, {type}));
    ANNRT_RETURN_IF_ERROR(ops::bbox::validateBoxQuantization(context.inputShape(kRois), "roi"));
    ANNRT_RETURN_IF_ERROR(
        ops::bbox::validateBoxQuantization(context.inputShape(kImageInfo), "image info"));
    ANNRT_RETURN_IF_ERROR(ops::bbox::validateBoxQuantization(context.outputShape(0), "output"));
  } else {
    ANNRT_RETURN_IF_ERROR(
        validateTypeIn(type, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16}, "roi"));
    ANNRT_RETURN_IF_ERROR(ops::bbox::validateSignature(
        context, {type, type, OperandType::TENSOR_INT32, type}, {type}));
  }
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kRois), 2, "roi"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kDeltas), 2, "box delta"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kBatches), 1, "batch index"));
  return validateRank(context.inputShape(kImageInfo), 2, "image info");
}

Result<void> prepare(ExecutionContext& context) {
  const Shape& rois = context.inputShape(kRois);
  const Shape& deltas = context.inputShape(kDeltas);
  const Shape& batches = context.inputShape(kBatches);
  const Shape& imageInfo = context.inputShape(kImageInfo);
  ANNRT_CHECK(rank(rois) == 2 && rank(deltas) == 2 && rank(batches) == 1 && rank(imageInfo) == 2,
              "roi, box delta, batch index and image info must have ranks 2, 2, 1, 2");
  const uint32_t numRois = rois.dims[0];
  ANNRT_CHECK(rois.dims[1] == kBoxDim, "roi must be [num_rois, 4], got {}", toString(rois.dims));
  ANNRT_CHECK(deltas.dims[0] == numRois && deltas.dims[1] > 0 && deltas.dims[1] % kBoxDim == 0,
              "box delta must be [{}, 4 * num_classes], got {}", numRois, toString(deltas.dims));
  ANNRT_CHECK(batches.dims[0] == numRois, "batch index must be [{}], got {}", numRois,
              toString(batches.dims));
  ANNRT_CHECK(imageInfo.dims[0] > 0 && imageInfo.dims[1] == 2,
              "image info must be [num_batches > 0, 2], got {}", toString(imageInfo.dims));
  Shape output = context.outputShape(0);
  output.dims = deltas.dims;
  return context.setOutputShape(0, output);
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> rois, ops::bbox::inputAsFloat(context, kRois));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> deltas,
                         ops::bbox::inputAsFloat(context, kDeltas));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> imageInfo,
                         ops::bbox::inputAsFloat(context, kImageInfo));
  const int32_t* batches = context.input<int32_t>(kBatches);
  const uint32_t numRois = context.inputShape(kRois).dims[0];
  const uint32_t numClasses = context.inputShape(kDeltas).dims[1] / kBoxDim;
  const uint32_t numBatches = context.inputShape(kImageInfo).dims[0];
  std::vector<float> output(deltas.size());
  for (uint32_t roi = 0; roi < numRois; ++roi) {
    const int32_t batch = batches[roi];
    ANNRT_CHECK(batch >= 0 && static_cast<uint32_t>(batch) < numBatches,
                "roi {} has batch index {}, expected [0, {})", roi, batch, numBatches);
    const float* box = &rois[static_cast<size_t>(roi) * kBoxDim];
    ANNRT_CHECK(box[0] <= box[2] && box[1] <= box[3], "roi {} is not a valid box", roi);
    const float imageHeight = imageInfo[static_cast<size_t>(batch) * 2];
    const float imageWidth = imageInfo[static_cast<size_t>(batch) * 2 + 1];
    for (uint32_t c = 0; c < numClasses; ++c) {
      const size_t offset = (static_cast<size_t>(roi) * numClasses + c) * kBoxDim;
      const Box result = ops::bbox::transformBox(box, &deltas[offset], imageHeight, imageWidth);
      std::copy_n(&result.x1, kBoxDim, &output[offset]);
    }
  }
  return ops::bbox::storeFloat(output, context, 0);
}

}  // namespace transform

namespace proposals {

constexpr uint32_t kScores = 0;
constexpr uint32_t kDeltas = 1;
constexpr uint32_t kAnchors = 2;
constexpr uint32_t kImageInfo = 3;
constexpr uint32_t kHeightStride = 4;
constexpr uint32_t kWidthStride = 5;
constexpr uint32_t kPreNmsTopN = 6;
constexpr uint32_t kPostNmsTopN = 7;
constexpr uint32_t kIouThreshold = 8;
constexpr uint32_t kMinSize = 9;
constexpr uint32_t kLayout = 10;

constexpr uint32_t kOutScores = 0;
constexpr uint32_t kOutRois = 1;
constexpr uint32_t kOutBatches = 2;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kScores);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(type,
                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                      OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                     "score"));
  const bool quantized = isQuant8Tensor(type);
  const OperandType anchorType = quantized ? OperandType::TENSOR_QUANT16_SYMM : type;
  const OperandType boxType = quantized ? OperandType::TENSOR_QUANT16_ASYMM : type;
  const OperandType scalar = ops::bbox::floatScalarType(type);
  ANNRT_RETURN_IF_ERROR(ops::bbox::validateSignature(
      context,
      {type, type, anchorType, boxType, scalar, scalar, OperandType::INT32, OperandType::INT32,
       scalar, scalar, OperandType::BOOL},
      {type, boxType, OperandType::TENSOR_INT32}));
  if (quantized) {
    const Shape& anchors = context.inputShape(kAnchors);
    ANNRT_CHECK(anchors.scale == ops::bbox::kBoxScale, "anchors must have scale 0.125, got {}",
                anchors.scale);
    ANNRT_RETURN_IF_ERROR(
        ops::bbox::validateBoxQuantization(context.inputShape(kImageInfo), "image info"));
    ANNRT_RETURN_IF_ERROR(
        ops::bbox::validateBoxQuantization(context.outputShape(kOutRois), "output roi"));
    const Shape& scores = context.inputShape(kScores);
    const Shape& outScores = context.outputShape(kOutScores);
    ANNRT_CHECK(scores.scale == outScores.scale && scores.zeroPoint == outScores.zeroPoint,
                "output scores must keep the input's scale and zero point");
  }
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kScores), 4, "scores"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kDeltas), 4, "box deltas"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kAnchors), 2, "anchors"));
  return validateRank(context.inputShape(kImageInfo), 2, "image info");
}

// Sizes in NHWC terms.
struct Geometry {
  uint32_t batches = 0;
  uint32_t height = 0;
  uint32_t width = 0;
  uint32_t anchors = 0;
  bool nchw = false;
};

Result<Geometry> geometry(const ExecutionContext& context) {
  const Shape& scores = context.inputShape(kScores);
  const Shape& deltas = context.inputShape(kDeltas);
  const Shape& anchors = context.inputShape(kAnchors);
  const Shape& imageInfo = context.inputShape(kImageInfo);
  ANNRT_CHECK(rank(scores) == 4 && rank(deltas) == 4 && rank(anchors) == 2 && rank(imageInfo) == 2,
              "scores, box deltas, anchors and image info must have ranks 4, 4, 2, 2");
  Geometry g;
  g.nchw = (context.scalar<uint8_t>(kLayout) != 0);
  g.batches = scores.dims[0];
  g.height = scores.dims[g.nchw ? 2 : 1];
  g.width = scores.dims[g.nchw ? 3 : 2];
  g.anchors = scores.dims[g.nchw ? 1 : 3];
  const std::vector<uint32_t> expectedDeltas =
      g.nchw ? std::vector<uint32_t>{g.batches, g.anchors * kBoxDim, g.height, g.width}
             : std::vector<uint32_t>{g.batches, g.height, g.width, g.anchors * kBoxDim};
  ANNRT_CHECK(deltas.dims == expectedDeltas, "box deltas must be {}, got {}",
              toString(expectedDeltas), toString(deltas.dims));
  ANNRT_CHECK(anchors.dims == (std::vector<uint32_t>{g.anchors, kBoxDim}),
              "anchors must be [{}, 4], got {}", g.anchors, toString(anchors.dims));
  ANNRT_CHECK(imageInfo.dims == (std::vector<uint32_t>{g.batches, 2}),
              "image info must be [{}, 2], got {}", g.batches, toString(imageInfo.dims));
  return g;
}

struct Proposals {
  std::vector<float> scores;
  std::vector<float> rois;
  std::vector<int32_t> batches;
};

// An input as float in NHWC order.
Result<std::vector<float>> nhwcInput(const ExecutionContext& context, uint32_t index, bool nchw) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<float> values, ops::bbox::inputAsFloat(context, index));
  if (!nchw) return values;
  std::vector<float> nhwc(values.size());
  nchwToNhwc(values.data(), nhwc.data(), context.inputShape(index).dims, sizeof(float));
  return nhwc;
}

// Keeps the boxes wider and taller than minSize whose center is in the image.
void filterBoxes(const std::vector<float>& boxes, float imageHeight, float imageWidth,
                 float minSize, std::vector<uint32_t>& select) {
  std::erase_if(select, [&](uint32_t index) {
    const float* box = &boxes[static_cast<size_t>(index) * kBoxDim];
    const float width = box[2] - box[0];
    const float height = box[3] - box[1];
    const float centerX = box[0] + width / 2;
    const float centerY = box[1] + height / 2;
    return !(width > minSize && height > minSize && centerX < imageWidth && centerY < imageHeight);
  });
}

Result<Proposals> generate(const ExecutionContext& context, const Geometry& g) {
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> scores, nhwcInput(context, kScores, g.nchw));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> deltas, nhwcInput(context, kDeltas, g.nchw));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> anchors,
                         ops::bbox::inputAsFloat(context, kAnchors));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> imageInfo,
                         ops::bbox::inputAsFloat(context, kImageInfo));
  const float heightStride = ops::bbox::floatScalar(context, kHeightStride);
  const float widthStride = ops::bbox::floatScalar(context, kWidthStride);
  const int32_t preNmsTopN = context.scalar<int32_t>(kPreNmsTopN);
  const int32_t postNmsTopN = context.scalar<int32_t>(kPostNmsTopN);
  const float iouThreshold = ops::bbox::floatScalar(context, kIouThreshold);
  const float minSize = ops::bbox::floatScalar(context, kMinSize);

  // Anchors shifted to every feature map position, in (h, w, anchor) order.
  const size_t perImage = static_cast<size_t>(g.height) * g.width * g.anchors;
  std::vector<float> shifted(perImage * kBoxDim);
  for (uint32_t h = 0; h < g.height; ++h) {
    for (uint32_t w = 0; w < g.width; ++w) {
      for (uint32_t a = 0; a < g.anchors; ++a) {
        const float* anchor = &anchors[static_cast<size_t>(a) * kBoxDim];
        float* box = &shifted[((static_cast<size_t>(h) * g.width + w) * g.anchors + a) * kBoxDim];
        const float dx = static_cast<float>(w) * widthStride;
        const float dy = static_cast<float>(h) * heightStride;
        box[0] = anchor[0] + dx;
        box[1] = anchor[1] + dy;
        box[2] = anchor[2] + dx;
        box[3] = anchor[3] + dy;
        ANNRT_CHECK(box[0] <= box[2] && box[1] <= box[3], "anchor {} is not a valid box", a);
      }
    }
  }

  Proposals result;
  std::vector<float> boxes(perImage * kBoxDim);
  for (uint32_t b = 0; b < g.batches; ++b) {
    const float* imageScores = &scores[b * perImage];
    const float* imageDeltas = &deltas[b * perImage * kBoxDim];
    const float imageHeight = imageInfo[static_cast<size_t>(b) * 2];
    const float imageWidth = imageInfo[static_cast<size_t>(b) * 2 + 1];
    for (size_t i = 0; i < perImage; ++i) {
      const Box box = ops::bbox::transformBox(&shifted[i * kBoxDim], &imageDeltas[i * kBoxDim],
                                              imageHeight, imageWidth);
      std::copy_n(&box.x1, kBoxDim, &boxes[i * kBoxDim]);
    }
    std::vector<uint32_t> select(perImage);
    std::iota(select.begin(), select.end(), 0u);
    auto scoreOf = [&](uint32_t i) { return imageScores[i]; };
    if (preNmsTopN > 0 && static_cast<size_t>(preNmsTopN) < select.size()) {
      std::stable_sort(select.begin(), select.end(),
                       [&](uint32_t lhs, uint32_t rhs) { return scoreOf(lhs) > scoreOf(rhs); });
      select.resize(static_cast<size_t>(preNmsTopN));
    }
    filterBoxes(boxes, imageHeight, imageWidth, minSize, select);
    uint32_t* keptEnd = ops::bbox::hardNms(
        select.data(), select.data() + select.size(), postNmsTopN, iouThreshold, scoreOf,
        [&](uint32_t i) { return &boxes[static_cast<size_t>(i) * kBoxDim]; });
    for (const uint32_t* i = select.data(); i < keptEnd; ++i) {
      result.scores.push_back(imageScores[*i]);
      result.rois.insert(result.rois.end(), &boxes[static_cast<size_t>(*i) * kBoxDim],
                         &boxes[static_cast<size_t>(*i) * kBoxDim] + kBoxDim);
      result.batches.push_back(static_cast<int32_t>(b));
    }
  }
  return result;
}

Result<void> setShapes(ExecutionContext& context, uint32_t count) {
  Shape scores = context.outputShape(kOutScores);
  scores.dims = {count};
  ANNRT_RETURN_IF_ERROR(context.setOutputShape(kOutScores, scores));
  Shape rois = context.outputShape(kOutRois);
  rois.dims = {count, kBoxDim};
  ANNRT_RETURN_IF_ERROR(context.setOutputShape(kOutRois, rois));
  Shape batches = context.outputShape(kOutBatches);
  batches.dims = {count};
  return context.setOutputShape(kOutBatches, batches);
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Geometry g, geometry(context));
  if (elementCount(context.inputShape(kScores)) == 0) return setShapes(context, 0);
  ANNRT_ASSIGN_OR_RETURN(const Proposals proposals, generate(context, g));
  return setShapes(context, static_cast<uint32_t>(proposals.scores.size()));
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Geometry g, geometry(context));
  ANNRT_ASSIGN_OR_RETURN(const Proposals proposals, generate(context, g));
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                   proposals.scores.size() == context.outputShape(kOutScores).dims[0],
                   "proposal count changed between prepare and execute");
  ANNRT_RETURN_IF_ERROR(ops::bbox::storeFloat(proposals.scores, context, kOutScores));
  ANNRT_RETURN_IF_ERROR(ops::bbox::storeFloat(proposals.rois, context, kOutRois));
  std::copy(proposals.batches.begin(), proposals.batches.end(),
            context.output<int32_t>(kOutBatches));
  return {};
}

}  // namespace proposals

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::AXIS_ALIGNED_BBOX_TRANSFORM,
     .name = "AXIS_ALIGNED_BBOX_TRANSFORM",
     .validate = transform::validate,
     .prepare = transform::prepare,
     .execute = transform::execute,
     .allowZeroSizedInput = true},
    {.type = OperationType::GENERATE_PROPOSALS,
     .name = "GENERATE_PROPOSALS",
     .validate = proposals::validate,
     .prepare = proposals::prepare,
     .execute = proposals::execute,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::bbox
