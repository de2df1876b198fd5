// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The one broadcasting loop shared by the element-wise families (arithmetic,
// comparisons, logical, select, pow, prelu): a functor applied to the
// numpy-broadcast elements of N inputs, plus the matching shape checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/shape_helpers.h"

namespace annrt::ops {

// One input of a broadcast kernel.
template <typename T>
struct BroadcastOperand {
  const std::vector<uint32_t>& dims;
  const T* data;
};

// out[i] = fn(element of each input broadcast to coordinate i of outDims).
// The inputs' dims must broadcast to outDims (see broadcastDims).
template <typename Out, typename Fn, typename... In>
void broadcastApply(const std::vector<uint32_t>& outDims, Out* out, Fn&& fn,
                    BroadcastOperand<In>... inputs) {
  const size_t count = elementCount(outDims);
  if (((inputs.dims == outDims) && ...)) {
    // No input is stretched: a flat loop, which is also the common case.
    for (size_t i = 0; i < count; ++i) out[i] = static_cast<Out>(fn(inputs.data[i]...));
    return;
  }
  std::vector<uint32_t> coord(outDims.size(), 0);
  for (size_t i = 0; i < count; ++i) {
    out[i] = static_cast<Out>(fn(inputs.data[broadcastIndex(inputs.dims, coord)]...));
    nextCoordinate(outDims, coord);
  }
}

// The common two-input form: inputs 0 and 1 of `context` into output 0, whose
// shape prepare has already set.
template <typename In, typename Out, typename Fn>
void broadcastBinary(ExecutionContext& context, Fn&& fn) {
  broadcastApply(context.outputShape(0).dims, context.output<Out>(0), fn,
                 BroadcastOperand<In>{context.inputShape(0).dims, context.input<In>(0)},
                 BroadcastOperand<In>{context.inputShape(1).dims, context.input<In>(1)});
}

// Build-time check that two shapes can broadcast; unknown rank or unknown
// (0) dimensions pass.
Result<void> validateBroadcastable(const Shape& a, const Shape& b);

// The signature of a plain two-input broadcast op: inputs 0 and 1 of one type
// from `allowed`, one output of `outputType` (the input type when nullopt),
// broadcastable input shapes.
Result<void> validateBroadcastBinaryOp(const ValidationContext& context,
                                       std::initializer_list<OperandType> allowed,
                                       std::optional<OperandType> outputType = std::nullopt);

// prepare for a two-input broadcast op: output 0 gets the broadcast of the
// dims of inputs `a` and `b`, keeping its declared type and quantization.
Result<void> setBroadcastOutputShape(ExecutionContext& context, uint32_t a = 0, uint32_t b = 1);
// The same for inputs 0 and 1, usable as OperationRegistration::prepare.
Result<void> prepareBroadcastBinaryOp(ExecutionContext& context);

// Calls fn(std::type_identity<T>{}) with the element type of a tensor type
// (uint8_t for TENSOR_BOOL8). Types without a case here are passed as float:
// callers only use it on types their validate accepted.
template <typename Fn>
decltype(auto) visitElementType(OperandType type, Fn&& fn) {
  switch (type) {
    case OperandType::TENSOR_FLOAT16: return fn(std::type_identity<Float16>{});
    case OperandType::TENSOR_INT32: return fn(std::type_identity<int32_t>{});
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_BOOL8: return fn(std::type_identity<uint8_t>{});
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return fn(std::type_identity<int8_t>{});
    default: return fn(std::type_identity<float>{});
  }
}

}  // namespace annrt::ops
