// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D, MAX_POOL_2D (float32 and quant8 since level 1, float16
// since level 3, quant8 signed since level 4) and L2_POOL_2D (float only), with
// explicit (10 inputs) or implicit (7 inputs) padding, an optional trailing
// NCHW layout flag (level 3), and a fused activation. Windows only cover real
// input elements: padding never counts in an average, a max or an L2 norm.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/pooling_common.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::pooling {
namespace {

enum class PoolKind { AVERAGE, L2, MAX };

constexpr uint32_t kInput = 0;

bool hasExplicitPadding(uint32_t inputCount) {
  return inputCount >= 10;
}
bool hasLayout(uint32_t inputCount) {
  return inputCount == 8 || inputCount == 11;
}

Result<void> validate(const ValidationContext& context, PoolKind kind) {
  const uint32_t count = context.inputCount();
  ANNRT_CHECK(count == 7 || count == 8 || count == 10 || count == 11,
              "expected 7, 8, 10 or 11 inputs, got {}", count);
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(kInput);
  if (kind == PoolKind::L2) {
    ANNRT_RETURN_IF_ERROR(
        validateTypeIn(type, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16}, "input"));
  } else {
    ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypes, "input"));
  }
  for (uint32_t i = 1; i < count; ++i) {
    const OperandType expected =
        hasLayout(count) && i == count - 1 ? OperandType::BOOL : OperandType::INT32;
    ANNRT_CHECK(context.inputType(i) == expected, "input {} has type {}, expected {}", i,
                operandTypeName(context.inputType(i)), operandTypeName(expected));
  }
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  const Shape& input = context.inputShape(kInput);
  ANNRT_RETURN_IF_ERROR(validateSameQuantization(input, context.outputShape(0)));
  return validateRank(input, 4, "input");
}

struct PoolParams {
  conv::ImageDims input;
  Padding width;
  Padding height;
  uint32_t strideWidth = 1;
  uint32_t strideHeight = 1;
  uint32_t filterWidth = 1;
  uint32_t filterHeight = 1;
  FusedActivation activation = FusedActivation::NONE;
  bool nchw = false;
};

Result<void> checkPositive(int32_t value, const char* what) {
  ANNRT_CHECK(value > 0, "{} must be positive, got {}", what, value);
  return {};
}

// Padding must be non-negative and smaller than the filter, so that every
// window overlaps the input.
Result<Padding> checkedPadding(int32_t head, int32_t tail, uint32_t filter, const char* what) {
  ANNRT_CHECK(head >= 0 && tail >= 0 && static_cast<uint32_t>(head) < filter &&
                  static_cast<uint32_t>(tail) < filter,
              "{} padding ({}, {}) must be in [0, filter size {})", what, head, tail, filter);
  return Padding{static_cast<uint32_t>(head), static_cast<uint32_t>(tail)};
}

Result<PoolParams> readParams(const ExecutionContext& context) {
  const uint32_t count = context.inputCount();
  PoolParams p;
  p.nchw = hasLayout(count) && isNchw(context, count - 1);
  ANNRT_ASSIGN_OR_RETURN(p.input, batchOnlyEmptyImage(context.inputShape(kInput), p.nchw));
  // Explicit: paddings l, r, t, b at 1..4, then the common scalars at 5..9;
  // implicit: the padding scheme at 1, then the common scalars at 2..6.
  const uint32_t first = hasExplicitPadding(count) ? 5 : 2;
  const int32_t strideW = context.scalar<int32_t>(first);
  const int32_t strideH = context.scalar<int32_t>(first + 1);
  const int32_t filterW = context.scalar<int32_t>(first + 2);
  const int32_t filterH = context.scalar<int32_t>(first + 3);
  ANNRT_RETURN_IF_ERROR(checkPositive(strideW, "stride width"));
  ANNRT_RETURN_IF_ERROR(checkPositive(strideH, "stride height"));
  ANNRT_RETURN_IF_ERROR(checkPositive(filterW, "filter width"));
  ANNRT_RETURN_IF_ERROR(checkPositive(filterH, "filter height"));
  p.strideWidth = strideW;
  p.strideHeight = strideH;
  p.filterWidth = filterW;
  p.filterHeight = filterH;
  ANNRT_ASSIGN_OR_RETURN(p.activation, toFusedActivation(context.scalar<int32_t>(first + 4)));
  if (hasExplicitPadding(count)) {
    ANNRT_ASSIGN_OR_RETURN(p.width,
                           checkedPadding(context.scalar<int32_t>(1), context.scalar<int32_t>(2),
                                          p.filterWidth, "width"));
    ANNRT_ASSIGN_OR_RETURN(p.height,
                           checkedPadding(context.scalar<int32_t>(3), context.scalar<int32_t>(4),
                                          p.filterHeight, "height"));
  } else {
    const int32_t scheme = context.scalar<int32_t>(1);
    ANNRT_ASSIGN_OR_RETURN(p.width,
                           implicitPadding(scheme, p.input.width, p.strideWidth, 1, p.filterWidth));
    ANNRT_ASSIGN_OR_RETURN(
        p.height, implicitPadding(scheme, p.input.height, p.strideHeight, 1, p.filterHeight));
  }
  return p;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const PoolParams p, readParams(context));
  conv::ImageDims out = p.input;
  ANNRT_ASSIGN_OR_RETURN(
      out.height, windowOutputSize(p.input.height, p.filterHeight, p.strideHeight, 1, p.height));
  ANNRT_ASSIGN_OR_RETURN(out.width,
                         windowOutputSize(p.input.width, p.filterWidth, p.strideWidth, 1, p.width));
  Shape output = context.outputShape(0);
  output.dims = conv::toLayout(out, p.nchw);
  return context.setOutputShape(0, output);
}

// Float types pool in float; quantized ones on the raw values (input and
// output share scale and zero point, so no requantization is needed), in 64
// bits so that no window size can overflow.
template <typename T>
using PoolValue = std::conditional_t<kComputesInFloat<T>, float, int64_t>;

// Accumulates one window and turns it into an output value.
template <typename T, PoolKind kKind>
struct Window {
  using Acc = PoolValue<T>;
  Acc acc = kKind == PoolKind::MAX ? std::numeric_limits<Acc>::lowest() : Acc{0};

  void add(T value) {
    const Acc v = static_cast<Acc>(value);
    if constexpr (kKind == PoolKind::MAX) {
      acc = std::max(acc, v);
    } else if constexpr (kKind == PoolKind::L2) {
      acc += v * v;
    } else {
      acc += v;
    }
  }

  Acc result(int64_t count) const {
    if constexpr (kKind == PoolKind::MAX) {
      return acc;
    } else if constexpr (kKind == PoolKind::L2) {
      return std::sqrt(acc / static_cast<float>(count));
    } else if constexpr (kComputesInFloat<T>) {
      return acc / static_cast<float>(count);
    } else {
      // Rounded to nearest, halves away from zero.
      return acc >= 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
    }
  }
};

// The fused activation's range on output values.
template <typename T>
struct Clamp {
  PoolValue<T> lo, hi;
};

template <typename T>
Clamp<T> activationClamp(FusedActivation activation, const Shape& output) {
  if constexpr (kComputesInFloat<T>) {
    Clamp<T> c;
    activationRangeFloat(activation, &c.lo, &c.hi);
    return c;
  } else {
    int32_t lo = 0;
    int32_t hi = 0;
    activationRange(activation, output, &lo, &hi);
    return {lo, hi};
  }
}

template <typename T, PoolKind kKind>
void poolNhwc(const T* in, const std::vector<uint32_t>& inDims, T* out,
              const std::vector<uint32_t>& outDims, const PoolParams& p, Clamp<T> clamp) {
  const int64_t inH = inDims[1], inW = inDims[2], channels = inDims[3];
  for (uint32_t b = 0; b < outDims[0]; ++b) {
    for (uint32_t oy = 0; oy < outDims[1]; ++oy) {
      const int64_t y0 = static_cast<int64_t>(oy) * p.strideHeight - p.height.head;
      const int64_t yBegin = std::max<int64_t>(y0, 0);
      const int64_t yEnd = std::min<int64_t>(y0 + p.filterHeight, inH);
      for (uint32_t ox = 0; ox < outDims[2]; ++ox) {
        const int64_t x0 = static_cast<int64_t>(ox) * p.strideWidth - p.width.head;
        const int64_t xBegin = std::max<int64_t>(x0, 0);
        const int64_t xEnd = std::min<int64_t>(x0 + p.filterWidth, inW);
        const int64_t count = std::max<int64_t>(0, (yEnd - yBegin) * (xEnd - xBegin));
        for (int64_t c = 0; c < channels; ++c) {
          Window<T, kKind> window;
          for (int64_t y = yBegin; y < yEnd; ++y) {
            for (int64_t x = xBegin; x < xEnd; ++x) {
              window.add(in[((b * inH + y) * inW + x) * channels + c]);
            }
          }
          const PoolValue<T> value = count > 0 ? window.result(count) : PoolValue<T>{0};
          *out++ = static_cast<T>(std::clamp(value, clamp.lo, clamp.hi));
        }
      }
    }
  }
}

template <PoolKind kKind>
Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const PoolParams p, readParams(context));
  const Shape& input = context.inputShape(kInput);
  const Shape& output = context.outputShape(0);
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      input.type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        const Clamp<T> clamp = activationClamp<T>(p.activation, output);
        runInNhwc(p.nchw, context.input<T>(kInput), input.dims, context.output<T>(0), output.dims,
                  [&](const T* in, const auto& inDims, T* out, const auto& outDims) {
                    poolNhwc<T, kKind>(in, inDims, out, outDims, p, clamp);
                  });
        return {};
      });
}

template <PoolKind kKind>
Result<void> validateKind(const ValidationContext& context) {
  return validate(context, kKind);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::AVERAGE_POOL_2D,
     .name = "AVERAGE_POOL_2D",
     .validate = validateKind<PoolKind::AVERAGE>,
     .prepare = prepare,
     .execute = execute<PoolKind::AVERAGE>,
     .allowZeroSizedInput = true},
    {.type = OperationType::L2_POOL_2D,
     .name = "L2_POOL_2D",
     .validate = validateKind<PoolKind::L2>,
     .prepare = prepare,
     .execute = execute<PoolKind::L2>,
     .allowZeroSizedInput = true},
    {.type = OperationType::MAX_POOL_2D,
     .name = "MAX_POOL_2D",
     .validate = validateKind<PoolKind::MAX>,
     .prepare = prepare,
     .execute = execute<PoolKind::MAX>,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::pooling
