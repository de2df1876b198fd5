// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL (level 6+): out[..., i, j] = sum_p lhs[..., i, p] * rhs[..., p, j]
// where adj_x / adj_y transpose the last two dimensions of lhs / rhs first.
// Both inputs have the same rank (2 to 4) and type (float32, float16, int32,
// quant8 asymm signed); batch dimensions broadcast where one of them is 1.
// The quantized output is requantized with the fixed-point multiplier of
// lhs_scale * rhs_scale / output_scale; there is no fused activation.
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/quantization.h"
#include "ops/util/shape_helpers.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::batch_matmul {
namespace {

constexpr uint32_t kLhs = 0;
constexpr uint32_t kRhs = 1;
constexpr uint32_t kAdjX = 2;
constexpr uint32_t kAdjY = 3;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 4, 4));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(kLhs);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(type,
                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                      OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                     "input"));
  ANNRT_RETURN_IF_ERROR(
      validateInputTypes(context, {type, type, OperandType::BOOL, OperandType::BOOL}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  const uint32_t lhsRank = rank(context.inputShape(kLhs));
  const uint32_t rhsRank = rank(context.inputShape(kRhs));
  for (uint32_t r : {lhsRank, rhsRank}) {
    ANNRT_CHECK(r == 0 || (r >= 2 && r <= 4), "input has rank {}, expected 2 to 4", r);
  }
  ANNRT_CHECK(lhsRank == 0 || rhsRank == 0 || lhsRank == rhsRank,
              "inputs have different ranks {} and {}", lhsRank, rhsRank);
  return {};
}

struct Dims {
  std::vector<uint32_t> lhsBatch, rhsBatch, outBatch;
  uint32_t m = 0, k = 0, n = 0;
  bool adjX = false, adjY = false;
};

Result<Dims> dims(const ExecutionContext& context) {
  const Shape& lhs = context.inputShape(kLhs);
  const Shape& rhs = context.inputShape(kRhs);
  const uint32_t r = rank(lhs);
  ANNRT_CHECK(r >= 2 && r <= 4 && rank(rhs) == r,
              "input shapes {} and {} must have one rank in 2..4", toString(lhs.dims),
              toString(rhs.dims));
  Dims d;
  d.adjX = context.scalar<uint8_t>(kAdjX) != 0;
  d.adjY = context.scalar<uint8_t>(kAdjY) != 0;
  d.lhsBatch.assign(lhs.dims.begin(), lhs.dims.end() - 2);
  d.rhsBatch.assign(rhs.dims.begin(), rhs.dims.end() - 2);
  ANNRT_ASSIGN_OR_RETURN(d.outBatch, broadcastDims(d.lhsBatch, d.rhsBatch));
  const uint32_t lhsRows = lhs.dims[r - 2], lhsCols = lhs.dims[r - 1];
  const uint32_t rhsRows = rhs.dims[r - 2], rhsCols = rhs.dims[r - 1];
  d.m = d.adjX ? lhsCols : lhsRows;
  d.k = d.adjX ? lhsRows : lhsCols;
  d.n = d.adjY ? rhsRows : rhsCols;
  const uint32_t rhsK = d.adjY ? rhsCols : rhsRows;
  ANNRT_CHECK(d.m > 0 && d.k > 0 && d.n > 0 && d.k == rhsK,
              "cannot multiply {} by {} (adj_x {}, adj_y {})", toString(lhs.dims),
              toString(rhs.dims), d.adjX, d.adjY);
  return d;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Dims d, dims(context));
  Shape output = context.outputShape(0);
  output.dims = d.outBatch;
  output.dims.push_back(d.m);
  output.dims.push_back(d.n);
  if (context.inputType(kLhs) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    ANNRT_CHECK(output.scale > 0, "output scale {} must be positive", output.scale);
  }
  return context.setOutputShape(0, output);
}

// Loops over the broadcast batch and the output matrix; `store(index, sum)`
// receives sum_p load(lhs) * load(rhs).
template <typename Acc, typename T, typename LoadLhs, typename LoadRhs, typename Store>
void matmul(const Dims& d, const T* lhs, const T* rhs, LoadLhs loadLhs, LoadRhs loadRhs,
            Store store) {
  std::vector<uint32_t> coord(d.outBatch.size(), 0);
  const size_t batches = elementCount(d.outBatch);
  size_t index = 0;
  for (size_t batch = 0; batch < batches; ++batch, nextCoordinate(d.outBatch, coord)) {
    const T* a = lhs + broadcastIndex(d.lhsBatch, coord) * d.m * d.k;
    const T* b = rhs + broadcastIndex(d.rhsBatch, coord) * d.k * d.n;
    for (uint32_t i = 0; i < d.m; ++i) {
      for (uint32_t j = 0; j < d.n; ++j, ++index) {
        Acc sum = 0;
        for (uint32_t p = 0; p < d.k; ++p) {
          const T x =
              d.adjX ? a[static_cast<size_t>(p) * d.m + i] : a[static_cast<size_t>(i) * d.k + p];
          const T y =
              d.adjY ? b[static_cast<size_t>(j) * d.k + p] : b[static_cast<size_t>(p) * d.n + j];
          sum += loadLhs(x) * loadRhs(y);
        }
        store(index, sum);
      }
    }
  }
}

// Float16 accumulates in float32 and rounds once; int32 wraps like the
// 32-bit reference accumulator (unsigned arithmetic keeps that defined).
template <typename T>
void runPlain(ExecutionContext& context, const Dims& d) {
  using Acc = std::conditional_t<std::is_same_v<T, int32_t>, uint32_t, float>;
  auto load = [](T v) { return static_cast<Acc>(v); };
  T* out = context.output<T>(0);
  matmul<Acc>(d, context.input<T>(kLhs), context.input<T>(kRhs), load, load,
              [out](size_t index, Acc sum) { out[index] = static_cast<T>(sum); });
}

void runQuantized(ExecutionContext& context, const Dims& d) {
  const Shape& lhs = context.inputShape(kLhs);
  const Shape& rhs = context.inputShape(kRhs);
  const Shape& output = context.outputShape(0);
  // No bias here, so the conv helper's bias-scale check does not apply.
  const QuantizedMultiplier multiplier = quantizeMultiplier(
      static_cast<double>(lhs.scale) * static_cast<double>(rhs.scale) / output.scale);
  auto lhsLoad = [offset = lhs.zeroPoint](int8_t v) { return int64_t{v} - offset; };
  auto rhsLoad = [offset = rhs.zeroPoint](int8_t v) { return int64_t{v} - offset; };
  int8_t* out = context.output<int8_t>(0);
  auto store = [&](size_t index, int64_t sum) {
    const auto acc = static_cast<int32_t>(std::clamp<int64_t>(
        sum, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
    out[index] =
        saturateCast<int8_t>(multiplyByQuantizedMultiplier(acc, multiplier) + output.zeroPoint);
  };
  matmul<int64_t>(d, context.input<int8_t>(kLhs), context.input<int8_t>(kRhs), lhsLoad, rhsLoad,
                  store);
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Dims d, dims(context));
  switch (context.inputType(kLhs)) {
    case OperandType::TENSOR_FLOAT32: runPlain<float>(context, d); return {};
    case OperandType::TENSOR_FLOAT16: runPlain<Float16>(context, d); return {};
    case OperandType::TENSOR_INT32: runPlain<int32_t>(context, d); return {};
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: runQuantized(context, d); return {};
    default:
      return makeError(ErrorCode::OP_FAILED, "unsupported input type {}",
                       operandTypeName(context.inputType(kLhs)));
  }
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::BATCH_MATMUL,
     .name = "BATCH_MATMUL",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::batch_matmul
