// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONCATENATION, PACK (concatenation along a new axis) and SPLIT. All three
// view tensors as [outer, axis * inner] rows and copy contiguous row blocks.
#include <cstring>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::concat_split {
namespace {

size_t product(const std::vector<uint32_t>& dims, size_t begin, size_t end) {
  size_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= dims[i];
  return p;
}

// Concatenates, for each of `outer` rows, a block of blockBytes[i] bytes from
// every part i.
void interleave(const std::vector<const uint8_t*>& parts, const std::vector<size_t>& blockBytes,
                size_t outer, uint8_t* out) {
  for (size_t row = 0; row < outer; ++row) {
    for (size_t i = 0; i < parts.size(); ++i) {
      std::memcpy(out, parts[i] + row * blockBytes[i], blockBytes[i]);
      out += blockBytes[i];
    }
  }
}

// CONCATENATION

Result<void> validateConcatenation(const ValidationContext& context) {
  ANNRT_CHECK(context.inputCount() >= 2, "expected at least 2 inputs, got {}",
              context.inputCount());
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const uint32_t axisIndex = context.inputCount() - 1;
  const OperandType type = context.inputType(0);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypes, "input"));
  for (uint32_t i = 0; i < axisIndex; ++i) {
    ANNRT_CHECK(context.inputType(i) == type, "input {} has type {}, input 0 has {}", i,
                operandTypeName(context.inputType(i)), operandTypeName(type));
    ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(i), 4, "input"));
  }
  ANNRT_RETURN_IF_ERROR(validateInputType(context, axisIndex, OperandType::INT32, "axis"));
  return validateOutputTypes(context, {type});
}

Result<void> prepareConcatenation(ExecutionContext& context) {
  const uint32_t count = context.inputCount() - 1;
  std::vector<uint32_t> dims = context.inputShape(0).dims;
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, resolveAxis(context.scalar<int32_t>(count),
                                                    static_cast<uint32_t>(dims.size())));
  for (uint32_t i = 1; i < count; ++i) {
    const std::vector<uint32_t>& other = context.inputShape(i).dims;
    ANNRT_CHECK(other.size() == dims.size(), "input {} has rank {}, input 0 has {}", i,
                other.size(), dims.size());
    for (size_t d = 0; d < dims.size(); ++d) {
      ANNRT_CHECK(d == axis || other[d] == dims[d], "input {} has dims {}, input 0 has {}", i,
                  toString(other), toString(context.inputShape(0).dims));
    }
    ANNRT_ASSIGN_OR_RETURN(dims[axis], checkedDim(uint64_t{dims[axis]} + other[axis]));
  }
  return setOutputDims(context, std::move(dims));
}

// Converts quantized values to the output's scale and zero point with the
// spec's fixed-point multiplier.
template <typename T>
std::vector<uint8_t> requantize(const T* in, size_t count, const Shape& from, const Shape& to) {
  std::vector<uint8_t> bytes(count * sizeof(T));
  auto* out = reinterpret_cast<T*>(bytes.data());
  const QuantizedMultiplier m =
      quantizeMultiplier(static_cast<double>(from.scale) / static_cast<double>(to.scale));
  for (size_t i = 0; i < count; ++i) {
    const int32_t shifted = static_cast<int32_t>(in[i]) - from.zeroPoint;
    out[i] = saturateCast<T>(multiplyByQuantizedMultiplier(shifted, m) + to.zeroPoint);
  }
  return bytes;
}

std::vector<uint8_t> requantize(const void* in, const Shape& from, const Shape& to) {
  const size_t count = elementCount(from);
  if (from.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    return requantize(static_cast<const int8_t*>(in), count, from, to);
  }
  return requantize(static_cast<const uint8_t*>(in), count, from, to);
}

Result<void> executeConcatenation(ExecutionContext& context) {
  const uint32_t count = context.inputCount() - 1;
  const Shape& output = context.outputShape(0);
  const auto axis =
      static_cast<uint32_t>(resolveAxis(context.scalar<int32_t>(count), rank(output)).value());
  const size_t bytes = elementSize(output.type);
  const size_t inner = product(output.dims, axis + 1, output.dims.size()) * bytes;
  std::vector<const uint8_t*> parts(count);
  std::vector<size_t> blockBytes(count);
  std::vector<std::vector<uint8_t>> converted(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Shape& input = context.inputShape(i);
    parts[i] = static_cast<const uint8_t*>(context.inputData(i));
    blockBytes[i] = input.dims[axis] * inner;
    const bool rescale = isQuant8Tensor(input.type) &&
                         (input.scale != output.scale || input.zeroPoint != output.zeroPoint);
    if (rescale && elementCount(input) != 0) {
      converted[i] = requantize(parts[i], input, output);
      parts[i] = converted[i].data();
    }
  }
  interleave(parts, blockBytes, product(output.dims, 0, axis),
             static_cast<uint8_t*>(context.outputData(0)));
  return {};
}

// PACK: input 0 is the axis, inputs 1..n are tensors of one shape.

Result<void> validatePack(const ValidationContext& context) {
  ANNRT_CHECK(context.inputCount() >= 2, "expected at least 2 inputs, got {}",
              context.inputCount());
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, 0, OperandType::INT32, "axis"));
  const Shape& output = context.outputShape(0);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(output.type, kMovementTypesWithInt32, "output"));
  for (uint32_t i = 1; i < context.inputCount(); ++i) {
    const Shape& input = context.inputShape(i);
    ANNRT_CHECK(input.type == output.type, "input {} has type {}, the output has {}", i,
                operandTypeName(input.type), operandTypeName(output.type));
    ANNRT_RETURN_IF_ERROR(validateSameQuantization(input, output));
    ANNRT_CHECK(rank(input) == 0 || rank(output) == 0 || rank(input) + 1 == rank(output),
                "input {} has rank {}, the output {}", i, rank(input), rank(output));
  }
  return {};
}

Result<void> preparePack(ExecutionContext& context) {
  const std::vector<uint32_t>& first = context.inputShape(1).dims;
  ANNRT_CHECK(!first.empty(), "packed tensors must have rank 1 or more");
  for (uint32_t i = 2; i < context.inputCount(); ++i) {
    ANNRT_CHECK(context.inputShape(i).dims == first, "input {} has dims {}, input 1 has {}", i,
                toString(context.inputShape(i).dims), toString(first));
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, resolveAxis(context.scalar<int32_t>(0),
                                                    static_cast<uint32_t>(first.size() + 1)));
  std::vector<uint32_t> dims = first;
  dims.insert(dims.begin() + axis, context.inputCount() - 1);
  return setOutputDims(context, std::move(dims));
}

Result<void> executePack(ExecutionContext& context) {
  const Shape& output = context.outputShape(0);
  const auto axis = resolveAxis(context.scalar<int32_t>(0), rank(output)).value();
  const size_t block =
      product(output.dims, axis + 1, output.dims.size()) * elementSize(output.type);
  std::vector<const uint8_t*> parts;
  for (uint32_t i = 1; i < context.inputCount(); ++i) {
    parts.push_back(static_cast<const uint8_t*>(context.inputData(i)));
  }
  interleave(parts, std::vector<size_t>(parts.size(), block), product(output.dims, 0, axis),
             static_cast<uint8_t*>(context.outputData(0)));
  return {};
}

// SPLIT

constexpr uint32_t kSplitAxis = 1;
constexpr uint32_t kNumSplits = 2;

Result<void> validateSplit(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_CHECK(context.outputCount() >= 1, "expected at least one output");
  const Shape& input = context.inputShape(0);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(input.type, kMovementTypesWithInt32, "input"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kSplitAxis, OperandType::INT32, "axis"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kNumSplits, OperandType::INT32, "splits"));
  for (uint32_t i = 0; i < context.outputCount(); ++i) {
    ANNRT_CHECK(context.outputType(i) == input.type, "output {} has type {}, the input {}", i,
                operandTypeName(context.outputType(i)), operandTypeName(input.type));
    ANNRT_RETURN_IF_ERROR(validateSameQuantization(input, context.outputShape(i)));
  }
  if (const int32_t* splits = constantInt32(context, kNumSplits)) {
    ANNRT_CHECK(*splits == static_cast<int32_t>(context.outputCount()),
                "number of splits {} differs from the {} outputs", *splits, context.outputCount());
  }
  return {};
}

Result<void> prepareSplit(ExecutionContext& context) {
  std::vector<uint32_t> dims = context.inputShape(0).dims;
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, resolveAxis(context.scalar<int32_t>(kSplitAxis),
                                                    static_cast<uint32_t>(dims.size())));
  const int32_t splits = context.scalar<int32_t>(kNumSplits);
  ANNRT_CHECK(splits == static_cast<int32_t>(context.outputCount()),
              "number of splits {} differs from the {} outputs", splits, context.outputCount());
  ANNRT_CHECK(dims[axis] % splits == 0, "dimension {} of size {} does not split in {}", axis,
              dims[axis], splits);
  dims[axis] /= splits;
  for (uint32_t i = 0; i < context.outputCount(); ++i) {
    ANNRT_RETURN_IF_ERROR(setOutputDims(context, dims, i));
  }
  return {};
}

Result<void> executeSplit(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  const auto axis = resolveAxis(context.scalar<int32_t>(kSplitAxis), rank(input)).value();
  const size_t outer = product(input.dims, 0, axis);
  const size_t block = byteSize(input) / (outer * context.outputCount());
  const auto* in = static_cast<const uint8_t*>(context.inputData(0));
  for (size_t row = 0; row < outer; ++row) {
    for (uint32_t i = 0; i < context.outputCount(); ++i, in += block) {
      std::memcpy(static_cast<uint8_t*>(context.outputData(i)) + row * block, in, block);
    }
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::CONCATENATION,
     .name = "CONCATENATION",
     .validate = validateConcatenation,
     .prepare = prepareConcatenation,
     .execute = executeConcatenation,
     .allowZeroSizedInput = true},
    {.type = OperationType::SPLIT,
     .name = "SPLIT",
     .validate = validateSplit,
     .prepare = prepareSplit,
     .execute = executeSplit},
    {.type = OperationType::PACK,
     .name = "PACK",
     .validate = validatePack,
     .prepare = preparePack,
     .execute = executePack},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::concat_split
