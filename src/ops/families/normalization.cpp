// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Normalizations along one axis of a tensor of rank <= 4:
//  * L2_NORMALIZATION: x / max(||x||, 1e-6) along `axis` (optional input 1,
//    default -1, level 3). float32 (level 1), float16 and quant8 (level 3),
//    quant8 signed (level 4); quantized outputs have scale 1/128 and zero
//    point 128 (0 signed) and are computed with the reference's fixed-point
//    inverse square root.
//  * LOCAL_RESPONSE_NORMALIZATION: x / (bias + alpha * sum(x^2 over the
//    window of +-radius along `axis`))^beta; inputs radius, bias, alpha,
//    beta and optional axis (input 5, default -1, level 3). float32, float16.
//  * INSTANCE_NORMALIZATION (level 3): per batch and channel of a 4-D tensor,
//    (x - mean) * gamma / sqrt(variance + epsilon) + beta; inputs gamma, beta,
//    epsilon and the NCHW layout flag. float32, float16.
// All three reduce to a kernel over 1-D slices: `count` elements `stride`
// apart. Float16 data is computed in float.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ops/operation.h"
#include "ops/util/activation_fixed_point.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/quantization.h"
#include "ops/util/shape_helpers.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::normalization {
namespace {

constexpr OperandType kFloat32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kFloat16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kQuant8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQuant8Signed = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OperandType kFloatTypes[] = {kFloat32, kFloat16};
constexpr uint32_t kMaxRank = 4;

// The scalar type that goes with a float tensor type.
OperandType scalarTypeOf(OperandType tensorType) {
  return tensorType == kFloat16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

// A float scalar input stored as float32 or float16.
float floatScalar(const ExecutionContext& context, uint32_t index) {
  return context.inputType(index) == OperandType::FLOAT16
             ? static_cast<float>(context.scalar<Float16>(index))
             : context.scalar<float>(index);
}

// Checks input `first` onwards against `types` (in order).
Result<void> validateScalars(const ValidationContext& context, uint32_t first,
                             std::initializer_list<OperandType> types) {
  uint32_t index = first;
  for (OperandType expected : types) {
    ANNRT_CHECK(context.inputType(index) == expected, "input {} has type {}, expected {}", index,
                operandTypeName(context.inputType(index)), operandTypeName(expected));
    ++index;
  }
  return {};
}

// The slices of a tensor along one axis: `outer` x `inner` slices of `count`
// elements, `inner` apart.
struct Slices {
  size_t outer = 1;
  size_t count = 1;
  size_t inner = 1;
};

Slices slicesAlong(const std::vector<uint32_t>& dims, uint32_t axis) {
  Slices slices{.count = dims[axis]};
  for (uint32_t i = 0; i < axis; ++i) slices.outer *= dims[i];
  for (size_t i = axis + 1; i < dims.size(); ++i) slices.inner *= dims[i];
  return slices;
}

// Runs kernel(in, out, stride, count) on every slice of input 0 into output 0.
template <typename T, typename Kernel>
Result<void> forEachSlice(ExecutionContext& context, const Slices& slices, Kernel kernel) {
  const T* in = context.input<T>(0);
  T* out = context.output<T>(0);
  for (size_t o = 0; o < slices.outer; ++o) {
    for (size_t i = 0; i < slices.inner; ++i) {
      const size_t base = o * slices.count * slices.inner + i;
      kernel(in + base, out + base, slices.inner, slices.count);
    }
  }
  return {};
}

// The axis from optional input `index` (default -1), resolved against the
// input's rank.
Result<uint32_t> axisInput(const ExecutionContext& context, uint32_t index) {
  const int32_t axis = context.inputCount() > index ? context.scalar<int32_t>(index) : -1;
  return resolveAxis(axis, rank(context.inputShape(0)));
}

// prepare for the ops with an optional axis input at `index`.
template <uint32_t kAxisIndex>
Result<void> prepareWithAxis(ExecutionContext& context) {
  ANNRT_CHECK(rank(context.inputShape(0)) >= 1, "input must have rank >= 1");
  ANNRT_RETURN_IF_ERROR(axisInput(context, kAxisIndex));
  return prepareSameShape(context, kMaxRank);
}

// L2_NORMALIZATION ------------------------------------------------------------

constexpr OperandType kL2Types[] = {kFloat32, kFloat16, kQuant8, kQuant8Signed};

Result<void> validateL2(const ValidationContext& context) {
  const uint32_t inputCount = context.inputCount() == 2 ? 2 : 1;
  ANNRT_RETURN_IF_ERROR(validateUnary(context, kL2Types, kMaxRank, inputCount));
  if (inputCount == 2) ANNRT_RETURN_IF_ERROR(validateScalars(context, 1, {OperandType::INT32}));
  const OperandType type = context.inputType(0);
  if (!isQuant8Tensor(type)) return {};
  return validateOutputQuantization(context, 1.0f / 128, type == kQuant8 ? 128 : 0);
}

template <typename T>
void l2NormalizeFloat(const T* in, T* out, size_t stride, size_t count) {
  constexpr float kMinNorm = 1e-6f;
  float sum = 0.0f;
  for (size_t k = 0; k < count; ++k) {
    const auto value = static_cast<float>(in[k * stride]);
    sum += value * value;
  }
  const float norm = std::max(std::sqrt(sum), kMinNorm);
  for (size_t k = 0; k < count; ++k) {
    out[k * stride] = static_cast<T>(static_cast<float>(in[k * stride]) / norm);
  }
}

// Output = 128 * (q - zero) / ||q - zero|| on the output scale of 1/128.
template <typename T>
void l2NormalizeQuantized(const T* in, T* out, size_t stride, size_t count, int32_t inputZero,
                          int32_t outputZero) {
  int64_t sum = 0;
  for (size_t k = 0; k < count; ++k) {
    const int64_t centered = static_cast<int32_t>(in[k * stride]) - inputZero;
    sum += centered * centered;
  }
  const QuantizedMultiplier inverseNorm = fixed_point::inverseSqrtMultiplier(
      static_cast<int32_t>(std::min<int64_t>(sum, std::numeric_limits<int32_t>::max())));
  for (size_t k = 0; k < count; ++k) {
    const int32_t centered = static_cast<int32_t>(in[k * stride]) - inputZero;
    out[k * stride] =
        saturateCast<T>(multiplyByQuantizedMultiplier(centered * 128, inverseNorm) + outputZero);
  }
}

Result<void> executeL2(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axis, axisInput(context, 1));
  const Slices slices = slicesAlong(context.inputShape(0).dims, axis);
  return dispatchOperandType<kFloat32, kFloat16, kQuant8, kQuant8Signed>(
      context.inputType(0), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (kComputesInFloat<T>) {
          return forEachSlice<T>(context, slices, l2NormalizeFloat<T>);
        } else {
          const int32_t inputZero = context.inputShape(0).zeroPoint;
          const int32_t outputZero = context.outputShape(0).zeroPoint;
          return forEachSlice<T>(
              context, slices, [=](const T* in, T* out, size_t stride, size_t count) {
                l2NormalizeQuantized(in, out, stride, count, inputZero, outputZero);
              });
        }
      });
}

// LOCAL_RESPONSE_NORMALIZATION ------------------------------------------------

Result<void> validateLrn(const ValidationContext& context) {
  const uint32_t inputCount = context.inputCount() == 6 ? 6 : 5;
  ANNRT_RETURN_IF_ERROR(validateUnary(context, kFloatTypes, kMaxRank, inputCount));
  const OperandType scalar = scalarTypeOf(context.inputType(0));
  ANNRT_RETURN_IF_ERROR(validateScalars(context, 1, {OperandType::INT32, scalar, scalar, scalar}));
  if (inputCount == 6) ANNRT_RETURN_IF_ERROR(validateScalars(context, 5, {OperandType::INT32}));
  return {};
}

struct LrnParams {
  int64_t radius = 0;
  float bias = 0.0f;
  float alpha = 0.0f;
  float beta = 0.0f;
};

template <typename T>
void localResponseNormalize(const T* in, T* out, size_t stride, size_t count, const LrnParams& p) {
  const auto size = static_cast<int64_t>(count);
  for (int64_t i = 0; i < size; ++i) {
    const int64_t begin = std::max<int64_t>(0, i - p.radius);
    const int64_t end = std::min<int64_t>(size, i + p.radius + 1);
    float sum = 0.0f;
    for (int64_t k = begin; k < end; ++k) {
      const auto value = static_cast<float>(in[k * stride]);
      sum += value * value;
    }
    const float multiplier = std::pow(p.bias + p.alpha * sum, -p.beta);
    out[i * stride] = static_cast<T>(static_cast<float>(in[i * stride]) * multiplier);
  }
}

Result<void> executeLrn(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axis, axisInput(context, 5));
  const Slices slices = slicesAlong(context.inputShape(0).dims, axis);
  const LrnParams params{.radius = context.scalar<int32_t>(1),
                         .bias = floatScalar(context, 2),
                         .alpha = floatScalar(context, 3),
                         .beta = floatScalar(context, 4)};
  return dispatchOperandType<kFloat32, kFloat16>(context.inputType(0), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return forEachSlice<T>(context, slices, [&](const T* in, T* out, size_t stride, size_t count) {
      localResponseNormalize(in, out, stride, count, params);
    });
  });
}

// INSTANCE_NORMALIZATION ------------------------------------------------------

Result<void> validateInstanceNorm(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateUnary(context, kFloatTypes, kMaxRank, 5));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(0), 4, "input"));
  const OperandType scalar = scalarTypeOf(context.inputType(0));
  return validateScalars(context, 1, {scalar, scalar, scalar, OperandType::BOOL});
}

Result<void> prepareInstanceNorm(ExecutionContext& context) {
  ANNRT_CHECK(rank(context.inputShape(0)) == 4, "input has rank {}, expected 4",
              rank(context.inputShape(0)));
  return prepareSameShape(context);
}

struct InstanceNormParams {
  float gamma = 0.0f;
  float beta = 0.0f;
  float epsilon = 0.0f;
};

template <typename T>
void instanceNormalize(const T* in, T* out, size_t stride, size_t count,
                       const InstanceNormParams& p) {
  float mean = 0.0f;
  for (size_t k = 0; k < count; ++k) mean += static_cast<float>(in[k * stride]);
  mean /= static_cast<float>(count);
  float variance = 0.0f;
  for (size_t k = 0; k < count; ++k) {
    const float centered = static_cast<float>(in[k * stride]) - mean;
    variance += centered * centered;
  }
  variance /= static_cast<float>(count);
  const float sigma = std::sqrt(variance + p.epsilon);
  for (size_t k = 0; k < count; ++k) {
    const float centered = static_cast<float>(in[k * stride]) - mean;
    out[k * stride] = static_cast<T>(centered * p.gamma / sigma + p.beta);
  }
}

Result<void> executeInstanceNorm(ExecutionContext& context) {
  const std::vector<uint32_t>& d = context.inputShape(0).dims;
  const bool nchw = context.scalar<uint8_t>(4) != 0;
  // One slice per batch and channel, over the spatial positions: contiguous
  // in NCHW, `channels` apart in NHWC (viewed as [N, H*W, C] along axis 1).
  const Slices slices =
      nchw ? slicesAlong({d[0] * d[1], d[2] * d[3]}, 1) : slicesAlong({d[0], d[1] * d[2], d[3]}, 1);
  const InstanceNormParams params{.gamma = floatScalar(context, 1),
                                  .beta = floatScalar(context, 2),
                                  .epsilon = floatScalar(context, 3)};
  return dispatchOperandType<kFloat32, kFloat16>(context.inputType(0), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return forEachSlice<T>(context, slices, [&](const T* in, T* out, size_t stride, size_t count) {
      instanceNormalize(in, out, stride, count, params);
    });
  });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::L2_NORMALIZATION,
     .name = "L2_NORMALIZATION",
     .validate = validateL2,
     .prepare = prepareWithAxis<1>,
     .execute = executeL2},
    {.type = OperationType::LOCAL_RESPONSE_NORMALIZATION,
     .name = "LOCAL_RESPONSE_NORMALIZATION",
     .validate = validateLrn,
     .prepare = prepareWithAxis<5>,
     .execute = executeLrn},
    {.type = OperationType::INSTANCE_NORMALIZATION,
     .name = "INSTANCE_NORMALIZATION",
     .validate = validateInstanceNorm,
     .prepare = prepareInstanceNorm,
     .execute = executeInstanceNorm},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::normalization
