// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the detection and vision families (AXIS_ALIGNED_BBOX_TRANSFORM,
// BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, ROI_ALIGN,
// ROI_POOLING, HEATMAP_MAX_KEYPOINT): boxes as (x1, y1, x2, y2) corners,
// intersection-over-union, the delta transform, greedy non-maximum suppression
// in the reference's order, and float views of inputs whose operand type may be
// float32, float16, or a quantized type (boxes are TENSOR_QUANT16_ASYMM with
// scale 0.125 in quantized models). Like the reference, these operations
// compute in float and convert once at the end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "ops/operation.h"

namespace annrt::ops::bbox {

inline constexpr uint32_t kBoxDim = 4;
// The only quantization the spec allows for boxes, image sizes and keypoints.
inline constexpr float kBoxScale = 0.125f;

// FLOAT16 for an operation on TENSOR_FLOAT16 data, FLOAT32 otherwise (the
// quantized variants take FLOAT32 scalars).
OperandType floatScalarType(OperandType tensorType);
// A FLOAT32 or FLOAT16 scalar input, as float.
float floatScalar(const ExecutionContext& context, uint32_t index);

// A tensor input as float: float16 widened, quantized types dequantized with
// the operand's scale and zero point.
Result<std::vector<float>> inputAsFloat(const ExecutionContext& context, uint32_t index);
// Writes `values` into output `index` in its operand type: float16 rounded
// once, quantized types as round(value / scale + zeroPoint), saturated (the
// reference's float-to-quant conversion).
Result<void> storeFloat(std::span<const float> values, ExecutionContext& context, uint32_t index);

// A quantized box operand must have scale 0.125 and zero point 0.
Result<void> validateBoxQuantization(const Shape& shape, const char* what);
// Input and output types of a signature, in order (with counts).
Result<void> validateSignature(const ValidationContext& context,
                               std::initializer_list<OperandType> inputs,
                               std::initializer_list<OperandType> outputs);

struct Box {
  float x1, y1, x2, y2;
};

// Intersection over union of two (x1, y1, x2, y2) boxes.
float intersectionOverUnion(const float* a, const float* b);

// Applies a (dx, dy, dw, dh) delta to a corner-encoded box (the center moves
// by dx * width, the width scales by exp(dw)) and clips the result to the
// image [0, width] x [0, height].
Box transformBox(const float* box, const float* delta, float imageHeight, float imageWidth);

// Greedy NMS in place on the candidate indices [begin, end): repeatedly moves
// the best remaining candidate (the first one on ties) to the front, then
// `suppress(candidate, best)` decides whether each other candidate is dropped
// (moved past the end). At most `maxDetections` are kept (all when negative).
// Returns the end of the kept range, which is in selection order.
template <typename ScoreOf, typename Suppress>
uint32_t* greedyNms(uint32_t* begin, uint32_t* end, int32_t maxDetections, ScoreOf&& scoreOf,
                    Suppress&& suppress) {
  const auto limit =
      maxDetections < 0 ? static_cast<size_t>(end - begin) : static_cast<size_t>(maxDetections);
  uint32_t* kept = begin;
  while (kept < end && static_cast<size_t>(kept - begin) < limit) {
    uint32_t* best = std::max_element(
        kept, end, [&](uint32_t lhs, uint32_t rhs) { return scoreOf(lhs) < scoreOf(rhs); });
    std::swap(*best, *kept);
    for (uint32_t* i = kept + 1; i < end;) {
      if (suppress(*i, *kept)) {
        std::swap(*i, *--end);
      } else {
        ++i;
      }
    }
    ++kept;
  }
  return kept;
}

// Hard NMS: drops candidates whose box overlaps the best one's by IoU >= threshold.
template <typename ScoreOf, typename BoxOf>
uint32_t* hardNms(uint32_t* begin, uint32_t* end, int32_t maxDetections, float iouThreshold,
                  ScoreOf&& scoreOf, BoxOf&& boxOf) {
  return greedyNms(begin, end, maxDetections, scoreOf, [&](uint32_t candidate, uint32_t best) {
    return intersectionOverUnion(boxOf(candidate), boxOf(best)) >= iouThreshold;
  });
}

// Per-class NMS over a [numRois, numClasses] score matrix (flat index
// roi * numClasses + class), skipping class 0 (background): the candidates of
// each class are the scores above `scoreThreshold`; `classNms(begin, end)`
// reduces them in place and returns the end of the kept ones. The result is
// sorted by descending score and cut to `maxDetections` (all when negative).
template <typename ScoreOf, typename ClassNms>
std::vector<uint32_t> multiClassNms(uint32_t numRois, uint32_t numClasses, float scoreThreshold,
                                    int32_t maxDetections, ScoreOf&& scoreOf, ClassNms&& classNms) {
  std::vector<uint32_t> selected;
  for (uint32_t c = 1; c < numClasses; ++c) {
    const size_t first = selected.size();
    for (uint32_t roi = 0; roi < numRois; ++roi) {
      const uint32_t index = roi * numClasses + c;
      if (scoreOf(index) > scoreThreshold) selected.push_back(index);
    }
    uint32_t* keptEnd = classNms(selected.data() + first, selected.data() + selected.size());
    selected.resize(static_cast<size_t>(keptEnd - selected.data()));
  }
  std::stable_sort(selected.begin(), selected.end(),
                   [&](uint32_t lhs, uint32_t rhs) { return scoreOf(lhs) > scoreOf(rhs); });
  if (maxDetections >= 0 && selected.size() > static_cast<size_t>(maxDetections)) {
    selected.resize(static_cast<size_t>(maxDetections));
  }
  return selected;
}

}  // namespace annrt::ops::bbox
