// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// HARD_SWISH, LOGISTIC and the RELU family of float32 tensors, element by
// element, a register a time (16 floats in AVX-512's code, 8 elsewhere):
// activations that would otherwise each cut the native stages around them
// for one XNNPACK node (selfie segmentation's squeeze-and-excitation
// blocks; face_detection_full_range's RELUs of convolutions that are not
// the operation before them, so not folded).
// LOGISTIC is 1 / (1 + e^-x) with e^x as 2^n times a polynomial of the
// remainder (n the nearest integer to x log2(e), the remainder x - n ln(2)
// taken in two parts), within a few ulp of std::exp; AVX-512 has its own
// (logisticAvx512), with a table of 2^(k/32).
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <array>

#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_kernel_table.h"
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

// The largest LOGISTIC taken: larger ones XNNPACK computes faster
// (native_kernel_table.cpp).
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

// As e / (1 + e), e = e^-|x|, and 1 minus that where x is positive, as
// logisticAvx512: 1 / (1 + e^-x) of a large negative x divides by a huge
// number into the subnormal floats, which take many times as long (65,536
// values of +-100: 84 us against 38 for +-1 on Zen 3), and segmentation
// logits reach there. expVector stops at -87, so the result for an x below
// it is e^-87 / (1 + e^-87) (1.6e-38: 0 within any tolerance) rather than a
// subnormal; NaN stays NaN.
template <class Vec>
[[gnu::always_inline]] inline Vec logisticVector(Vec x) {
  using Ints = typename IntsOf<Vec>::type;
  const Vec one = splatVector<Vec>(1.0f);
  const Vec e = expVector((Vec)((Ints)x | INT32_MIN));
  const Vec f = e / (one + e);
  return x > splatVector<Vec>(0.0f) ? one - f : f;
}

// f over `count` elements, a Vec at a time, the last ones through a zeroed
// Vec.
template <class Vec, class F>
[[gnu::always_inline]] inline void mapRange(const float* in, float* out, size_t count, F f) {
  constexpr size_t kWidth = kLanes<Vec>;
  size_t i = 0;
  for (; i + 4 * kWidth <= count; i += 4 * kWidth) {
    const Vec a = loadVector<Vec>(in + i), b = loadVector<Vec>(in + i + kWidth);
    const Vec c = loadVector<Vec>(in + i + 2 * kWidth), d = loadVector<Vec>(in + i + 3 * kWidth);
    storeVector(out + i, f(a));
    storeVector(out + i + kWidth, f(b));
    storeVector(out + i + 2 * kWidth, f(c));
    storeVector(out + i + 3 * kWidth, f(d));
  }
  for (; i + kWidth <= count; i += kWidth) {
    storeVector(out + i, f(loadVector<Vec>(in + i)));
  }
  if (i < count) {
    float tail[kWidth] = {};
    for (size_t k = i; k < count; ++k) tail[k - i] = in[k];
    const Vec mapped = f(loadVector<Vec>(tail));
    for (size_t k = i; k < count; ++k) out[k] = mapped[k - i];
  }
}

template <class Vec>
[[gnu::always_inline]] inline void hardSwishOf(const float* in, float* out, size_t count) {
  mapRange<Vec>(in, out, count, [](Vec x) { return hardSwishVector(x); });
}

template <class Vec>
[[gnu::always_inline]] inline void logisticOf(const float* in, float* out, size_t count) {
  mapRange<Vec>(in, out, count, [](Vec x) { return logisticVector(x); });
}

template <class Vec>
[[gnu::always_inline]] inline void clampOf(const float* in, float* out, size_t count, float low,
                                           float high) {
  const Vec lows = splatVector<Vec>(low);
  const Vec highs = splatVector<Vec>(high);
  mapRange<Vec>(in, out, count, [&](Vec x) { return clampVector(x, lows, highs); });
}

ANNRT_NATIVE_WIDTH_VARIANTS(hardSwishRange, hardSwishOf,
                            (const float* in, float* out, size_t count), (in, out, count))

ANNRT_NATIVE_WIDTH_VARIANTS(portableLogisticRange, logisticOf,
                            (const float* in, float* out, size_t count), (in, out, count))

ANNRT_NATIVE_WIDTH_VARIANTS(clampRange, clampOf,
                            (const float* in, float* out, size_t count, float low, float high),
                            (in, out, count, low, high))

#if ANNRT_NATIVE_VARIANTS_BUILT
// 2^(k/32), k = 0..31: the two halves of AVX-512's two-register permute.
constexpr std::array<float, 32> kExp2Fractions = {
    1.0f,        1.0218972f,  1.04427373f, 1.06714046f, 1.09050775f, 1.1143868f,  1.13878858f,
    1.1637249f,  1.18920708f, 1.21524739f, 1.24185777f, 1.26905096f, 1.29683959f, 1.32523668f,
    1.35425556f, 1.38390994f, 1.41421354f, 1.44518077f, 1.47682619f, 1.50916445f, 1.54221082f,
    1.5759809f,  1.61049032f, 1.64575553f, 1.68179286f, 1.71861935f, 1.75625217f, 1.79470909f,
    1.8340081f,  1.87416768f, 1.91520655f, 1.95714414f};

// The masked forms of max and scalef: GCC 12 warns that the plain ones'
// undefined source vector may be used uninitialized.
constexpr __mmask16 kAllLanes = 0xffff;

// LOGISTIC of 16 floats as f = e / (1 + e), e = e^-|x|, and 1 - f where x
// is positive (e never overflows). e^z is 2^n * 2^(k/32) * p(r): one
// multiply-add by log2(e) plus a bias of 1.5 * 2^18 rounds z log2(e) to
// 1/32 and leaves k in the low mantissa bits (a table permute), the
// remainder r = z - (n + k/32) ln(2) (two parts) is within ln(2)/64, where
// 1 + c1 r + c2 r^2 (least maximum relative error, 5.3e-8) is enough, and
// scalef multiplies by 2^n: fewer multiply-adds than the portable code's
// degree-6 polynomial, which bounded how fast it ran. Below -87, where e^z
// nears the subnormal floats, -|x| is raised to -87 and f set to 0 (so -inf
// gives 0 and +inf 1, not NaN): arithmetic on subnormals takes many times as
// long, and segmentation logits reach there.
[[gnu::target("arch=x86-64-v4")]] inline __m512 logisticAvx512(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 bias = _mm512_set1_ps(393216.0f);
  const __m512 low = _mm512_loadu_ps(kExp2Fractions.data());
  const __m512 high = _mm512_loadu_ps(kExp2Fractions.data() + 16);
  const __m512 negativeAbs =
      _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN)));
  const __m512 cutoff = _mm512_set1_ps(-87.0f);  // e^-87 is 1.4 times the smallest normal float
  const __m512 z = _mm512_maskz_max_ps(kAllLanes, cutoff, negativeAbs);
  __m512 n = _mm512_fmadd_ps(z, _mm512_set1_ps(1.44269504088896341f), bias);
  const __m512 fraction = _mm512_permutex2var_ps(low, _mm512_castps_si512(n), high);
  n = _mm512_sub_ps(n, bias);
  __m512 r = _mm512_fmadd_ps(n, _mm512_set1_ps(-0.693145751953125f), z);
  r = _mm512_fmadd_ps(n, _mm512_set1_ps(-1.42860682030941723e-6f), r);
  const __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(0.500000179f), r, _mm512_set1_ps(1.00001466f));
  const __m512 e = _mm512_maskz_scalef_ps(
      kAllLanes, _mm512_fmadd_ps(_mm512_mul_ps(r, fraction), p, fraction), n);
  const __mmask16 normal = _mm512_cmp_ps_mask(negativeAbs, cutoff, _CMP_NLT_UQ);  // NaN too
  const __m512 f = _mm512_maskz_div_ps(normal, e, _mm512_add_ps(e, one));
  const __mmask16 positive = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
  return _mm512_mask_sub_ps(f, positive, one, f);
}

// Four vectors a step, so that their dependency chains overlap.
[[gnu::target("arch=x86-64-v4")]] void logisticRangeAvx512(const float* in, float* out,
                                                           size_t count) {
  size_t i = 0;
  for (; i + 64 <= count; i += 64) {
    const __m512 a = logisticAvx512(_mm512_loadu_ps(in + i));
    const __m512 b = logisticAvx512(_mm512_loadu_ps(in + i + 16));
    const __m512 c = logisticAvx512(_mm512_loadu_ps(in + i + 32));
    const __m512 d = logisticAvx512(_mm512_loadu_ps(in + i + 48));
    _mm512_storeu_ps(out + i, a);
    _mm512_storeu_ps(out + i + 16, b);
    _mm512_storeu_ps(out + i + 32, c);
    _mm512_storeu_ps(out + i + 48, d);
  }
  for (; i < count; i += 16) {
    const auto mask = static_cast<__mmask16>(count - i >= 16 ? 0xffff : (1u << (count - i)) - 1);
    _mm512_mask_storeu_ps(out + i, mask, logisticAvx512(_mm512_maskz_loadu_ps(mask, in + i)));
  }
}

constexpr NativeVariants<ActivationRange> logisticRange{
    portableLogisticRange.baseline, portableLogisticRange.avx2, logisticRangeAvx512};
#else
constexpr NativeVariants<ActivationRange> logisticRange = portableLogisticRange;
#endif

class UnaryKernel final : public NativeKernel {
 public:
  UnaryKernel(const Operation& op, NativeForm form, ActivationRange range, size_t elements)
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

  ActivationRange range_;
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

ActivationRange nativeActivation(OperationType type) {
  switch (type) {
    case OperationType::HARD_SWISH: return hardSwishRange[nativeCodeIsa()];
    case OperationType::LOGISTIC: return logisticRange[nativeCodeIsa()];
    default: return nullptr;
  }
}

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
  ANNRT_CPU_REQUIRE(
      hardSwish || elements <= kLogisticMaxElements || nativeKernelMode() == NativeKernelMode::ALL,
      "a LOGISTIC of {} elements: the native one takes at most {}", elements, kLogisticMaxElements);
  return std::unique_ptr<NativeKernel>(
      new UnaryKernel(op, hardSwish ? NativeForm::HARD_SWISH : NativeForm::LOGISTIC,
                      nativeActivation(op.type), elements));
}

}  // namespace annrt::cpu
