// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Type conversions of one tensor into another of the same shape:
//  * QUANTIZE: float32/float16 -> quant8 / quant8 signed (levels 3 / 4),
//    round(x / scale) + zeroPoint, saturated.
//  * DEQUANTIZE: quant8 (level 1), quant8 symm, quant8 symm per-channel
//    (level 3) and quant8 signed (level 4) -> float32 (float16 since level 3),
//    scale * (q - zeroPoint) with the channel's scale for per-channel input.
//  * CAST: between float16, float32, int32 and quant8 (level 3), on raw
//    values (quantization parameters are ignored), truncating toward zero and
//    saturating to integer types; identity for bool8, quant8 signed, quant8
//    symm and quant16 (level 4).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"

namespace annrt::ops::families::conversions {
namespace {

constexpr OperandType kFloat32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kFloat16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kInt32 = OperandType::TENSOR_INT32;
constexpr OperandType kQuant8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQuant8Signed = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OperandType kQuant8Symm = OperandType::TENSOR_QUANT8_SYMM;
constexpr OperandType kQuant8PerChannel = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;

constexpr OperandType kFloatTypes[] = {kFloat32, kFloat16};

Result<void> prepare(ExecutionContext& context) {
  return prepareSameShape(context);
}

// QUANTIZE --------------------------------------------------------------------

constexpr OperandType kQuantizedTypes[] = {kQuant8, kQuant8Signed};

Result<void> validateQuantize(const ValidationContext& context) {
  return validateConversion(context, kFloatTypes, kQuantizedTypes);
}

Result<void> executeQuantize(ExecutionContext& context) {
  const Shape& output = context.outputShape(0);
  return dispatchOperandType<kFloat32, kFloat16>(context.inputType(0), [&](auto in) {
    using In = typename decltype(in)::type;
    return dispatchOperandType<kQuant8, kQuant8Signed>(output.type, [&](auto out) {
      using Out = typename decltype(out)::type;
      return mapTensor<In, Out>(context, [scale = output.scale, zero = output.zeroPoint](In x) {
        return quantizeSaturating<Out>(static_cast<float>(x), scale, zero);
      });
    });
  });
}

// DEQUANTIZE ------------------------------------------------------------------

constexpr OperandType kDequantizeInputTypes[] = {kQuant8, kQuant8Signed, kQuant8Symm,
                                                 kQuant8PerChannel};

Result<void> validateDequantize(const ValidationContext& context) {
  return validateConversion(context, kDequantizeInputTypes, kFloatTypes);
}

Result<void> prepareDequantize(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  if (input.type == kQuant8PerChannel) {
    const auto& channels = input.channelQuant;
    ANNRT_CHECK(channels.has_value(), "per-channel input has no channel quantization");
    ANNRT_CHECK(channels->channelDim < rank(input) &&
                    channels->scales.size() == input.dims[channels->channelDim],
                "{} scales along axis {} do not match input dims {}", channels->scales.size(),
                channels->channelDim, toString(input.dims));
  }
  return prepareSameShape(context);
}

// Per-channel scales: element i lies in channel (i / stride) % channels.
template <typename Out>
Result<void> dequantizePerChannel(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  ANNRT_CHECK(input.channelQuant.has_value(), "a per-channel input without its scales");
  const ChannelQuant& channels = *input.channelQuant;
  size_t stride = 1;
  for (size_t axis = channels.channelDim + 1; axis < input.dims.size(); ++axis) {
    stride *= input.dims[axis];
  }
  const size_t channelCount = input.dims[channels.channelDim];
  return mapTensor<int8_t, Out>(context, [&, index = size_t{0}](int8_t x) mutable {
    const float scale = channels.scales[(index++ / stride) % channelCount];
    return static_cast<Out>(scale * static_cast<float>(x - input.zeroPoint));
  });
}

Result<void> executeDequantize(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  return dispatchOperandType<kFloat32, kFloat16>(context.outputShape(0).type, [&](auto out) {
    using Out = typename decltype(out)::type;
    if (input.type == kQuant8PerChannel) return dequantizePerChannel<Out>(context);
    return dispatchOperandType<kQuant8, kQuant8Signed, kQuant8Symm>(input.type, [&](auto in) {
      using In = typename decltype(in)::type;
      return mapTensor<In, Out>(context, [scale = input.scale, zero = input.zeroPoint](In x) {
        return static_cast<Out>(dequantize(x, scale, zero));
      });
    });
  });
}

// CAST ------------------------------------------------------------------------

constexpr OperandType kCastTypes[] = {kFloat32, kFloat16, kInt32, kQuant8};
constexpr OperandType kIdentityCastTypes[] = {OperandType::TENSOR_BOOL8, kQuant8Signed, kQuant8Symm,
                                              OperandType::TENSOR_QUANT16_ASYMM,
                                              OperandType::TENSOR_QUANT16_SYMM};

Result<void> validateCast(const ValidationContext& context) {
  const OperandType input = context.inputType(0);
  const bool identity =
      std::ranges::find(kIdentityCastTypes, input) != std::end(kIdentityCastTypes);
  if (!identity) return validateConversion(context, kCastTypes, kCastTypes);
  return validateUnary(context, kIdentityCastTypes);
}

// A value converted as C++ would, except that conversions to integers
// saturate (and take NaN to 0) instead of being undefined out of range.
template <typename Out, typename In>
Out castElement(In x) {
  if constexpr (std::is_integral_v<Out>) {
    constexpr double kLow = std::numeric_limits<Out>::min();
    constexpr double kHigh = std::numeric_limits<Out>::max();
    const double value = static_cast<double>(x);
    if (std::isnan(value)) return 0;
    return static_cast<Out>(std::clamp(value, kLow, kHigh));
  } else {
    return static_cast<Out>(x);
  }
}

Result<void> executeCast(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  if (input.type == context.outputShape(0).type) {
    std::memcpy(context.outputData(0), context.inputData(0), byteSize(input));
    return {};
  }
  return dispatchOperandType<kFloat32, kFloat16, kInt32, kQuant8>(input.type, [&](auto in) {
    using In = typename decltype(in)::type;
    return dispatchOperandType<kFloat32, kFloat16, kInt32, kQuant8>(
        context.outputShape(0).type, [&](auto out) {
          using Out = typename decltype(out)::type;
          return mapTensor<In, Out>(context, castElement<Out, In>);
        });
  });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::QUANTIZE,
     .name = "QUANTIZE",
     .validate = validateQuantize,
     .prepare = prepare,
     .execute = executeQuantize,
     .allowZeroSizedInput = true},
    {.type = OperationType::DEQUANTIZE,
     .name = "DEQUANTIZE",
     .validate = validateDequantize,
     .prepare = prepareDequantize,
     .execute = executeDequantize,
     .allowZeroSizedInput = true},
    {.type = OperationType::CAST,
     .name = "CAST",
     .validate = validateCast,
     .prepare = prepare,
     .execute = executeCast,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::conversions
