// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR (level 1; float16, quant8, output scale factors and the
// layout flag since level 3) and RESIZE_NEAREST_NEIGHBOR (level 3), with the
// align_corners and half_pixel_centers flags of level 4. The output size is
// given either as INT32 width/height or as float width/height scale factors
// (output size = floor(input size * scale)). Quantized data is interpolated on
// the raw values: input and output share scale and zero point.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/pooling_common.h"
#include "ops/util/resize_sampling.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::resize {
namespace {

enum class ResizeKind { BILINEAR, NEAREST };

constexpr uint32_t kInput = 0;
constexpr uint32_t kOutputWidth = 1;
constexpr uint32_t kOutputHeight = 2;
constexpr uint32_t kLayout = 3;
constexpr uint32_t kAlignCorners = 4;
constexpr uint32_t kHalfPixelCenters = 5;

Result<void> validateSizeType(OperandType tensorType, OperandType sizeType) {
  if (sizeType == OperandType::INT32) return {};
  const OperandType scaleType =
      tensorType == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  ANNRT_CHECK(sizeType == scaleType, "output size has type {}, expected INT32 or {}",
              operandTypeName(sizeType), operandTypeName(scaleType));
  return {};
}

template <ResizeKind kKind>
Result<void> validate(const ValidationContext& context) {
  // The layout flag is optional for bilinear only.
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, kKind == ResizeKind::BILINEAR ? 3 : 4, 6));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(kInput);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypes, "input"));
  const OperandType sizeType = context.inputType(kOutputHeight);
  ANNRT_RETURN_IF_ERROR(validateSizeType(type, sizeType));
  ANNRT_CHECK(context.inputType(kOutputWidth) == sizeType,
              "output width has type {}, output height {}",
              operandTypeName(context.inputType(kOutputWidth)), operandTypeName(sizeType));
  for (uint32_t i = kLayout; i < context.inputCount(); ++i) {
    ANNRT_CHECK(context.inputType(i) == OperandType::BOOL, "input {} has type {}, expected BOOL", i,
                operandTypeName(context.inputType(i)));
  }
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  const Shape& input = context.inputShape(kInput);
  ANNRT_RETURN_IF_ERROR(validateSameQuantization(input, context.outputShape(0)));
  return validateRank(input, 4, "input");
}

struct ResizeParams {
  bool nchw = false;
  bool alignCorners = false;
  bool halfPixelCenters = false;
};

ResizeParams readParams(const ExecutionContext& context) {
  auto flag = [&](uint32_t index) {
    return context.inputCount() > index && context.scalar<uint8_t>(index) != 0;
  };
  return {flag(kLayout), flag(kAlignCorners), flag(kHalfPixelCenters)};
}

// The output size along one axis from an INT32 size or a float scale factor.
Result<uint32_t> outputSize(const ExecutionContext& context, uint32_t index, uint32_t inSize) {
  double size = 0;
  switch (context.inputType(index)) {
    case OperandType::INT32: size = context.scalar<int32_t>(index); break;
    case OperandType::FLOAT16:
      size = std::floor(static_cast<float>(inSize) *
                        static_cast<float>(context.scalar<Float16>(index)));
      break;
    default: size = std::floor(static_cast<float>(inSize) * context.scalar<float>(index)); break;
  }
  ANNRT_CHECK(size > 0 && size <= std::numeric_limits<int32_t>::max(),
              "output size {} is not in [1, 2^31 - 1]", size);
  return static_cast<uint32_t>(size);
}

Result<void> prepare(ExecutionContext& context) {
  const ResizeParams p = readParams(context);
  ANNRT_CHECK(!(p.alignCorners && p.halfPixelCenters),
              "align_corners and half_pixel_centers cannot both be set");
  ANNRT_ASSIGN_OR_RETURN(const conv::ImageDims in,
                         batchOnlyEmptyImage(context.inputShape(kInput), p.nchw));
  conv::ImageDims out = in;
  ANNRT_ASSIGN_OR_RETURN(out.height, outputSize(context, kOutputHeight, in.height));
  ANNRT_ASSIGN_OR_RETURN(out.width, outputSize(context, kOutputWidth, in.width));
  Shape output = context.outputShape(0);
  output.dims = conv::toLayout(out, p.nchw);
  return context.setOutputShape(0, output);
}

uint32_t nearestIndex(uint32_t i, float scale, uint32_t inSize, const ResizeParams& p) {
  const float position = sourcePosition(i, scale, p.halfPixelCenters);
  const float rounded = p.alignCorners ? std::round(position) : std::floor(position);
  return static_cast<uint32_t>(std::clamp<float>(rounded, 0.0f, static_cast<float>(inSize - 1)));
}

// Output (b, y, x) as a function `sample(c)` of the channel, for every pixel.
template <typename T, typename PixelFn>
void forEachOutputPixel(const std::vector<uint32_t>& outDims, T* out, PixelFn&& pixel) {
  for (uint32_t b = 0; b < outDims[0]; ++b) {
    for (uint32_t y = 0; y < outDims[1]; ++y) {
      for (uint32_t x = 0; x < outDims[2]; ++x) {
        pixel(b, y, x, out);
        out += outDims[3];
      }
    }
  }
}

template <typename T>
void nearestNhwc(const T* in, const std::vector<uint32_t>& inDims, T* out,
                 const std::vector<uint32_t>& outDims, const ResizeParams& p) {
  const uint32_t inH = inDims[1], inW = inDims[2], channels = inDims[3];
  const float scaleY = resizeScale(inH, outDims[1], p.alignCorners);
  const float scaleX = resizeScale(inW, outDims[2], p.alignCorners);
  forEachOutputPixel(outDims, out, [&](uint32_t b, uint32_t y, uint32_t x, T* pixel) {
    const uint32_t iy = nearestIndex(y, scaleY, inH, p);
    const uint32_t ix = nearestIndex(x, scaleX, inW, p);
    std::copy_n(in + ((static_cast<size_t>(b) * inH + iy) * inW + ix) * channels, channels, pixel);
  });
}

template <typename T>
void bilinearNhwc(const T* in, const std::vector<uint32_t>& inDims, T* out,
                  const std::vector<uint32_t>& outDims, const ResizeParams& p) {
  const uint32_t inH = inDims[1], inW = inDims[2], channels = inDims[3];
  const float scaleY = resizeScale(inH, outDims[1], p.alignCorners);
  const float scaleX = resizeScale(inW, outDims[2], p.alignCorners);
  // Integer results round to nearest (then truncate toward zero, as the reference).
  const float roundingOffset = kComputesInFloat<T> ? 0.0f : 0.5f;
  forEachOutputPixel(outDims, out, [&](uint32_t b, uint32_t y, uint32_t x, T* pixel) {
    const Interpolation iy = interpolation(y, scaleY, inH, p.halfPixelCenters);
    const Interpolation ix = interpolation(x, scaleX, inW, p.halfPixelCenters);
    const float dy = iy.position - static_cast<float>(iy.lower);
    const float dx = ix.position - static_cast<float>(ix.lower);
    auto at = [&](uint32_t yy, uint32_t xx, uint32_t c) {
      return static_cast<float>(
          in[((static_cast<size_t>(b) * inH + yy) * inW + xx) * channels + c]);
    };
    for (uint32_t c = 0; c < channels; ++c) {
      const float value = at(iy.lower, ix.lower, c) * (1 - dy) * (1 - dx) +
                          at(iy.upper, ix.lower, c) * dy * (1 - dx) +
                          at(iy.lower, ix.upper, c) * (1 - dy) * dx +
                          at(iy.upper, ix.upper, c) * dy * dx + roundingOffset;
      if constexpr (kComputesInFloat<T>) {
        pixel[c] = static_cast<T>(value);
      } else {
        pixel[c] = static_cast<T>(std::clamp(std::trunc(value),
                                             static_cast<float>(std::numeric_limits<T>::min()),
                                             static_cast<float>(std::numeric_limits<T>::max())));
      }
    }
  });
}

template <ResizeKind kKind>
Result<void> execute(ExecutionContext& context) {
  const ResizeParams p = readParams(context);
  const Shape& input = context.inputShape(kInput);
  const Shape& output = context.outputShape(0);
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      input.type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        runInNhwc(p.nchw, context.input<T>(kInput), input.dims, context.output<T>(0), output.dims,
                  [&](const T* in, const auto& inDims, T* out, const auto& outDims) {
                    if constexpr (kKind == ResizeKind::BILINEAR) {
                      bilinearNhwc(in, inDims, out, outDims, p);
                    } else {
                      nearestNhwc(in, inDims, out, outDims, p);
                    }
                  });
        return {};
      });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::RESIZE_BILINEAR,
     .name = "RESIZE_BILINEAR",
     .validate = validate<ResizeKind::BILINEAR>,
     .prepare = prepare,
     .execute = execute<ResizeKind::BILINEAR>,
     .allowZeroSizedInput = true},
    {.type = OperationType::RESIZE_NEAREST_NEIGHBOR,
     .name = "RESIZE_NEAREST_NEIGHBOR",
     .validate = validate<ResizeKind::NEAREST>,
     .prepare = prepare,
     .execute = execute<ResizeKind::NEAREST>,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::resize
