// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// BOX_WITH_NMS_LIMIT (level 3; quant8 signed since level 4): per image and per
// class (class 0 is background and skipped), keeps the boxes scoring above
// score_threshold, then runs greedy soft NMS with a hard (score * 0 past the
// IoU threshold), linear (score * (1 - IoU) past it) or gaussian
// (score * exp(-IoU^2 / sigma)) kernel, dropping boxes whose rescored value
// falls below nms_score_threshold; at most max_num_detections boxes survive per
// class and per image, ordered by class then descending score. Boxes of one
// image must be contiguous in the input. The output size depends on the data:
// prepare runs the selection to size the outputs, execute runs it again to
// write them. Quantized scores are computed in float, as the reference does;
// output boxes are copied from the input.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ops/operation.h"
#include "ops/util/bbox.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::nms {
namespace {

using ops::bbox::kBoxDim;

constexpr uint32_t kScores = 0;
constexpr uint32_t kRois = 1;
constexpr uint32_t kBatches = 2;
constexpr uint32_t kScoreThreshold = 3;
constexpr uint32_t kMaxDetections = 4;
constexpr uint32_t kKernel = 5;
constexpr uint32_t kIouThreshold = 6;
constexpr uint32_t kSigma = 7;
constexpr uint32_t kNmsScoreThreshold = 8;

constexpr uint32_t kOutScores = 0;
constexpr uint32_t kOutRois = 1;
constexpr uint32_t kOutClasses = 2;
constexpr uint32_t kOutBatches = 3;

enum class Kernel : int32_t { HARD = 0, LINEAR = 1, GAUSSIAN = 2 };

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kScores);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(type,
                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                      OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                     "score"));
  const bool quantized = isQuant8Tensor(type);
  const OperandType boxType = quantized ? OperandType::TENSOR_QUANT16_ASYMM : type;
  const OperandType scalar = ops::bbox::floatScalarType(type);
  ANNRT_RETURN_IF_ERROR(ops::bbox::validateSignature(
      context,
      {type, boxType, OperandType::TENSOR_INT32, scalar, OperandType::INT32, OperandType::INT32,
       scalar, scalar, scalar},
      {type, boxType, OperandType::TENSOR_INT32, OperandType::TENSOR_INT32}));
  if (quantized) {
    ANNRT_RETURN_IF_ERROR(ops::bbox::validateBoxQuantization(context.inputShape(kRois), "roi"));
    ANNRT_RETURN_IF_ERROR(
        ops::bbox::validateBoxQuantization(context.outputShape(kOutRois), "output roi"));
    const Shape& scores = context.inputShape(kScores);
    const Shape& outScores = context.outputShape(kOutScores);
    ANNRT_CHECK(scores.scale == outScores.scale && scores.zeroPoint == outScores.zeroPoint,
                "output scores must keep the input's scale and zero point");
  }
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kScores), 2, "scores"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kRois), 2, "roi"));
  return validateRank(context.inputShape(kBatches), 1, "batch index");
}

struct Params {
  float scoreThreshold;
  int32_t maxDetections;
  Kernel kernel;
  float iouThreshold;
  float sigma;
  float nmsScoreThreshold;
};

Result<Params> readParams(const ExecutionContext& context) {
  Params p{ops::bbox::floatScalar(context, kScoreThreshold),
           context.scalar<int32_t>(kMaxDetections),
           static_cast<Kernel>(context.scalar<int32_t>(kKernel)),
           ops::bbox::floatScalar(context, kIouThreshold),
           ops::bbox::floatScalar(context, kSigma),
           ops::bbox::floatScalar(context, kNmsScoreThreshold)};
  const auto kernel = static_cast<int32_t>(p.kernel);
  ANNRT_CHECK(kernel >= 0 && kernel <= 2, "unsupported NMS kernel {}", kernel);
  return p;
}

Result<void> checkShapes(const ExecutionContext& context) {
  const Shape& scores = context.inputShape(kScores);
  const Shape& rois = context.inputShape(kRois);
  const Shape& batches = context.inputShape(kBatches);
  ANNRT_CHECK(rank(scores) == 2 && rank(rois) == 2 && rank(batches) == 1,
              "scores, roi and batch index must have ranks 2, 2, 1");
  const uint32_t numRois = scores.dims[0];
  const uint32_t numClasses = scores.dims[1];
  ANNRT_CHECK(numClasses > 1, "scores need a background class and at least one other, got {}",
              toString(scores.dims));
  ANNRT_CHECK(rois.dims[0] == numRois && static_cast<uint64_t>(rois.dims[1]) ==
                                             static_cast<uint64_t>(numClasses) * kBoxDim,
              "roi must be [{}, {}], got {}", numRois, numClasses * kBoxDim, toString(rois.dims));
  ANNRT_CHECK(batches.dims[0] == numRois, "batch index must be [{}], got {}", numRois,
              toString(batches.dims));
  return {};
}

// One kept box: its flat index roi * numClasses + class in the input, the
// input's batch index of that roi, and its rescored value.
struct Detection {
  uint32_t index;
  int32_t batch;
};

struct Selection {
  std::vector<Detection> detections;
  std::vector<float> scores;  // every input score after rescoring
};

float kernelWeight(const Params& p, float iou) {
  switch (p.kernel) {
    case Kernel::HARD: return iou < p.iouThreshold ? 1.0f : 0.0f;
    case Kernel::LINEAR: return iou < p.iouThreshold ? 1.0f : 1.0f - iou;
    case Kernel::GAUSSIAN:
    default: return std::exp(-1.0f * iou * iou / p.sigma);
  }
}

Result<Selection> select(const ExecutionContext& context, const Params& p) {
  const uint32_t numRois = context.inputShape(kScores).dims[0];
  const uint32_t numClasses = context.inputShape(kScores).dims[1];
  const size_t roiStride = static_cast<size_t>(numClasses) * kBoxDim;
  ANNRT_ASSIGN_OR_RETURN(std::vector<float> scores, ops::bbox::inputAsFloat(context, kScores));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> rois, ops::bbox::inputAsFloat(context, kRois));
  const int32_t* batches = context.input<int32_t>(kBatches);
  Selection result;
  // Each run of equal batch indices is one image.
  for (uint32_t first = 0; first < numRois;) {
    uint32_t last = first + 1;
    while (last < numRois && batches[last] == batches[first]) ++last;
    const uint32_t count = last - first;
    float* imageScores = &scores[static_cast<size_t>(first) * numClasses];
    const float* imageRois = &rois[first * roiStride];
    // As the reference: the first `count` boxes of the image's data are checked.
    for (uint32_t i = 0; i < count; ++i) {
      const float* box = imageRois + static_cast<size_t>(i) * kBoxDim;
      ANNRT_CHECK(box[0] <= box[2] && box[1] <= box[3], "roi {} is not a valid box", first + i);
    }
    auto scoreOf = [&](uint32_t i) { return imageScores[i]; };
    auto boxOf = [&](uint32_t i) { return imageRois + static_cast<size_t>(i) * kBoxDim; };
    std::vector<uint32_t> kept = ops::bbox::multiClassNms(
        count, numClasses, p.scoreThreshold, p.maxDetections, scoreOf,
        [&](uint32_t* begin, uint32_t* end) {
          return ops::bbox::greedyNms(
              begin, end, p.maxDetections, scoreOf, [&](uint32_t candidate, uint32_t best) {
                imageScores[candidate] *= kernelWeight(
                    p, ops::bbox::intersectionOverUnion(boxOf(candidate), boxOf(best)));
                return imageScores[candidate] < p.nmsScoreThreshold;
              });
        });
    std::stable_sort(kept.begin(), kept.end(), [&](uint32_t lhs, uint32_t rhs) {
      const uint32_t lhsClass = lhs % numClasses;
      const uint32_t rhsClass = rhs % numClasses;
      return lhsClass == rhsClass ? scoreOf(lhs) > scoreOf(rhs) : lhsClass < rhsClass;
    });
    for (uint32_t index : kept) {
      result.detections.push_back({first * numClasses + index, batches[first]});
    }
    first = last;
  }
  result.scores = std::move(scores);
  return result;
}

Result<void> setShapes(ExecutionContext& context, uint32_t count) {
  for (uint32_t output : {kOutScores, kOutRois, kOutClasses, kOutBatches}) {
    Shape shape = context.outputShape(output);
    shape.dims =
        output == kOutRois ? std::vector<uint32_t>{count, kBoxDim} : std::vector<uint32_t>{count};
    ANNRT_RETURN_IF_ERROR(context.setOutputShape(output, shape));
  }
  return {};
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkShapes(context));
  ANNRT_ASSIGN_OR_RETURN(const Params p, readParams(context));
  if (context.inputShape(kScores).dims[0] == 0) return setShapes(context, 0);
  ANNRT_ASSIGN_OR_RETURN(const Selection selection, select(context, p));
  return setShapes(context, static_cast<uint32_t>(selection.detections.size()));
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkShapes(context));
  ANNRT_ASSIGN_OR_RETURN(const Params p, readParams(context));
  ANNRT_ASSIGN_OR_RETURN(const Selection selection, select(context, p));
  const size_t count = selection.detections.size();
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, count == context.outputShape(kOutScores).dims[0],
                   "detection count changed between prepare and execute");
  const uint32_t numClasses = context.inputShape(kScores).dims[1];
  const size_t boxBytes = kBoxDim * elementSize(context.inputType(kRois));
  const auto* rois = static_cast<const uint8_t*>(context.inputData(kRois));
  auto* outRois = static_cast<uint8_t*>(context.outputData(kOutRois));
  int32_t* outClasses = context.output<int32_t>(kOutClasses);
  int32_t* outBatches = context.output<int32_t>(kOutBatches);
  std::vector<float> scores(count);
  for (size_t i = 0; i < count; ++i) {
    const Detection& d = selection.detections[i];
    scores[i] = selection.scores[d.index];
    std::memcpy(outRois + i * boxBytes, rois + d.index * boxBytes, boxBytes);
    outClasses[i] = static_cast<int32_t>(d.index % numClasses);
    outBatches[i] = d.batch;
  }
  return ops::bbox::storeFloat(scores, context, kOutScores);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::BOX_WITH_NMS_LIMIT,
     .name = "BOX_WITH_NMS_LIMIT",
     .validate = validate,
     .prepare = prepare,
     .execute = execute,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::nms
