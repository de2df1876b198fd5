// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// HARD_SWISH, LOGISTIC and the RELU family of float32 tensors, element by
// element, 16 a vector: activations that would otherwise each cut the
// native stages around them for one XNNPACK node (selfie segmentation's
// squeeze-and-excitation blocks; face_detection_full_range's RELUs of
// convolutions that are not the operation before them, so not folded).
// LOGISTIC is 1 / (1 + e^-x) with e^x as 2^n times a polynomial of the
// remainder (n the nearest integer to x log2(e), the remainder x - n ln(2)
// taken in two parts), within a few ulp of std::exp.
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

ANNRT_NATIVE_VARIANTS(clampRange,
                      (const float* in, float* out, size_t count, float low, float high), {
                        const Float16 lows = splatVector<Float16>(low);
                        const Float16 highs = splatVector<Float16>(high);
                        mapRange(in, out, count,
                                 [&](Float16 x) { return clampVector(x, lows, highs); });
                      })

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

// RELU, RELU1 or RELU6 that no operation before it took in.
class ClampKernel final : public NativeKernel {
 public:
  ClampKernel(const Operation& op, OutputRange range, size_t elements)
      : NativeKernel({op.inputs[0]}, op.outputs[0], NativeForm::CLAMP),
        range_(range),
        clamp_(clampRange[nativeCodeIsa()]),
        elements_(elements) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    parallelizeTiles(pool, elements_, kNativeTaskFloats, [&](size_t start, size_t count) {
      clamp_(inputs[0] + start, output + start, count, range_.min, range_.max);
    });
  }

 private:
  // The fusion plan folds no clamp into a RELU (fusion.h); were it to, the
  // ranges would meet.
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  OutputRange range_;
  void (*clamp_)(const float*, float*, size_t, float, float);
  size_t elements_;
};

Result<void> checkElementwise(const LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 1 && op.outputs.size() == 1, "unexpected operands");
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  ANNRT_CPU_REQUIRE(context.input(op, 0).shape.dims == context.output(op, 0).shape.dims,
                    "the output's dims differ from the input's");
  return {};
}

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeUnary(LoweringContext& context,
                                                      const Operation& op) {
  ANNRT_RETURN_IF_ERROR(checkElementwise(context, op));
  const size_t elements = elementCount(context.input(op, 0).shape);
  if (const std::optional<OutputRange> range = reluRange(op.type)) {
    return std::unique_ptr<NativeKernel>(new ClampKernel(op, *range, elements));
  }
  const bool hardSwish = op.type == OperationType::HARD_SWISH;
  ANNRT_CPU_REQUIRE(hardSwish || op.type == OperationType::LOGISTIC, "no native kernel for {}",
                    operationTypeName(op.type));
  ANNRT_CPU_REQUIRE(hardSwish || elements <= kLogisticMaxElements,
                    "a LOGISTIC of {} elements: the native one takes at most {}", elements,
                    kLogisticMaxElements);
  const NativeIsa isa = nativeCodeIsa();
  return std::unique_ptr<NativeKernel>(
      new UnaryKernel(op, hardSwish ? NativeForm::HARD_SWISH : NativeForm::LOGISTIC,
                      hardSwish ? hardSwishRange[isa] : logisticRange[isa], elements));
}

}  // namespace annrt::cpu
