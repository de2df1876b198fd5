// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ROI_ALIGN and ROI_POOLING (level 3; quant8 signed since level 4): one fixed
// size feature map per region of interest, cut from the image its batch index
// names, with the NCHW layout flag. Boxes are (x1, y1, x2, y2) in image
// coordinates, mapped onto the feature map by 1 / stride.
//  * ROI_ALIGN averages bilinear samples on a regular grid in each output bin
//    (sampling_ratio samples per bin side, or ceil(bin size) when 0). Quantized
//    data uses the reference's integer path: weights in steps of 1/255, the
//    sum requantized with one fixed-point multiplier.
//  * ROI_POOLING takes the maximum over each bin of the rounded box, so
//    quantized outputs keep the input's scale and zero point.
// Only the number of boxes may be zero.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/bbox.h"
#include "ops/util/broadcast_kernel.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/pooling_common.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::roi {
namespace {

using ops::bbox::kBoxDim;

enum class RoiKind { ALIGN, POOLING };

constexpr uint32_t kInput = 0;
constexpr uint32_t kRois = 1;
constexpr uint32_t kBatches = 2;
constexpr uint32_t kOutputHeight = 3;
constexpr uint32_t kOutputWidth = 4;
constexpr uint32_t kHeightStride = 5;
constexpr uint32_t kWidthStride = 6;
constexpr uint32_t kHeightSamplingRatio = 7;
constexpr uint32_t kWidthSamplingRatio = 8;

constexpr uint32_t layoutIndex(RoiKind kind) {
  return kind == RoiKind::ALIGN ? 9 : 7;
}

template <RoiKind kKind>
Result<void> validate(const ValidationContext& context) {
  const OperandType type = context.inputType(kInput);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(type,
                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                      OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                     "input"));
  const bool quantized = isQuant8Tensor(type);
  const OperandType boxType = quantized ? OperandType::TENSOR_QUANT16_ASYMM : type;
  const OperandType scalar = ops::bbox::floatScalarType(type);
  if constexpr (kKind == RoiKind::ALIGN) {
    ANNRT_RETURN_IF_ERROR(ops::bbox::validateSignature(
        context,
        {type, boxType, OperandType::TENSOR_INT32, OperandType::INT32, OperandType::INT32, scalar,
         scalar, OperandType::INT32, OperandType::INT32, OperandType::BOOL},
        {type}));
  } else {
    ANNRT_RETURN_IF_ERROR(
        ops::bbox::validateSignature(context,
                                     {type, boxType, OperandType::TENSOR_INT32, OperandType::INT32,
                                      OperandType::INT32, scalar, scalar, OperandType::BOOL},
                                     {type}));
    const Shape& input = context.inputShape(kInput);
    const Shape& output = context.outputShape(0);
    ANNRT_CHECK(!quantized || (input.scale == output.scale && input.zeroPoint == output.zeroPoint),
                "output scale and zero point ({}, {}) must equal the input's ({}, {})",
                output.scale, output.zeroPoint, input.scale, input.zeroPoint);
  }
  ANNRT_RETURN_IF_ERROR(ops::bbox::validateBoxQuantization(context.inputShape(kRois), "roi"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kInput), 4, "input"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kRois), 2, "roi"));
  return validateRank(context.inputShape(kBatches), 1, "batch index");
}

struct Params {
  bool nchw = false;
  uint32_t batches = 0, height = 0, width = 0, depth = 0;  // of the input
  uint32_t numRois = 0;
  uint32_t outHeight = 0, outWidth = 0;
  float heightScale = 0, widthScale = 0;  // 1 / stride
  uint32_t heightSamplingRatio = 0, widthSamplingRatio = 0;
};

template <RoiKind kKind>
Result<Params> readParams(const ExecutionContext& context) {
  const Shape& input = context.inputShape(kInput);
  const Shape& rois = context.inputShape(kRois);
  const Shape& batches = context.inputShape(kBatches);
  ANNRT_CHECK(rank(input) == 4 && rank(rois) == 2 && rank(batches) == 1,
              "input, roi and batch index must have ranks 4, 2, 1");
  Params p;
  p.nchw = (context.scalar<uint8_t>(layoutIndex(kKind)) != 0);
  p.batches = input.dims[0];
  p.height = input.dims[p.nchw ? 2 : 1];
  p.width = input.dims[p.nchw ? 3 : 2];
  p.depth = input.dims[p.nchw ? 1 : 3];
  ANNRT_CHECK(p.batches > 0 && p.height > 0 && p.width > 0 && p.depth > 0,
              "only the number of boxes may be zero, input is {}", toString(input.dims));
  p.numRois = rois.dims[0];
  ANNRT_CHECK(rois.dims[1] == kBoxDim, "roi must be [num_rois, 4], got {}", toString(rois.dims));
  ANNRT_CHECK(batches.dims[0] == p.numRois, "batch index must be [{}], got {}", p.numRois,
              toString(batches.dims));
  const int32_t outHeight = context.scalar<int32_t>(kOutputHeight);
  const int32_t outWidth = context.scalar<int32_t>(kOutputWidth);
  ANNRT_CHECK(outHeight > 0 && outWidth > 0, "output size {}x{} must be positive", outHeight,
              outWidth);
  p.outHeight = static_cast<uint32_t>(outHeight);
  p.outWidth = static_cast<uint32_t>(outWidth);
  const float heightStride = ops::bbox::floatScalar(context, kHeightStride);
  const float widthStride = ops::bbox::floatScalar(context, kWidthStride);
  ANNRT_CHECK(heightStride > 0 && widthStride > 0, "strides {} and {} must be positive",
              heightStride, widthStride);
  p.heightScale = 1.0f / heightStride;
  p.widthScale = 1.0f / widthStride;
  if constexpr (kKind == RoiKind::ALIGN) {
    const int32_t heightRatio = context.scalar<int32_t>(kHeightSamplingRatio);
    const int32_t widthRatio = context.scalar<int32_t>(kWidthSamplingRatio);
    ANNRT_CHECK(heightRatio >= 0 && widthRatio >= 0, "sampling ratios {} and {} must be >= 0",
                heightRatio, widthRatio);
    p.heightSamplingRatio = static_cast<uint32_t>(heightRatio);
    p.widthSamplingRatio = static_cast<uint32_t>(widthRatio);
  }
  return p;
}

template <RoiKind kKind>
Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Params p, readParams<kKind>(context));
  Shape output = context.outputShape(0);
  output.dims = p.nchw ? std::vector<uint32_t>{p.numRois, p.depth, p.outHeight, p.outWidth}
                       : std::vector<uint32_t>{p.numRois, p.outHeight, p.outWidth, p.depth};
  return context.setOutputShape(0, output);
}

// The boxes in feature map coordinates, after checking each lies within the
// map and belongs to an existing batch.
struct FeatureBox {
  uint32_t batch;
  float x1, y1, x2, y2;
};

Result<std::vector<FeatureBox>> featureBoxes(const ExecutionContext& context, const Params& p) {
  ANNRT_ASSIGN_OR_RETURN(const std::vector<float> rois, ops::bbox::inputAsFloat(context, kRois));
  const int32_t* batches = context.input<int32_t>(kBatches);
  std::vector<FeatureBox> boxes(p.numRois);
  for (uint32_t i = 0; i < p.numRois; ++i) {
    const float* roi = &rois[static_cast<size_t>(i) * kBoxDim];
    const int32_t batch = batches[i];
    ANNRT_CHECK(batch >= 0 && static_cast<uint32_t>(batch) < p.batches,
                "roi {} has batch index {}, expected [0, {})", i, batch, p.batches);
    FeatureBox& box = boxes[i];
    box = {static_cast<uint32_t>(batch), roi[0] * p.widthScale, roi[1] * p.heightScale,
           roi[2] * p.widthScale, roi[3] * p.heightScale};
    const auto width = static_cast<float>(p.width);
    const auto height = static_cast<float>(p.height);
    ANNRT_CHECK(roi[0] >= 0 && roi[1] >= 0 && roi[2] >= 0 && roi[3] >= 0 && box.x1 <= width &&
                    box.x2 <= width && box.y1 <= height && box.y2 <= height && roi[0] <= roi[2] &&
                    roi[1] <= roi[3],
                "roi {} ({}, {}, {}, {}) is not a box within the {}x{} feature map", i, roi[0],
                roi[1], roi[2], roi[3], p.height, p.width);
  }
  return boxes;
}

// ROI_ALIGN: the bilinear samples of one output bin. `sample(offsets, weights)`
// receives the four neighbouring pixels (as y * width + x) and their weights.
struct AlignGrid {
  float x1, y1;      // box start
  float binW, binH;  // bin size
  uint32_t samplesW, samplesH;
};

AlignGrid alignGrid(const FeatureBox& box, const Params& p) {
  const float roiWidth = std::max(box.x2 - box.x1, 1.0f);
  const float roiHeight = std::max(box.y2 - box.y1, 1.0f);
  const float binW = roiWidth / static_cast<float>(p.outWidth);
  const float binH = roiHeight / static_cast<float>(p.outHeight);
  return {
      box.x1,
      box.y1,
      binW,
      binH,
      p.widthSamplingRatio > 0 ? p.widthSamplingRatio : static_cast<uint32_t>(std::ceil(binW)),
      p.heightSamplingRatio > 0 ? p.heightSamplingRatio : static_cast<uint32_t>(std::ceil(binH))};
}

// One bilinear tap position along an axis: the lower pixel, the upper one and
// the weight of the upper one.
struct Tap {
  uint32_t lower, upper;
  float fraction;
};

Tap tap(float position, uint32_t size) {
  const auto lower = static_cast<uint32_t>(std::floor(position));
  if (lower >= size - 1) return {size - 1, size - 1, 0.0f};
  return {lower, lower + 1, position - static_cast<float>(lower)};
}

template <typename Sample>
void forEachSample(const AlignGrid& g, uint32_t i, uint32_t j, const Params& p, Sample&& sample) {
  const float hStart = g.binH * static_cast<float>(i) + g.y1;
  const float wStart = g.binW * static_cast<float>(j) + g.x1;
  const float stepH = g.binH / static_cast<float>(g.samplesH);
  const float stepW = g.binW / static_cast<float>(g.samplesW);
  for (uint32_t yi = 0; yi < g.samplesH; ++yi) {
    const Tap y = tap(hStart + stepH / 2 + stepH * static_cast<float>(yi), p.height);
    for (uint32_t xi = 0; xi < g.samplesW; ++xi) {
      const Tap x = tap(wStart + stepW / 2 + stepW * static_cast<float>(xi), p.width);
      const float dx1 = x.fraction, dy1 = y.fraction;
      const float dx2 = 1.0f - dx1, dy2 = 1.0f - dy1;
      const size_t offsets[] = {static_cast<size_t>(y.lower) * p.width + x.lower,
                                static_cast<size_t>(y.lower) * p.width + x.upper,
                                static_cast<size_t>(y.upper) * p.width + x.lower,
                                static_cast<size_t>(y.upper) * p.width + x.upper};
      const float weights[] = {dx2 * dy2, dx1 * dy2, dx2 * dy1, dx1 * dy1};
      sample(offsets, weights);
    }
  }
}

// Runs `bin(grid, box, i, j, batchBase, out)` for every output bin of every box
// on NHWC data.
template <typename T, typename Bin>
void forEachBin(const std::vector<FeatureBox>& boxes, const Params& p, const T* in, T* out,
                Bin&& bin) {
  const size_t imageSize = static_cast<size_t>(p.height) * p.width * p.depth;
  for (const FeatureBox& box : boxes) {
    const T* image = in + box.batch * imageSize;
    for (uint32_t i = 0; i < p.outHeight; ++i) {
      for (uint32_t j = 0; j < p.outWidth; ++j) {
        bin(box, i, j, image, out);
        out += p.depth;
      }
    }
  }
}

template <typename T>
void roiAlignNhwc(const std::vector<FeatureBox>& boxes, const Params& p, const Shape& input,
                  const Shape& output, const T* in, T* out) {
  std::vector<float> sums(p.depth);
  std::vector<int32_t> quantSums(p.depth);
  forEachBin(boxes, p, in, out,
             [&](const FeatureBox& box, uint32_t i, uint32_t j, const T* image, T* pixel) {
               const AlignGrid g = alignGrid(box, p);
               const auto samples = static_cast<int32_t>(g.samplesW * g.samplesH);
               if constexpr (kComputesInFloat<T>) {
                 std::fill(sums.begin(), sums.end(), 0.0f);
                 forEachSample(g, i, j, p, [&](const size_t* offsets, const float* weights) {
                   for (uint32_t k = 0; k < p.depth; ++k) {
                     float value = 0;
                     for (int c = 0; c < 4; ++c) {
                       value += weights[c] * static_cast<float>(image[offsets[c] * p.depth + k]);
                     }
                     sums[k] += value;
                   }
                 });
                 for (uint32_t k = 0; k < p.depth; ++k) {
                   pixel[k] = static_cast<T>(sums[k] / static_cast<float>(samples));
                 }
               } else {
                 // Weights are quantized to multiples of 1/255.
                 constexpr float kWeightScale = 1.0f / 255.0f;
                 const float real =
                     input.scale * kWeightScale / output.scale / static_cast<float>(samples);
                 const QuantizedMultiplier multiplier = quantizeMultiplier(real);
                 std::fill(quantSums.begin(), quantSums.end(), 0);
                 forEachSample(g, i, j, p, [&](const size_t* offsets, const float* weights) {
                   for (uint32_t k = 0; k < p.depth; ++k) {
                     int32_t value = 0;
                     for (int c = 0; c < 4; ++c) {
                       const auto w = static_cast<int32_t>(std::round(weights[c] / kWeightScale));
                       value += w * (static_cast<int32_t>(image[offsets[c] * p.depth + k]) -
                                     input.zeroPoint);
                     }
                     quantSums[k] += value;
                   }
                 });
                 for (uint32_t k = 0; k < p.depth; ++k) {
                   pixel[k] = saturateCast<T>(
                       multiplyByQuantizedMultiplier(quantSums[k], multiplier) + output.zeroPoint);
                 }
               }
             });
}

template <typename T>
void roiPoolingNhwc(const std::vector<FeatureBox>& boxes, const Params& p, const Shape& input,
                    const T* in, T* out) {
  forEachBin(
      boxes, p, in, out,
      [&](const FeatureBox& box, uint32_t i, uint32_t j, const T* image, T* pixel) {
        const auto x1 = static_cast<int32_t>(std::round(box.x1));
        const auto y1 = static_cast<int32_t>(std::round(box.y1));
        const auto x2 = static_cast<int32_t>(std::round(box.x2));
        const auto y2 = static_cast<int32_t>(std::round(box.y2));
        // Boxes narrower than one pixel count as one pixel.
        const auto roiWidth = static_cast<float>(std::max(x2 - x1 + 1, 1));
        const auto roiHeight = static_cast<float>(std::max(y2 - y1 + 1, 1));
        const float binW = roiWidth / static_cast<float>(p.outWidth);
        const float binH = roiHeight / static_cast<float>(p.outHeight);
        auto edge = [](float position, uint32_t size) {
          return std::min(static_cast<uint32_t>(position), size);
        };
        const uint32_t wStart =
            edge(std::floor(binW * static_cast<float>(j) + static_cast<float>(x1)), p.width);
        const uint32_t wEnd =
            edge(std::ceil(binW * static_cast<float>(j + 1) + static_cast<float>(x1)), p.width);
        const uint32_t hStart =
            edge(std::floor(binH * static_cast<float>(i) + static_cast<float>(y1)), p.height);
        const uint32_t hEnd =
            edge(std::ceil(binH * static_cast<float>(i + 1) + static_cast<float>(y1)), p.height);
        for (uint32_t k = 0; k < p.depth; ++k) {
          // An empty bin yields the zero point (0 for float data).
          T maxValue = static_cast<T>(input.zeroPoint);
          bool first = true;
          for (uint32_t h = hStart; h < hEnd; ++h) {
            for (uint32_t w = wStart; w < wEnd; ++w) {
              const T value = image[(static_cast<size_t>(h) * p.width + w) * p.depth + k];
              if (first || value > maxValue) {
                maxValue = value;
                first = false;
              }
            }
          }
          pixel[k] = maxValue;
        }
      });
}

template <RoiKind kKind>
Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const Params p, readParams<kKind>(context));
  ANNRT_ASSIGN_OR_RETURN(const std::vector<FeatureBox> boxes, featureBoxes(context, p));
  const Shape& input = context.inputShape(kInput);
  const Shape& output = context.outputShape(0);
  return visitElementType(input.type, [&](auto tag) -> Result<void> {
    using T = typename decltype(tag)::type;
    runInNhwc(p.nchw, context.input<T>(kInput), input.dims, context.output<T>(0), output.dims,
              [&](const T* in, const auto&, T* out, const auto&) {
                if constexpr (kKind == RoiKind::ALIGN) {
                  roiAlignNhwc(boxes, p, input, output, in, out);
                } else {
                  roiPoolingNhwc(boxes, p, input, in, out);
                }
              });
    return {};
  });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::ROI_ALIGN,
     .name = "ROI_ALIGN",
     .validate = validate<RoiKind::ALIGN>,
     .prepare = prepare<RoiKind::ALIGN>,
     .execute = execute<RoiKind::ALIGN>,
     .allowZeroSizedInput = true},
    {.type = OperationType::ROI_POOLING,
     .name = "ROI_POOLING",
     .validate = validate<RoiKind::POOLING>,
     .prepare = prepare<RoiKind::POOLING>,
     .execute = execute<RoiKind::POOLING>,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::roi
