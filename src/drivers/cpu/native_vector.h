// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Eight floats as one value for annrt-cpu's own kernels (native_kernel.h):
// an AVX register where the kernel's clone is built for x86-64-v3, two SSE
// or NEON registers elsewhere. Hot loops are built once per instruction set
// (ANNRT_NATIVE_CLONES) and the best the CPU runs is picked at load time.
#pragma once

#include <cstring>

namespace annrt::cpu {

// Not under the sanitizers: the clones are picked by an ifunc resolver, which
// runs while the program is being relocated, before the sanitizer runtime is
// up, and its instrumented code crashed there (ThreadSanitizer, at start-up).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define ANNRT_NATIVE_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ANNRT_NATIVE_CLONES
#endif

using Float8 = float __attribute__((vector_size(32)));

[[gnu::always_inline]] inline Float8 load8(const float* p) {
  Float8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

[[gnu::always_inline]] inline void store8(float* p, Float8 v) {
  std::memcpy(p, &v, sizeof v);
}

[[gnu::always_inline]] inline Float8 splat8(float x) {
  return Float8{} + x;
}

// NaN stays NaN, as with the separate comparisons of NNAPI's clamps.
[[gnu::always_inline]] inline Float8 clamp8(Float8 v, Float8 lo, Float8 hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

// One float, clamped as clamp8 clamps eight.
[[gnu::always_inline]] inline float clamp1(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

[[gnu::always_inline]] inline float sum8(Float8 v) {
  return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

}  // namespace annrt::cpu
