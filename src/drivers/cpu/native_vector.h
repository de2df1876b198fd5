// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Eight or sixteen floats as one value for annrt-cpu's own kernels
// (native_kernel.h): Float8 is an AVX register in the code built for
// x86-64-v3 or v4, two SSE or NEON registers elsewhere; Float16 an AVX-512
// register in the x86-64-v4 code, two AVX registers in the v3 one. Hot loops
// are built once per instruction set (ANNRT_NATIVE_VARIANTS) and a kernel
// calls the variant of the instruction set native_kernel_table.h selects.
#pragma once

#include <cstring>

#include "drivers/cpu/native_kernel_table.h"

namespace annrt::cpu {

// One hot loop's variants, by instruction set (NEON runs the baseline code,
// built for aarch64).
template <class Function>
struct NativeVariants {
  Function baseline, avx2, avx512;
  Function operator[](NativeIsa isa) const {
    switch (isa) {
      case NativeIsa::AVX2: return avx2;
      case NativeIsa::AVX512: return avx512;
      default: return baseline;
    }
  }
};

// Defines `name`, the NativeVariants of the function `void (params) body`,
// the whole body inlined into each variant.
#if ANNRT_NATIVE_VARIANTS_BUILT
#define ANNRT_NATIVE_VARIANTS(name, params, ...)                                                 \
  [[gnu::flatten]] void name##Baseline params __VA_ARGS__ __attribute__((                        \
      target("arch=x86-64-v3")))                                                                 \
  [[gnu::flatten]] void name##Avx2 params __VA_ARGS__ __attribute__((target("arch=x86-64-v4")))  \
  [[gnu::flatten]] void name##Avx512 params __VA_ARGS__ constexpr NativeVariants<void(*) params> \
      name{name##Baseline, name##Avx2, name##Avx512};
#else
#define ANNRT_NATIVE_VARIANTS(name, params, ...)                                                   \
  [[gnu::flatten]] void name##Baseline params __VA_ARGS__ constexpr NativeVariants<void(*) params> \
      name{name##Baseline, nullptr, nullptr};
#endif

// Defines `name`, the NativeVariants of the function `void (params)` that
// calls fn<Vec> args, Vec the widest vector the variant's registers hold:
// Float16 in the x86-64-v4 code, Float8 elsewhere. (GCC 12 turns a
// conditional on a vector wider than the registers into one select per
// lane, so a Float16 clamp in the AVX2 code ran 6-7x slower than XNNPACK.)
// NOLINTBEGIN(bugprone-macro-parentheses): params and args are parenthesized lists.
#if ANNRT_NATIVE_VARIANTS_BUILT
#define ANNRT_NATIVE_WIDTH_VARIANTS(name, fn, params, args)                             \
  [[gnu::flatten]] void name##Baseline params {                                         \
    fn<Float8> args;                                                                    \
  }                                                                                     \
  [[gnu::flatten]] __attribute__((target("arch=x86-64-v3"))) void name##Avx2 params {   \
    fn<Float8> args;                                                                    \
  }                                                                                     \
  [[gnu::flatten]] __attribute__((target("arch=x86-64-v4"))) void name##Avx512 params { \
    fn<Float16> args;                                                                   \
  }                                                                                     \
  constexpr NativeVariants<void(*) params> name{name##Baseline, name##Avx2, name##Avx512};
#else
#define ANNRT_NATIVE_WIDTH_VARIANTS(name, fn, params, args) \
  [[gnu::flatten]] void name##Baseline params {             \
    fn<Float8> args;                                        \
  }                                                         \
  constexpr NativeVariants<void(*) params> name{name##Baseline, nullptr, nullptr};
#endif
// NOLINTEND(bugprone-macro-parentheses)

// Defines `name`, the NativeVariants of a function only the x86-64-v4 code
// runs (blocked for AVX-512's 32 registers; picked only where
// nativeWideVectors): the other levels' entries are null, and the function
// is not built for them.
#if ANNRT_NATIVE_VARIANTS_BUILT
#define ANNRT_NATIVE_AVX512_ONLY(name, params, ...)                                   \
  [[gnu::flatten]] __attribute__((target("arch=x86-64-v4"))) void name##Avx512 params \
      __VA_ARGS__ constexpr NativeVariants<void(*) params>                            \
          name{nullptr, nullptr, name##Avx512};
#else
#define ANNRT_NATIVE_AVX512_ONLY(name, params, ...) \
  constexpr NativeVariants<void(*) params> name{nullptr, nullptr, nullptr};
#endif

// Whether kernels made now run the x86-64-v4 code, with 32 registers of 16
// floats; they size their blocks of sums by it (elsewhere a Float16 takes
// two AVX registers of 16, or four NEON ones of 32).
inline bool nativeWideVectors() {
  return nativeCodeIsa() == NativeIsa::AVX512;
}

using Float4 = float __attribute__((vector_size(16)));
using Float8 = float __attribute__((vector_size(32)));
using Float16 = float __attribute__((vector_size(64)));

// Floats in a vector of type Vec.
template <class Vec>
inline constexpr int kLanes = sizeof(Vec) / sizeof(float);

template <class Vec>
[[gnu::always_inline]] inline Vec loadVector(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class Vec>
[[gnu::always_inline]] inline void storeVector(float* p, Vec v) {
  std::memcpy(p, &v, sizeof v);
}

// x in every lane, written as an initializer of equal lanes: GCC makes it
// one broadcast, folded into a multiply-add reading x from memory. (Lane 0
// of a Float4 shuffled across went through the stack for 16 lanes, a
// store-forwarding stall per splat, and cost two extra moves for 8.)
template <class Vec>
[[gnu::always_inline]] inline Vec splatVector(float x) {
  if constexpr (kLanes<Vec> == 8) {
    return Vec{x, x, x, x, x, x, x, x};
  } else {
    return Vec{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
  }
}

// NaN stays NaN, as with the separate comparisons of NNAPI's clamps.
template <class Vec>
[[gnu::always_inline]] inline Vec clampVector(Vec v, Vec lo, Vec hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

[[gnu::always_inline]] inline Float8 load8(const float* p) {
  return loadVector<Float8>(p);
}

[[gnu::always_inline]] inline void store8(float* p, Float8 v) {
  storeVector(p, v);
}

[[gnu::always_inline]] inline Float8 splat8(float x) {
  return splatVector<Float8>(x);
}

[[gnu::always_inline]] inline Float8 clamp8(Float8 v, Float8 lo, Float8 hi) {
  return clampVector(v, lo, hi);
}

// One float, clamped as clamp8 clamps eight.
[[gnu::always_inline]] inline float clamp1(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

// Lane i of the result: the sum of the lanes of the i-th vector, by three
// pairwise additions of shuffled halves (cheaper than four sum8).
[[gnu::always_inline]] inline Float4 sum8x4(Float8 a, Float8 b, Float8 c, Float8 d) {
  auto pairs = [](Float8 x, Float8 y) {  // x0+x1, x2+x3, y0+y1, y2+y3, then lanes 4-7
    return __builtin_shufflevector(x, y, 0, 2, 8, 10, 4, 6, 12, 14) +
           __builtin_shufflevector(x, y, 1, 3, 9, 11, 5, 7, 13, 15);
  };
  const Float8 all = pairs(pairs(a, b), pairs(c, d));  // a0-3, b0-3, c0-3, d0-3, a4-7, ...
  return __builtin_shufflevector(all, all, 0, 1, 2, 3) +
         __builtin_shufflevector(all, all, 4, 5, 6, 7);
}

// `v` in both halves of a vector of 16: [v, v] (a broadcast load where `v`
// is loaded).
[[gnu::always_inline]] inline Float16 twice(Float8 v) {
  return __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
}

[[gnu::always_inline]] inline float sum8(Float8 v) {
  return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

}  // namespace annrt::cpu
