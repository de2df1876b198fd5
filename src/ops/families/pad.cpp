// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// PAD (pads with logical zero: 0.0 or the zero point), PAD_V2 (pads with a
// given value) and MIRROR_PAD (pads with a REFLECT or SYMMETRIC mirror image).
// Input 1 is a [rank, 2] TENSOR_INT32 of (before, after) padding per axis.
#include <array>
#include <cstring>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::pad {
namespace {

constexpr uint32_t kPaddings = 1;
constexpr uint32_t kExtra = 2;  // PAD_V2 value, MIRROR_PAD mode

enum class Mode { kConstant, kReflect, kSymmetric };

Result<void> validatePadding(const ValidationContext& context, uint32_t inputCount,
                             std::initializer_list<OperandType> types, uint32_t maxRank) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, inputCount, inputCount));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, types, maxRank));
  const Shape& paddings = context.inputShape(kPaddings);
  ANNRT_RETURN_IF_ERROR(
      validateInputType(context, kPaddings, OperandType::TENSOR_INT32, "paddings"));
  ANNRT_RETURN_IF_ERROR(validateRank(paddings, 2, "paddings"));
  const uint32_t inRank = rank(context.inputShape(0));
  if (rank(paddings) == 2) {
    ANNRT_CHECK(paddings.dims[1] == 0 || paddings.dims[1] == 2, "paddings have shape {}",
                toString(paddings.dims));
    ANNRT_CHECK(paddings.dims[0] == 0 || inRank == 0 || paddings.dims[0] == inRank,
                "paddings have shape {} for an input of rank {}", toString(paddings.dims), inRank);
  }
  const uint32_t outRank = rank(context.outputShape(0));
  ANNRT_CHECK(inRank == 0 || outRank == 0 || inRank == outRank,
              "output rank {} differs from input rank {}", outRank, inRank);
  return {};
}

Result<std::vector<Padding>> paddings(const ExecutionContext& context, Mode mode) {
  const std::vector<uint32_t>& dims = context.inputShape(0).dims;
  const Shape& shape = context.inputShape(kPaddings);
  ANNRT_CHECK(shape.dims == std::vector<uint32_t>({static_cast<uint32_t>(dims.size()), 2}),
              "paddings have shape {}, expected [{}, 2]", toString(shape.dims), dims.size());
  const int32_t* values = context.input<int32_t>(kPaddings);
  std::vector<Padding> result(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    const int32_t head = values[2 * i];
    const int32_t tail = values[2 * i + 1];
    ANNRT_CHECK(head >= 0 && tail >= 0, "paddings ({}, {}) of axis {} are negative", head, tail, i);
    // A reflection excludes the edge element, a symmetric copy includes it.
    const int64_t limit = mode == Mode::kReflect     ? int64_t{dims[i]} - 1
                          : mode == Mode::kSymmetric ? int64_t{dims[i]}
                                                     : INT32_MAX;
    ANNRT_CHECK(head <= limit && tail <= limit,
                "paddings ({}, {}) of axis {} exceed {} for mirroring a dimension of {}", head,
                tail, i, limit, dims[i]);
    result[i] = Padding{static_cast<uint32_t>(head), static_cast<uint32_t>(tail)};
  }
  return result;
}

Mode modeOf(const ExecutionContext& context, OperationType type) {
  if (type != OperationType::MIRROR_PAD) return Mode::kConstant;
  return context.scalar<int32_t>(kExtra) == 0 ? Mode::kReflect : Mode::kSymmetric;
}

template <OperationType kType>
Result<void> prepare(ExecutionContext& context) {
  if constexpr (kType == OperationType::MIRROR_PAD) {
    const int32_t mode = context.scalar<int32_t>(kExtra);
    ANNRT_CHECK(mode == 0 || mode == 1,
                "mirror pad mode {} is neither REFLECT (0) nor SYMMETRIC (1)", mode);
  }
  ANNRT_ASSIGN_OR_RETURN(auto pads, paddings(context, modeOf(context, kType)));
  std::vector<uint32_t> dims = context.inputShape(0).dims;
  for (size_t i = 0; i < dims.size(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(dims[i], checkedDim(uint64_t{dims[i]} + pads[i].head + pads[i].tail));
  }
  return setOutputDims(context, std::move(dims));
}

// The element written into the padding, as bytes of the input type.
std::array<uint8_t, 4> padValue(const ExecutionContext& context, OperationType type) {
  const Shape& input = context.inputShape(0);
  if (type != OperationType::PAD_V2) return quant8Element(input, input.zeroPoint);
  if (isQuant8Tensor(input.type)) return quant8Element(input, context.scalar<int32_t>(kExtra));
  std::array<uint8_t, 4> bytes{};
  std::memcpy(bytes.data(), context.inputData(kExtra), elementSize(input.type));
  return bytes;
}

// Input index of output index `o` along an axis of size `size`, or -1 for padding.
int64_t sourceIndex(int64_t o, Padding pad, int64_t size, Mode mode) {
  const int64_t i = o - pad.head;
  if (i >= 0 && i < size) return i;
  if (mode == Mode::kConstant) return -1;
  const int64_t edge = mode == Mode::kSymmetric ? 1 : 0;
  return i < 0 ? -i - edge : 2 * size - 2 + edge - i;
}

template <OperationType kType>
Result<void> execute(ExecutionContext& context) {
  const Mode mode = modeOf(context, kType);
  ANNRT_ASSIGN_OR_RETURN(auto pads, paddings(context, mode));
  const Shape& input = context.inputShape(0);
  const std::vector<size_t> strides = rowMajorStrides(input.dims);
  const std::array<uint8_t, 4> fill = padValue(context, kType);
  gatherElements(context.inputData(0), context.outputData(0), context.outputShape(0).dims,
                 elementSize(input.type), fill.data(), [&](const std::vector<uint32_t>& o) {
                   int64_t index = 0;
                   for (size_t d = 0; d < o.size(); ++d) {
                     const int64_t i = sourceIndex(o[d], pads[d], input.dims[d], mode);
                     if (i < 0) return int64_t{-1};
                     index += i * static_cast<int64_t>(strides[d]);
                   }
                   return index;
                 });
  return {};
}

Result<void> validatePad(const ValidationContext& context) {
  return validatePadding(context, 2, kMovementTypes, 4);
}

Result<void> validatePadV2(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validatePadding(context, 3, kMovementTypes, 4));
  const OperandType type = context.inputType(0);
  const OperandType valueType = type == OperandType::TENSOR_FLOAT32   ? OperandType::FLOAT32
                                : type == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16
                                                                      : OperandType::INT32;
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kExtra, valueType, "pad value"));
  return {};
}

Result<void> validateMirrorPad(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validatePadding(context, 3, kMovementTypesWithInt32, 0));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kExtra, OperandType::INT32, "mode"));
  if (const int32_t* mode = constantInt32(context, kExtra)) {
    ANNRT_CHECK(*mode == 0 || *mode == 1,
                "mirror pad mode {} is neither REFLECT (0) nor SYMMETRIC (1)", *mode);
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::PAD,
     .name = "PAD",
     .validate = validatePad,
     .prepare = prepare<OperationType::PAD>,
     .execute = execute<OperationType::PAD>},
    {.type = OperationType::PAD_V2,
     .name = "PAD_V2",
     .validate = validatePadV2,
     .prepare = prepare<OperationType::PAD_V2>,
     .execute = execute<OperationType::PAD_V2>},
    {.type = OperationType::MIRROR_PAD,
     .name = "MIRROR_PAD",
     .validate = validateMirrorPad,
     .prepare = prepare<OperationType::MIRROR_PAD>,
     .execute = execute<OperationType::MIRROR_PAD>},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::pad
