// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers for the shape and data-movement operations (reshape, concat, pad,
// slice, transpose, space/depth/batch rearrangements, ...). These ops move
// elements without looking at their values, so kernels are written once over
// the element size instead of once per operand type.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "ops/operation.h"
#include "ops/util/shape_helpers.h"

namespace annrt::ops {

// Operand types of the FLOAT16/FLOAT32/QUANT8_ASYMM(_SIGNED) movement ops, and
// the same plus TENSOR_INT32.
inline constexpr std::initializer_list<OperandType> kMovementTypes = {
    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
inline constexpr std::initializer_list<OperandType> kMovementTypesWithInt32 = {
    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
    OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_INT32};

// A quantized output of a movement op must keep the input's scale and zero
// point, since the stored integers are copied unchanged.
Result<void> validateSameQuantization(const Shape& input, const Shape& output);

// The common signature check: input `dataIndex` has one of `types` and at most
// `maxRank` dims (0: any rank), and output 0 has the same type and quantization.
Result<void> validateMovedTensor(const ValidationContext& context, uint32_t dataIndex,
                                 std::initializer_list<OperandType> types, uint32_t maxRank);

// Input `index` (named `what` in errors) has type `type`.
Result<void> validateInputType(const ValidationContext& context, uint32_t index, OperandType type,
                               const char* what);

// A known, constant INT32 scalar input, or nullptr.
const int32_t* constantInt32(const ValidationContext& context, uint32_t index);

// Values of a 1-D TENSOR_INT32 input, checking its rank and (when `length` is
// not negative) its length.
Result<std::vector<int32_t>> int32Vector(const ExecutionContext& context, uint32_t index,
                                         int64_t length = -1);

// The optional trailing layout input: true for NCHW.
bool isNchw(const ExecutionContext& context, uint32_t index);
// Input `index`, if present, is a BOOL layout flag.
Result<void> validateLayoutInput(const ValidationContext& context, uint32_t index);

// One element of a quant8 tensor holding `value` saturated to its range, as
// bytes; all-zero bytes (0.0, 0) for other types. Pads use it as logical zero.
std::array<uint8_t, 4> quant8Element(const Shape& shape, int32_t value);

// Row-major strides, in elements.
std::vector<size_t> rowMajorStrides(const std::vector<uint32_t>& dims);

// Calls fn.template operator()<Word>() with an unsigned type of `bytes` bytes
// (1, 2 or 4: every tensor element size), so that copies are plain loads and
// stores of the right width.
template <typename Fn>
void withElementWord(size_t bytes, Fn&& fn) {
  switch (bytes) {
    case 1: fn.template operator()<uint8_t>(); break;
    case 2: fn.template operator()<uint16_t>(); break;
    default: fn.template operator()<uint32_t>(); break;
  }
}

// Fills the output in row-major order: for each output coordinate,
// `source(coord)` returns the flat index of the input element to copy, or a
// negative value to write the `fill` element (elementBytes bytes) instead.
template <typename Source>
void gatherElements(const void* in, void* out, const std::vector<uint32_t>& outDims,
                    size_t elementBytes, const void* fill, Source&& source) {
  withElementWord(elementBytes, [&]<typename Word>() {
    const auto* src = static_cast<const uint8_t*>(in);
    auto* dst = static_cast<uint8_t*>(out);
    Word fillWord{};
    if (fill != nullptr) std::memcpy(&fillWord, fill, sizeof(Word));
    std::vector<uint32_t> coord(outDims.size(), 0);
    const size_t count = elementCount(outDims);
    for (size_t o = 0; o < count; ++o, dst += sizeof(Word)) {
      const int64_t i = source(coord);
      std::memcpy(dst, i < 0 ? &fillWord : static_cast<const void*>(src + i * sizeof(Word)),
                  sizeof(Word));
      nextCoordinate(outDims, coord);
    }
  });
}

// Sets output `index` to `dims`, keeping its declared type and quantization.
Result<void> setOutputDims(ExecutionContext& context, std::vector<uint32_t> dims,
                           uint32_t index = 0);

// Sets output 0 of a 4-D layout-dependent op from `nhwcDims(inputDimsInNhwc)`,
// which computes the output dims in NHWC; both are converted when `nchw`.
template <typename NhwcDims>
Result<void> setOutputDimsInNhwc(ExecutionContext& context, bool nchw, NhwcDims&& nhwcDims) {
  const Shape& input = context.inputShape(0);
  ANNRT_CHECK(rank(input) == 4, "input has rank {}, expected 4", rank(input));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> dims,
                         nhwcDims(nchw ? nchwToNhwcDims(input.dims) : input.dims));
  return setOutputDims(context, nchw ? nhwcToNchwDims(dims) : dims);
}

// Runs an NHWC kernel `kernel(in, inDims, out, outDims)` on input 0 / output 0,
// converting NCHW data to NHWC and back when `nchw` is set.
template <typename Kernel>
void runInNhwc(ExecutionContext& context, bool nchw, Kernel&& kernel) {
  const Shape& input = context.inputShape(0);
  const Shape& output = context.outputShape(0);
  if (!nchw) {
    kernel(context.inputData(0), input.dims, context.outputData(0), output.dims);
    return;
  }
  const size_t bytes = elementSize(input.type);
  std::vector<uint8_t> in(elementCount(input) * bytes);
  std::vector<uint8_t> out(elementCount(output) * bytes);
  nchwToNhwc(context.inputData(0), in.data(), input.dims, bytes);
  kernel(static_cast<const void*>(in.data()), nchwToNhwcDims(input.dims),
         static_cast<void*>(out.data()), nchwToNhwcDims(output.dims));
  nhwcToNchw(out.data(), context.outputData(0), nchwToNhwcDims(output.dims), bytes);
}

// A computed dimension, or an error when it does not fit in 32 bits.
Result<uint32_t> checkedDim(uint64_t value);

}  // namespace annrt::ops
