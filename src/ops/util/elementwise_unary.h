// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The one kernel behind every element-wise unary operation (activations, math
// functions, type conversions): a per-element functor mapped over input 0 into
// output 0. Operations differ only in the functor they build, so the loop, the
// operand-type dispatch and the float/quantized lifting live here once.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "ops/operation.h"
#include "ops/util/quantization.h"

namespace annrt::ops {

// The C++ element type of each tensor operand type.
template <OperandType kType>
struct TensorElement;
template <>
struct TensorElement<OperandType::TENSOR_FLOAT32> {
  using type = float;
};
template <>
struct TensorElement<OperandType::TENSOR_FLOAT16> {
  using type = Float16;
};
template <>
struct TensorElement<OperandType::TENSOR_INT32> {
  using type = int32_t;
};
template <>
struct TensorElement<OperandType::TENSOR_QUANT8_ASYMM> {
  using type = uint8_t;
};
template <>
struct TensorElement<OperandType::TENSOR_QUANT8_ASYMM_SIGNED> {
  using type = int8_t;
};
template <>
struct TensorElement<OperandType::TENSOR_QUANT8_SYMM> {
  using type = int8_t;
};
template <>
struct TensorElement<OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL> {
  using type = int8_t;
};
template <>
struct TensorElement<OperandType::TENSOR_QUANT16_ASYMM> {
  using type = uint16_t;
};
template <>
struct TensorElement<OperandType::TENSOR_QUANT16_SYMM> {
  using type = int16_t;
};
template <>
struct TensorElement<OperandType::TENSOR_BOOL8> {
  using type = uint8_t;
};

// An operand type known at compile time, handed to dispatch visitors so that
// they can pick code per type with `if constexpr`.
template <OperandType kType>
struct TensorTag {
  static constexpr OperandType value = kType;
  using type = typename TensorElement<kType>::type;
};

// float and Float16 elements, which kernels compute on in float.
template <typename T>
inline constexpr bool kComputesInFloat = std::is_same_v<T, float> || std::is_same_v<T, Float16>;

// Calls visitor(TensorTag<t>{}) for the t among kTypes equal to `type`
// (BAD_DATA if none is): a runtime type becomes a compile-time one.
template <OperandType... kTypes, typename Visitor>
Result<void> dispatchOperandType(OperandType type, Visitor&& visitor) {
  Result<void> result =
      makeError(ErrorCode::BAD_DATA, "unsupported tensor type {}", operandTypeName(type));
  (void)((type == kTypes ? (result = visitor(TensorTag<kTypes>{}), true) : false) || ...);
  return result;
}

// The kernel: output 0 = op(each element of input 0), in element order (so
// `op` may keep state, such as a running index).
template <typename In, typename Out = In, typename Op>
Result<void> mapTensor(ExecutionContext& context, Op op) {
  const size_t count = elementCount(context.inputShape(0));
  const In* in = context.input<In>(0);
  Out* out = context.output<Out>(0);
  for (size_t i = 0; i < count; ++i) out[i] = op(in[i]);
  return {};
}

// A float function on a float32/float16 element: computed in float and
// rounded to T once.
template <typename T, typename Fn>
auto liftFloat(Fn fn) {
  return [fn](T x) { return static_cast<T>(fn(static_cast<float>(x))); };
}

// quantize<T>(), except that NaN (which cannot be clamped) saturates high, as
// the reference's min/max chain does.
template <typename T>
T quantizeSaturating(float value, float scale, int32_t zeroPoint) {
  if (std::isnan(value)) return std::numeric_limits<T>::max();
  return quantize<T>(value, scale, zeroPoint);
}

// A float function on a quantized element: dequantized with `in`'s
// parameters, computed in float, requantized with `out`'s.
template <typename T, typename Fn>
auto liftDequantized(Fn fn, const Shape& in, const Shape& out) {
  return [fn, inScale = in.scale, inZero = in.zeroPoint, outScale = out.scale,
          outZero = out.zeroPoint](T x) {
    return quantizeSaturating<T>(fn(dequantize(x, inScale, inZero)), outScale, outZero);
  };
}

// Maps a float function over a float32/float16 input 0.
template <typename Fn>
Result<void> mapFloatTensor(ExecutionContext& context, Fn fn) {
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16>(
      context.inputType(0), [&](auto tag) {
        using T = typename decltype(tag)::type;
        return mapTensor<T>(context, liftFloat<T>(fn));
      });
}

// The signature shared by unary operations: `inputCount` inputs, input 0 a
// tensor of one of `types` with rank at most `maxRank` (0: any rank), one
// output of the same type whose known dims agree with the input's.
Result<void> validateUnary(const ValidationContext& context, std::span<const OperandType> types,
                           uint32_t maxRank = 0, uint32_t inputCount = 1);

// The same for an operation whose output type may differ: input 0 of one of
// `inputTypes`, the output of one of `outputTypes`.
Result<void> validateConversion(const ValidationContext& context,
                                std::span<const OperandType> inputTypes,
                                std::span<const OperandType> outputTypes, uint32_t maxRank = 0,
                                uint32_t inputCount = 1);

// For a quantized output whose parameters the spec fixes.
Result<void> validateOutputQuantization(const ValidationContext& context, float scale,
                                        int32_t zeroPoint);

// Output 0 takes input 0's dims (rank at most `maxRank`, 0: any).
Result<void> prepareSameShape(ExecutionContext& context, uint32_t maxRank = 0);

}  // namespace annrt::ops
