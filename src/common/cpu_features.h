// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The instruction-set features of the x86 CPU this process runs on, read
// from CPUID once, on first use, and only the leaves annrt needs. Every
// check of the CPU in annrt asks here: under a hypervisor each CPUID
// instruction traps, and the checks that each read CPUID themselves, plus
// libgcc's reader behind __builtin_cpu_supports (a constructor run at
// every load), had made CPUID a visible part of a warm start. Elsewhere
// every feature is false.
#pragma once

namespace annrt {

struct CpuFeatures {
  // Leaf 1 (AVX, FMA and F16C only where the OS saves the AVX state).
  bool ssse3 = false, sse41 = false, sse42 = false, popcnt = false, pclmul = false, movbe = false,
       avx = false, fma = false, f16c = false;
  // Leaf 7 (the AVX-512 ones only where the OS saves the AVX-512 state).
  bool avx2 = false, bmi1 = false, bmi2 = false, sha = false, vpclmulqdq = false, avx512f = false,
       avx512bw = false, avx512cd = false, avx512dq = false, avx512vl = false;
  // Leaf 0x80000001.
  bool lzcnt = false;

  // What -march=x86-64-v3 (AVX2 + FMA) and x86-64-v4 (AVX-512) let a
  // compiler use.
  bool x86_64V3() const;
  bool x86_64V4() const;
};

const CpuFeatures& cpuFeatures();

}  // namespace annrt
