// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// HEATMAP_MAX_KEYPOINT (level 3; quant8 signed since level 4): for each box
// and keypoint, the maximum of the keypoint's heatmap refined to sub-pixel
// precision by a second-order Taylor expansion around it (the shift is clipped
// to 1.5 pixels), mapped from the heatmap grid into the box. Outputs the
// refined score and the (x, y) position. As the reference, quantized data is
// computed in float; keypoints are TENSOR_QUANT16_ASYMM of scale 0.125.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "ops/operation.h"
#include "ops/util/bbox.h"
#include "ops/util/pooling_common.h"
#include "ops/util/shape_helpers.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::heatmap {
namespace {

constexpr uint32_t kHeatmap = 0;
constexpr uint32_t kBoxes = 1;
constexpr uint32_t kLayout = 2;

constexpr uint32_t kOutScores = 0;
constexpr uint32_t kOutKeypoints = 1;

Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kHeatmap);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(type,
                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                      OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                     "heatmap"));
  const OperandType boxType = isQuant8Tensor(type) ? OperandType::TENSOR_QUANT16_ASYMM : type;
  ANNRT_RETURN_IF_ERROR(
      ops::bbox::validateSignature(context, {type, boxType, OperandType::BOOL}, {type, boxType}));
  ANNRT_RETURN_IF_ERROR(ops::bbox::validateBoxQuantization(context.inputShape(kBoxes), "boxes"));
  ANNRT_RETURN_IF_ERROR(
      ops::bbox::validateBoxQuantization(context.outputShape(kOutKeypoints), "keypoints"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kHeatmap), 4, "heatmap"));
  return validateRank(context.inputShape(kBoxes), 2, "boxes");
}

struct Geometry {
  bool nchw = false;
  uint32_t boxes = 0;
  uint32_t size = 0;  // the heatmap is size x size
  uint32_t keypoints = 0;
};

Result<Geometry> geometry(const ExecutionContext& context) {
  const Shape& heatmap = context.inputShape(kHeatmap);
  const Shape& boxes = context.inputShape(kBoxes);
  ANNRT_CHECK(rank(heatmap) == 4 && rank(boxes) == 2, "heatmap and boxes must have ranks 4, 2");
  Geometry g;
  g.nchw = (context.scalar<uint8_t>(kLayout) != 0);
  g.boxes = heatmap.dims[0];
  g.size = heatmap.dims[2];
  g.keypoints = heatmap.dims[g.nchw ? 1 : 3];
  ANNRT_CHECK(heatmap.dims[g.nchw ? 3 : 1] == g.size && g.size >= 2,
              "heatmaps must be square and at least 2x2, got {}", toString(heatmap.dims));
  ANNRT_CHECK(boxes.dims == (std::vector<uint32_t>{g.boxes, ops::bbox::kBoxDim}),
              "boxes must be [{}, 4], got {}", g.boxes, toString(boxes.dims));
  return g;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Geometry g, geometry(context));
  Shape scores = context.outputShape(kOutScores);
  scores.dims = {g.boxes, g.keypoints};
  ANNRT_RETURN_IF_ERROR(context.setOutputShape(kOutScores, scores));
  Shape keypoints = context.outputShape(kOutKeypoints);
  keypoints.dims = {g.boxes, g.keypoints, 2};
  return context.setOutputShape(kOutKeypoints, keypoints);
}

// Solves for the sub-pixel offset of the maximum of the quadratic through the
// 3x3 grid around the arg-max; leaves `delta` and `score` unchanged when the
// Hessian is singular (within the tolerances).
void refine(const float grid[3][3], float tolerance, float delta[2], float* score) {
  const float b[2] = {-(grid[1][2] - grid[1][0]) / 2.0f, -(grid[2][1] - grid[0][1]) / 2.0f};
  float a[2][2];
  a[0][0] = grid[1][0] - 2.0f * grid[1][1] + grid[1][2];
  a[0][1] = (grid[2][2] - grid[2][0] - grid[0][2] + grid[0][0]) / 4.0f;
  a[1][0] = a[0][1];
  a[1][1] = grid[0][1] - 2.0f * grid[1][1] + grid[2][1];
  const float crossProduct1 = a[0][0] * a[1][1];
  const float crossProduct2 = a[0][1] * a[1][0];
  const float determinant = crossProduct1 - crossProduct2;
  if (std::abs(determinant) < tolerance + tolerance * crossProduct1) return;
  delta[0] = (a[1][1] * b[0] - a[0][1] * b[1]) / determinant;
  delta[1] = (a[0][0] * b[1] - a[1][0] * b[0]) / determinant;
  if (std::abs(delta[0]) > 1.5f || std::abs(delta[1]) > 1.5f) {
    const float scale = 1.5f / std::max(std::abs(delta[0]), std::abs(delta[1]));
    delta[0] *= scale;
    delta[1] *= scale;
  }
  *score = grid[1][1] - b[0] * delta[0] - b[1] * delta[1] +
           ((a[0][0] * delta[0] + a[0][1] * delta[1]) * delta[0] +
            (a[1][0] * delta[0] + a[1][1] * delta[1]) * delta[1]) /
               2.0f;
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Geometry g, geometry(context));
  ANNRT_ASSIGN_OR_RETURN(std::vector<float> heatmap, ops::bbox::inputAsFloat(context, kHeatmap));
  if (g.nchw) {
    std::vector<float> nhwc(heatmap.size());
    nchwToNhwc(heatmap.data(), nhwc.data(), context.inputShape(kHeatmap).dims, sizeof(float));
    heatmap = std::move(nhwc);
  }
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> boxes, ops::bbox::inputAsFloat(context, kBoxes));
  // float16 data gets looser singularity tolerances, as in the reference.
  const float tolerance =
      context.inputType(kHeatmap) == OperandType::TENSOR_FLOAT16 ? 1e-3f : 1e-5f;
  const auto size = static_cast<int32_t>(g.size);
  std::vector<float> scores(static_cast<size_t>(g.boxes) * g.keypoints);
  std::vector<float> keypoints(scores.size() * 2);
  for (uint32_t i = 0; i < g.boxes; ++i) {
    const float* box = &boxes[static_cast<size_t>(i) * ops::bbox::kBoxDim];
    ANNRT_CHECK(box[0] <= box[2] && box[1] <= box[3], "box {} is not a valid box", i);
    const float* map = &heatmap[static_cast<size_t>(i) * g.size * g.size * g.keypoints];
    auto at = [&](int32_t h, int32_t w, uint32_t j) {
      return map[(static_cast<size_t>(h) * g.size + static_cast<size_t>(w)) * g.keypoints + j];
    };
    for (uint32_t j = 0; j < g.keypoints; ++j) {
      int32_t maxIndex = 0;
      float maxScore = -FLT_MAX;
      for (int32_t k = 0; k < size * size; ++k) {
        const float value = at(k / size, k % size, j);
        if (maxScore < value) {
          maxScore = value;
          maxIndex = k;
        }
      }
      const int32_t maxH = maxIndex / size;
      const int32_t maxW = maxIndex % size;
      // The 3x3 neighbourhood, mirrored at the heatmap's edges.
      auto mirror = [&](int32_t x) { return x < 0 ? 1 : (x >= size ? size - 2 : x); };
      float grid[3][3];
      for (int32_t dh = -1; dh <= 1; ++dh) {
        for (int32_t dw = -1; dw <= 1; ++dw) {
          grid[dh + 1][dw + 1] = at(mirror(maxH + dh), mirror(maxW + dw), j);
        }
      }
      float delta[2] = {0.0f, 0.0f};
      float score = maxScore;
      refine(grid, tolerance, delta, &score);
      const size_t out = static_cast<size_t>(i) * g.keypoints + j;
      scores[out] = score;
      const float relativeX =
          (static_cast<float>(maxW) + delta[0] + 0.5f) / static_cast<float>(size);
      const float relativeY =
          (static_cast<float>(maxH) + delta[1] + 0.5f) / static_cast<float>(size);
      keypoints[out * 2] = relativeX * (box[2] - box[0]) + box[0];
      keypoints[out * 2 + 1] = relativeY * (box[3] - box[1]) + box[1];
    }
  }
  ANNRT_RETURN_IF_ERROR(ops::bbox::storeFloat(scores, context, kOutScores));
  return ops::bbox::storeFloat(keypoints, context, kOutKeypoints);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::HEATMAP_MAX_KEYPOINT,
     .name = "HEATMAP_MAX_KEYPOINT",
     .validate = validate,
     .prepare = prepare,
     .execute = execute,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::heatmap
