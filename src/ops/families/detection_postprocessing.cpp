// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// DETECTION_POSTPROCESSING (level 3, float only): SSD-style box decoding of
// center-size deltas (scaled by 1 / scale_y etc.) against center-size anchors
// into (y1, x1, y2, x2) boxes, then either regular NMS (hard NMS per class,
// skipping the background class 0, best max_num_detections overall) or fast
// NMS (hard NMS once on each anchor's best non-background score, reporting the
// max_classes_per_detection best classes of each kept anchor). The outputs
// have a fixed size; unused detections are zero and the last output counts the
// valid ones per batch.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "ops/operation.h"
#include "ops/util/bbox.h"
#include "ops/util/pooling_common.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::detection_postprocessing {
namespace {

using ops::bbox::kBoxDim;

constexpr uint32_t kScores = 0;
constexpr uint32_t kDeltas = 1;
constexpr uint32_t kAnchors = 2;
constexpr uint32_t kScaleY = 3;
constexpr uint32_t kScaleX = 4;
constexpr uint32_t kScaleH = 5;
constexpr uint32_t kScaleW = 6;
constexpr uint32_t kUseRegularNms = 7;
constexpr uint32_t kMaxDetections = 8;
constexpr uint32_t kMaxClassesPerDetection = 9;
constexpr uint32_t kMaxDetectionsPerClass = 10;
constexpr uint32_t kScoreThreshold = 11;
constexpr uint32_t kIouThreshold = 12;
constexpr uint32_t kBackgroundInLabel = 13;

constexpr uint32_t kOutScores = 0;
constexpr uint32_t kOutBoxes = 1;
constexpr uint32_t kOutClasses = 2;
constexpr uint32_t kOutCounts = 3;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kScores);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(type, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16}, "score"));
  const OperandType scalar = ops::bbox::floatScalarType(type);
  ANNRT_RETURN_IF_ERROR(ops::bbox::validateSignature(
      context,
      {type, type, type, scalar, scalar, scalar, scalar, OperandType::BOOL, OperandType::INT32,
       OperandType::INT32, OperandType::INT32, scalar, scalar, OperandType::BOOL},
      {type, type, OperandType::TENSOR_INT32, OperandType::TENSOR_INT32}));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kScores), 3, "scores"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kDeltas), 3, "box deltas"));
  return validateRank(context.inputShape(kAnchors), 2, "anchors");
}

struct Params {
  uint32_t batches, anchors, classes, boxEncoding;
  float scaleY, scaleX, scaleH, scaleW;
  bool regularNms;
  int32_t maxDetections, maxClassesPerDetection, maxDetectionsPerClass;
  float scoreThreshold, iouThreshold;
  bool backgroundInLabel;
  uint32_t outDetections;  // per batch
};

Result<Params> readParams(const ExecutionContext& context) {
  const Shape& scores = context.inputShape(kScores);
  const Shape& deltas = context.inputShape(kDeltas);
  const Shape& anchors = context.inputShape(kAnchors);
  ANNRT_CHECK(rank(scores) == 3 && rank(deltas) == 3 && rank(anchors) == 2,
              "scores, box deltas and anchors must have ranks 3, 3, 2");
  Params p{};
  p.batches = scores.dims[0];
  p.anchors = scores.dims[1];
  p.classes = scores.dims[2];
  p.boxEncoding = deltas.dims[2];
  ANNRT_CHECK(deltas.dims[0] == p.batches && deltas.dims[1] == p.anchors,
              "box deltas must be [{}, {}, >= 4], got {}", p.batches, p.anchors,
              toString(deltas.dims));
  ANNRT_CHECK(anchors.dims == (std::vector<uint32_t>{p.anchors, kBoxDim}),
              "anchors must be [{}, 4], got {}", p.anchors, toString(anchors.dims));
  ANNRT_CHECK(p.classes > 1, "scores need a background class and at least one other");
  ANNRT_CHECK(p.boxEncoding >= kBoxDim, "box encodings need at least 4 values, got {}",
              p.boxEncoding);
  p.scaleY = ops::bbox::floatScalar(context, kScaleY);
  p.scaleX = ops::bbox::floatScalar(context, kScaleX);
  p.scaleH = ops::bbox::floatScalar(context, kScaleH);
  p.scaleW = ops::bbox::floatScalar(context, kScaleW);
  ANNRT_CHECK(p.scaleY > 0 && p.scaleX > 0 && p.scaleH > 0 && p.scaleW > 0,
              "scales ({}, {}, {}, {}) must be positive", p.scaleY, p.scaleX, p.scaleH, p.scaleW);
  p.regularNms = (context.scalar<uint8_t>(kUseRegularNms) != 0);
  p.maxDetections = context.scalar<int32_t>(kMaxDetections);
  p.maxClassesPerDetection = context.scalar<int32_t>(kMaxClassesPerDetection);
  p.maxDetectionsPerClass = context.scalar<int32_t>(kMaxDetectionsPerClass);
  p.scoreThreshold = ops::bbox::floatScalar(context, kScoreThreshold);
  p.iouThreshold = ops::bbox::floatScalar(context, kIouThreshold);
  ANNRT_CHECK(p.scoreThreshold >= 0 && p.iouThreshold >= 0,
              "score threshold {} and IoU threshold {} must be >= 0", p.scoreThreshold,
              p.iouThreshold);
  p.backgroundInLabel = (context.scalar<uint8_t>(kBackgroundInLabel) != 0);
  ANNRT_CHECK(p.maxDetections > 0, "max_num_detections {} must be positive", p.maxDetections);
  uint64_t outDetections = static_cast<uint32_t>(p.maxDetections);
  if (p.regularNms) {
    ANNRT_CHECK(p.maxDetectionsPerClass > 0, "max_num_detections_per_class {} must be positive",
                p.maxDetectionsPerClass);
  } else {
    ANNRT_CHECK(p.maxClassesPerDetection > 0, "max_classes_per_detection {} must be positive",
                p.maxClassesPerDetection);
    outDetections *= static_cast<uint32_t>(p.maxClassesPerDetection);
  }
  ANNRT_CHECK(outDetections <= std::numeric_limits<int32_t>::max(),
              "{} detections per batch is too many", outDetections);
  p.outDetections = static_cast<uint32_t>(outDetections);
  return p;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Params p, readParams(context));
  const std::vector<std::vector<uint32_t>> dims = {{p.batches, p.outDetections},
                                                   {p.batches, p.outDetections, kBoxDim},
                                                   {p.batches, p.outDetections},
                                                   {p.batches}};
  for (uint32_t i = 0; i < dims.size(); ++i) {
    Shape shape = context.outputShape(i);
    shape.dims = dims[i];
    ANNRT_RETURN_IF_ERROR(context.setOutputShape(i, shape));
  }
  return {};
}

// Decodes one batch's boxes as (y1, x1, y2, x2).
void decodeBoxes(const Params& p, const float* deltas, const std::vector<float>& anchors,
                 std::vector<float>& boxes) {
  for (uint32_t a = 0; a < p.anchors; ++a) {
    const float* anchor = &anchors[static_cast<size_t>(a) * kBoxDim];  // yc, xc, h, w
    const float* delta = deltas + static_cast<size_t>(a) * p.boxEncoding;
    const float centerY = anchor[0] + anchor[2] * delta[0] / p.scaleY;
    const float centerX = anchor[1] + anchor[3] * delta[1] / p.scaleX;
    const float halfH = anchor[2] * std::exp(delta[2] / p.scaleH) * 0.5f;
    const float halfW = anchor[3] * std::exp(delta[3] / p.scaleW) * 0.5f;
    float* box = &boxes[static_cast<size_t>(a) * kBoxDim];
    box[0] = centerY - halfH;
    box[1] = centerX - halfW;
    box[2] = centerY + halfH;
    box[3] = centerX + halfW;
  }
}

// The outputs of one batch.
struct BatchOutput {
  float* scores;
  float* boxes;
  int32_t* classes;
  int32_t labelOffset;  // subtracted from class indices when the background is not a label

  void write(size_t slot, float score, const float* box, uint32_t label) {
    scores[slot] = score;
    std::copy_n(box, kBoxDim, boxes + slot * kBoxDim);
    classes[slot] = static_cast<int32_t>(label) - labelOffset;
  }
};

// Returns the number of detections written.
uint32_t regularNms(const Params& p, const float* scores, const std::vector<float>& boxes,
                    BatchOutput& out) {
  auto scoreOf = [&](uint32_t i) { return scores[i]; };
  auto boxOf = [&](uint32_t i) { return &boxes[static_cast<size_t>(i / p.classes) * kBoxDim]; };
  const std::vector<uint32_t> selected =
      ops::bbox::multiClassNms(p.anchors, p.classes, p.scoreThreshold, p.maxDetections, scoreOf,
                               [&](uint32_t* begin, uint32_t* end) {
                                 return ops::bbox::hardNms(begin, end, p.maxDetectionsPerClass,
                                                           p.iouThreshold, scoreOf, boxOf);
                               });
  for (size_t i = 0; i < selected.size(); ++i) {
    out.write(i, scores[selected[i]], boxOf(selected[i]), selected[i] % p.classes);
  }
  return static_cast<uint32_t>(selected.size());
}

uint32_t fastNms(const Params& p, const float* scores, const std::vector<float>& boxes,
                 BatchOutput& out) {
  const uint32_t outClasses =
      std::min<uint32_t>(p.classes - 1, static_cast<uint32_t>(p.maxClassesPerDetection));
  std::vector<float> maxScores(p.anchors);
  std::vector<uint32_t> select;
  for (uint32_t a = 0; a < p.anchors; ++a) {
    const float* anchorScores = scores + static_cast<size_t>(a) * p.classes;
    maxScores[a] = *std::max_element(anchorScores + 1, anchorScores + p.classes);
    if (maxScores[a] > p.scoreThreshold) select.push_back(a);
  }
  uint32_t* keptEnd = ops::bbox::hardNms(
      select.data(), select.data() + select.size(), p.maxDetections, p.iouThreshold,
      [&](uint32_t a) { return maxScores[a]; },
      [&](uint32_t a) { return &boxes[static_cast<size_t>(a) * kBoxDim]; });
  size_t slot = 0;
  std::vector<uint32_t> classOrder(p.classes - 1);
  for (const uint32_t* a = select.data(); a < keptEnd; ++a) {
    const float* anchorScores = scores + static_cast<size_t>(*a) * p.classes;
    std::iota(classOrder.begin(), classOrder.end(), 1u);
    std::stable_sort(classOrder.begin(), classOrder.end(), [&](uint32_t lhs, uint32_t rhs) {
      return anchorScores[lhs] > anchorScores[rhs];
    });
    for (uint32_t c = 0; c < outClasses; ++c) {
      out.write(slot++, anchorScores[classOrder[c]], &boxes[static_cast<size_t>(*a) * kBoxDim],
                classOrder[c]);
    }
  }
  return static_cast<uint32_t>(slot);
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Params p, readParams(context));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> scores,
                         ops::bbox::inputAsFloat(context, kScores));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> deltas,
                         ops::bbox::inputAsFloat(context, kDeltas));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> anchors,
                         ops::bbox::inputAsFloat(context, kAnchors));
  const size_t perBatch = p.outDetections;
  std::vector<float> outScores(p.batches * perBatch, 0.0f);
  std::vector<float> outBoxes(outScores.size() * kBoxDim, 0.0f);
  int32_t* outClasses = context.output<int32_t>(kOutClasses);
  std::fill_n(outClasses, outScores.size(), 0);
  int32_t* counts = context.output<int32_t>(kOutCounts);
  std::vector<float> boxes(static_cast<size_t>(p.anchors) * kBoxDim);
  for (uint32_t b = 0; b < p.batches; ++b) {
    decodeBoxes(p, &deltas[static_cast<size_t>(b) * p.anchors * p.boxEncoding], anchors, boxes);
    const float* batchScores = &scores[static_cast<size_t>(b) * p.anchors * p.classes];
    BatchOutput out{&outScores[b * perBatch], &outBoxes[b * perBatch * kBoxDim],
                    outClasses + b * perBatch, p.backgroundInLabel ? 0 : 1};
    counts[b] = static_cast<int32_t>(p.regularNms ? regularNms(p, batchScores, boxes, out)
                                                  : fastNms(p, batchScores, boxes, out));
  }
  ANNRT_RETURN_IF_ERROR(ops::bbox::storeFloat(outScores, context, kOutScores));
  return ops::bbox::storeFloat(outBoxes, context, kOutBoxes);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::DETECTION_POSTPROCESSING,
     .name = "DETECTION_POSTPROCESSING",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::detection_postprocessing
