// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Table lookups along the first dimension of a values tensor:
// EMBEDDING_LOOKUP selects rows by index, HASHTABLE_LOOKUP by key (the keys
// are sorted, so each lookup is a binary search) and reports hits. Rows are
// copied as bytes, so one kernel serves every element type.
#include <algorithm>
#include <cstring>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::lookup {
namespace {

constexpr uint32_t kLookups = 0;

Result<void> validateNotOmitted(const ValidationContext& context) {
  for (uint32_t i = 0; i < context.inputCount(); ++i) {
    ANNRT_CHECK(!context.isOmittedInput(i), "input {} is omitted", i);
  }
  return {};
}

// A 1-D TENSOR_INT32 input (lookups or keys).
Result<void> validateIndexVector(const ValidationContext& context, uint32_t index,
                                 const char* what) {
  ANNRT_RETURN_IF_ERROR(validateInputType(context, index, OperandType::TENSOR_INT32, what));
  return validateRank(context.inputShape(index), 1, what);
}

// The values table and the output that holds its selected rows: same type
// and quantization, rank at least 2 (unknown rank passes).
Result<void> validateTable(const ValidationContext& context, uint32_t valuesIndex,
                           std::initializer_list<OperandType> types) {
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, valuesIndex, types, 0));
  const Shape& values = context.inputShape(valuesIndex);
  ANNRT_CHECK(rank(values) == 0 || rank(values) >= 2, "values has rank {}, expected at least 2",
              rank(values));
  return {};
}

// Run-time ranks, which validation could not see when they were unknown.
Result<void> checkRanks(const ExecutionContext& context, uint32_t valuesIndex) {
  const Shape& lookups = context.inputShape(kLookups);
  const Shape& values = context.inputShape(valuesIndex);
  ANNRT_CHECK(rank(lookups) == 1, "lookups has rank {}, expected 1", rank(lookups));
  ANNRT_CHECK(rank(values) >= 2, "values has rank {}, expected at least 2", rank(values));
  return {};
}

// Output 0: one row of the table per lookup.
Result<void> setRowsOutput(ExecutionContext& context, uint32_t valuesIndex) {
  std::vector<uint32_t> dims = context.inputShape(valuesIndex).dims;
  dims[0] = context.inputShape(kLookups).dims[0];
  return setOutputDims(context, std::move(dims), 0);
}

size_t rowBytes(const ExecutionContext& context, uint32_t valuesIndex) {
  const Shape& values = context.inputShape(valuesIndex);
  return byteSize(values) / values.dims[0];
}

// EMBEDDING_LOOKUP

constexpr uint32_t kEmbeddingValues = 1;

Result<void> validateEmbedding(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateNotOmitted(context));
  ANNRT_RETURN_IF_ERROR(validateIndexVector(context, kLookups, "lookups"));
  return validateTable(context, kEmbeddingValues, kMovementTypesWithInt32);
}

Result<void> prepareEmbedding(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkRanks(context, kEmbeddingValues));
  return setRowsOutput(context, kEmbeddingValues);
}

Result<void> executeEmbedding(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkRanks(context, kEmbeddingValues));
  const uint32_t rows = context.inputShape(kEmbeddingValues).dims[0];
  const size_t count = context.inputShape(kLookups).dims[0];
  const int32_t* lookups = context.input<int32_t>(kLookups);
  const size_t bytes = rowBytes(context, kEmbeddingValues);
  const auto* values = static_cast<const uint8_t*>(context.inputData(kEmbeddingValues));
  auto* out = static_cast<uint8_t*>(context.outputData(0));
  for (size_t i = 0; i < count; ++i) {
    // The spec makes an out-of-range index a failure of the operation.
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, lookups[i] >= 0 && uint32_t(lookups[i]) < rows,
                     "lookup {} is {}, outside the {} rows of values", i, lookups[i], rows);
    std::memcpy(out + i * bytes, values + size_t(lookups[i]) * bytes, bytes);
  }
  return {};
}

// HASHTABLE_LOOKUP

constexpr uint32_t kKeys = 1, kHashValues = 2;
constexpr uint32_t kHits = 1;

Result<void> validateHits(const Shape& hits) {
  ANNRT_CHECK(hits.type == OperandType::TENSOR_QUANT8_ASYMM, "hits has type {}, expected {}",
              operandTypeName(hits.type), operandTypeName(OperandType::TENSOR_QUANT8_ASYMM));
  ANNRT_CHECK(hits.scale == 1.0f && hits.zeroPoint == 0,
              "hits has scale {} and zero point {}, expected 1 and 0", hits.scale, hits.zeroPoint);
  return validateRank(hits, 1, "hits");
}

Result<void> validateHashtable(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 2));
  ANNRT_RETURN_IF_ERROR(validateNotOmitted(context));
  ANNRT_RETURN_IF_ERROR(validateIndexVector(context, kLookups, "lookups"));
  ANNRT_RETURN_IF_ERROR(validateIndexVector(context, kKeys, "keys"));
  ANNRT_RETURN_IF_ERROR(validateTable(
      context, kHashValues,
      {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM}));
  const Shape& keys = context.inputShape(kKeys);
  const Shape& values = context.inputShape(kHashValues);
  ANNRT_CHECK(hasUnknownDims(keys) || rank(values) == 0 || values.dims[0] == 0 ||
                  keys.dims[0] == values.dims[0],
              "keys {} do not match the rows of values {}", toString(keys.dims),
              toString(values.dims));
  return validateHits(context.outputShape(kHits));
}

Result<void> checkKeys(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkRanks(context, kHashValues));
  const uint32_t rows = context.inputShape(kHashValues).dims[0];
  const Shape& keys = context.inputShape(kKeys);
  ANNRT_CHECK(rank(keys) == 1 && keys.dims[0] == rows, "keys {} do not match the {} rows of values",
              toString(keys.dims), rows);
  return {};
}

Result<void> prepareHashtable(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkKeys(context));
  ANNRT_RETURN_IF_ERROR(setRowsOutput(context, kHashValues));
  return setOutputDims(context, {context.inputShape(kLookups).dims[0]}, kHits);
}

Result<void> executeHashtable(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(checkKeys(context));
  const int32_t* keysBegin = context.input<int32_t>(kKeys);
  const int32_t* keysEnd = keysBegin + context.inputShape(kKeys).dims[0];
  // Binary search is only correct on sorted keys, which the spec requires.
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, std::is_sorted(keysBegin, keysEnd),
                   "keys are not sorted in ascending order");
  const size_t count = context.inputShape(kLookups).dims[0];
  const int32_t* lookups = context.input<int32_t>(kLookups);
  const size_t bytes = rowBytes(context, kHashValues);
  const auto* values = static_cast<const uint8_t*>(context.inputData(kHashValues));
  auto* out = static_cast<uint8_t*>(context.outputData(0));
  auto* hits = context.output<uint8_t>(kHits);
  for (size_t i = 0; i < count; ++i, out += bytes) {
    const int32_t* key = std::lower_bound(keysBegin, keysEnd, lookups[i]);
    hits[i] = key != keysEnd && *key == lookups[i];
    // A miss is a row of zero bytes, as in the reference implementations
    // (for quantized values that is the stored 0, not the zero point).
    if (hits[i]) {
      std::memcpy(out, values + size_t(key - keysBegin) * bytes, bytes);
    } else {
      std::memset(out, 0, bytes);
    }
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::EMBEDDING_LOOKUP,
     .name = "EMBEDDING_LOOKUP",
     .validate = validateEmbedding,
     .prepare = prepareEmbedding,
     .execute = executeEmbedding},
    {.type = OperationType::HASHTABLE_LOOKUP,
     .name = "HASHTABLE_LOOKUP",
     .validate = validateHashtable,
     .prepare = prepareHashtable,
     .execute = executeHashtable},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::lookup
