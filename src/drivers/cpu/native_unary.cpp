// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// HARD_SWISH and LOGISTIC of float32 tensors, element by element, 16 a
// vector: the activations of selfie segmentation's squeeze-and-excitation
// blocks, which otherwise each cut the native stages around them for one
// XNNPACK node. LOGISTIC is 1 / (1 + e^-x) with e^x as 2^n times a
// polynomial of the remainder (n the nearest integer to x log2(e), the
// remainder x - n ln(2) taken in two parts), within a few ulp of std::exp.
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

// The integer vector of Vec's width.
template <class Vec>
struct IntsOf {
  typedef int32_t type __attribute__((vector_size(sizeof(Vec))));
};

// The largest LOGISTIC taken: larger ones XNNPACK computes faster (its
// reciprocal is an estimate refined by Newton steps; this one divides).
constexpr size_t kLogisticMaxElements = 4096;

// e^x, x clamped to [-87, 88] (2^n stays a normal float).
template <class Vec>
[[gnu::always_inline]] inline Vec expVector(Vec x) {
  using Ints = typename IntsOf<Vec>::type;
  x = clampVector(x, splatVector<Vec>(-87.0f), splatVector<Vec>(88.0f));
  const Vec magic = splatVector<Vec>(12582912.0f);  // 1.5 * 2^23: adding it rounds to an integer
  const Vec shifted = x * splatVector<Vec>(1.44269504088896341f) + magic;
  const Vec n = shifted - magic;
  const Vec r = (x - n * splatVector<Vec>(0.693145751953125f)) -
                n * splatVector<Vec>(1.42860682030941723e-6f);
  // Taylor to r^6: |r| <= ln(2) / 2, so the first term left out is below
  // 3.5e-7 of the result.
  Vec p = splatVector<Vec>(1.0f / 720);
  p = p * r + splatVector<Vec>(1.0f / 120);
  p = p * r + splatVector<Vec>(1.0f / 24);
  p = p * r + splatVector<Vec>(1.0f / 6);
  p = p * r + splatVector<Vec>(0.5f);
  p = p * r + splatVector<Vec>(1.0f);
  p = p * r + splatVector<Vec>(1.0f);
  // The integer n sits in the low bits of `shifted`; 2^n is its exponent.
  const Ints exponent = ((Ints)shifted - (Ints)magic + 127) << 23;
  return p * (Vec)exponent;
}

template <class Vec>
[[gnu::always_inline]] inline Vec hardSwishVector(Vec x) {
  const Vec clamped =
      clampVector(x + splatVector<Vec>(3.0f), splatVector<Vec>(0.0f), splatVector<Vec>(6.0f));
  return x * clamped * splatVector<Vec>(1.0f / 6);
}

template <class Vec>
[[gnu::always_inline]] inline Vec logisticVector(Vec x) {
  const Vec one = splatVector<Vec>(1.0f);
  return one / (one + expVector(-x));
}

// f over `count` elements, 16 a vector, the last ones through a zeroed
// vector of 16.
template <class F>
[[gnu::always_inline]] inline void mapRange(const float* in, float* out, size_t count, F f) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    storeVector(out + i, f(loadVector<Float16>(in + i)));
  }
  if (i < count) {
    float tail[16] = {};
    for (size_t k = i; k < count; ++k) tail[k - i] = in[k];
    const Float16 mapped = f(loadVector<Float16>(tail));
    for (size_t k = i; k < count; ++k) out[k] = mapped[k - i];
  }
}

ANNRT_NATIVE_VARIANTS(hardSwishRange, (const float* in, float* out, size_t count),
                      { mapRange(in, out, count, hardSwishVector<Float16>); })

ANNRT_NATIVE_VARIANTS(logisticRange, (const float* in, float* out, size_t count),
                      { mapRange(in, out, count, logisticVector<Float16>); })

class UnaryKernel final : public NativeKernel {
 public:
  using Range = void (*)(const float*, float*, size_t);

  UnaryKernel(const Operation& op, NativeForm form, Range range, size_t elements)
      : NativeKernel({op.inputs[0]}, op.outputs[0], form), range_(range), elements_(elements) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    parallelizeTiles(pool, elements_, kNativeTaskFloats, [&](size_t start, size_t count) {
      range_(inputs[0] + start, output + start, count);
    });
  }

 private:
  // No activation: the planner folds clamps only into the operations
  // XNNPACK would fold them into (fusion.h), neither of these.
  void narrow(const OutputRange&) override {}

  Range range_;
  size_t elements_;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeUnary(LoweringContext& context,
                                                      const Operation& op) {
  const bool hardSwish = op.type == OperationType::HARD_SWISH;
  ANNRT_CPU_REQUIRE(hardSwish || op.type == OperationType::LOGISTIC, "no native kernel for {}",
                    operationTypeName(op.type));
  ANNRT_CPU_REQUIRE(op.inputs.size() == 1 && op.outputs.size() == 1, "unexpected operands");
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  const Shape& input = context.input(op, 0).shape;
  ANNRT_CPU_REQUIRE(input.dims == context.output(op, 0).shape.dims,
                    "the output's dims differ from the input's");
  ANNRT_CPU_REQUIRE(hardSwish || elementCount(input) <= kLogisticMaxElements,
                    "a LOGISTIC of {} elements: the native one takes at most {}",
                    elementCount(input), kLogisticMaxElements);
  const NativeIsa isa = nativeCodeIsa();
  return std::unique_ptr<NativeKernel>(
      new UnaryKernel(op, hardSwish ? NativeForm::HARD_SWISH : NativeForm::LOGISTIC,
                      hardSwish ? hardSwishRange[isa] : logisticRange[isa], elementCount(input)));
}

}  // namespace annrt::cpu
