// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// LSH_PROJECTION: locality-sensitive hashing of the input's rows. Each of the
// num_hash * num_bits seeds gives one bit: the sign of the (weighted) sum over
// input rows of Fingerprint64(seed bytes ++ row bytes) read as a signed
// integer. DENSE writes the bits; SPARSE packs each hash function's bits into
// one int32, offset by k << num_bits so that functions do not collide;
// SPARSE_DEPRECATED is the pre-feature-level-3 SPARSE without that offset.
#include <bit>
#include <cstring>
#include <vector>

#include "ops/operation.h"
#include "ops/util/fingerprint64.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::lsh_projection {
namespace {

constexpr uint32_t kHash = 0, kInput = 1, kWeight = 2, kType = 3;

enum class ProjectionType : int32_t { SPARSE_DEPRECATED = 1, DENSE = 2, SPARSE = 3 };

Result<ProjectionType> projectionType(int32_t value) {
  ANNRT_CHECK(value >= 1 && value <= 3, "projection type {} is not 1, 2 or 3", value);
  return static_cast<ProjectionType>(value);
}

Result<void> validateTypes(const ValidationContext& context) {
  const OperandType hashType = context.inputType(kHash);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(hashType, {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32}, "hash"));
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(context.inputType(kInput),
                     {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                      OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM},
                     "input"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kWeight, hashType, "weight"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kType, OperandType::INT32, "type"));
  ANNRT_CHECK(context.outputType(0) == OperandType::TENSOR_INT32,
              "output has type {}, expected TENSOR_INT32", operandTypeName(context.outputType(0)));
  return {};
}

Result<void> validateShapes(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kHash), 2, "hash"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kWeight), 1, "weight"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.outputShape(0), 1, "output"));
  const Shape& weight = context.inputShape(kWeight);
  const Shape& input = context.inputShape(kInput);
  if (context.isOmittedInput(kWeight) || hasUnknownDims(weight) || rank(input) == 0 ||
      input.dims[0] == 0) {
    return {};
  }
  ANNRT_CHECK(weight.dims[0] == input.dims[0],
              "weight {} does not have one value per input row ({})", toString(weight.dims),
              input.dims[0]);
  return {};
}

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 4, 4));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  for (uint32_t i : {kHash, kInput, kType}) {
    ANNRT_CHECK(!context.isOmittedInput(i), "input {} is omitted; only the weight is optional", i);
  }
  ANNRT_RETURN_IF_ERROR(validateTypes(context));
  ANNRT_RETURN_IF_ERROR(validateShapes(context));
  if (const int32_t* type = constantInt32(context, kType)) {
    ANNRT_RETURN_IF_ERROR(projectionType(*type));
  }
  return {};
}

struct Geometry {
  ProjectionType type;
  uint32_t functions = 0;  // hash functions (rows of the hash tensor)
  uint32_t bits = 0;       // bits per function
};

Result<void> checkWeight(const ExecutionContext& context) {
  if (context.isOmittedInput(kWeight)) return {};
  const Shape& weight = context.inputShape(kWeight);
  const Shape& input = context.inputShape(kInput);
  ANNRT_CHECK(rank(weight) == 1 && weight.dims[0] == input.dims[0],
              "weight {} does not have one value per input row ({})", toString(weight.dims),
              input.dims[0]);
  return {};
}

// Sparse signatures hold num_bits bits plus the function offset in an int32.
Result<void> checkSparseFits(const Geometry& g) {
  ANNRT_CHECK(g.bits <= 32, "{} bits per hash function do not fit in an int32", g.bits);
  if (g.type != ProjectionType::SPARSE) return {};
  const int offsetBits =
      g.functions <= 1 ? 0 : static_cast<int>(std::bit_width(g.functions - 1));  // ceil(log2)
  ANNRT_CHECK(g.bits + offsetBits <= 32,
              "{} bits per function plus the offsets of {} functions exceed 32 bits", g.bits,
              g.functions);
  return {};
}

Result<Geometry> geometry(const ExecutionContext& context) {
  for (uint32_t i : {kHash, kInput, kType}) {
    ANNRT_CHECK(!context.isOmittedInput(i), "input {} is omitted; only the weight is optional", i);
  }
  const Shape& hash = context.inputShape(kHash);
  ANNRT_CHECK(rank(hash) == 2, "hash has rank {}, expected 2", rank(hash));
  ANNRT_CHECK(rank(context.inputShape(kInput)) >= 1, "input must have rank at least 1");
  ANNRT_RETURN_IF_ERROR(checkWeight(context));
  ANNRT_ASSIGN_OR_RETURN(ProjectionType type, projectionType(context.scalar<int32_t>(kType)));
  Geometry g{type, hash.dims[0], hash.dims[1]};
  ANNRT_RETURN_IF_ERROR(checkSparseFits(g));
  return g;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Geometry g, geometry(context));
  const uint64_t count =
      g.type == ProjectionType::DENSE ? uint64_t{g.functions} * g.bits : g.functions;
  ANNRT_ASSIGN_OR_RETURN(uint32_t length, checkedDim(count));
  return setOutputDims(context, {length});
}

// A float16 or float32 tensor read as float, which is also how a seed is
// hashed: the key always starts with the 4 bytes of a float.
std::vector<float> floatValues(const ExecutionContext& context, uint32_t index) {
  const size_t count = elementCount(context.inputShape(index));
  std::vector<float> values(count);
  if (context.inputType(index) == OperandType::TENSOR_FLOAT16) {
    const Float16* data = context.input<Float16>(index);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(data[i]);
  } else {
    std::memcpy(values.data(), context.inputData(index), count * sizeof(float));
  }
  return values;
}

// Hashes every input row with one seed.
class RowHasher {
 public:
  explicit RowHasher(const ExecutionContext& context)
      : rows_(context.inputShape(kInput).dims[0]),
        rowBytes_(byteSize(context.inputShape(kInput)) / rows_),
        input_(static_cast<const uint8_t*>(context.inputData(kInput))),
        weights_(context.isOmittedInput(kWeight) ? std::vector<float>()
                                                 : floatValues(context, kWeight)),
        key_(sizeof(float) + rowBytes_) {}

  // 1 when the weighted sum of the rows' signed fingerprints is positive.
  int32_t signBit(float seed) {
    std::memcpy(key_.data(), &seed, sizeof(seed));
    double score = 0.0;
    for (size_t row = 0; row < rows_; ++row) {
      std::memcpy(key_.data() + sizeof(seed), input_ + row * rowBytes_, rowBytes_);
      const auto hash = static_cast<double>(static_cast<int64_t>(fingerprint64(key_)));
      score += weights_.empty() ? hash : static_cast<double>(weights_[row]) * hash;
    }
    return score > 0.0 ? 1 : 0;
  }

 private:
  size_t rows_;
  size_t rowBytes_;
  const uint8_t* input_;
  std::vector<float> weights_;
  std::vector<uint8_t> key_;
};

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Geometry g, geometry(context));
  const std::vector<float> seeds = floatValues(context, kHash);
  RowHasher hasher(context);
  int32_t* out = context.output<int32_t>(0);
  for (uint32_t k = 0; k < g.functions; ++k) {
    uint32_t signature = 0;  // unsigned: 32 bits may shift through the sign
    for (uint32_t b = 0; b < g.bits; ++b) {
      const int32_t bit = hasher.signBit(seeds[size_t{k} * g.bits + b]);
      if (g.type == ProjectionType::DENSE) *out++ = bit;
      signature = (signature << 1) | static_cast<uint32_t>(bit);
    }
    if (g.type == ProjectionType::DENSE) continue;
    if (g.type == ProjectionType::SPARSE) {
      signature += static_cast<uint32_t>(uint64_t{k} << g.bits);
    }
    *out++ = static_cast<int32_t>(signature);
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::LSH_PROJECTION,
     .name = "LSH_PROJECTION",
     .validate = validate,
     .prepare = prepare,
     .execute = execute,
     .allowOmittedOperand = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::lsh_projection
