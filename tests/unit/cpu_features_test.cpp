// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/cpu_features.h"

#include <gtest/gtest.h>

namespace annrt {
namespace {

#if defined(__x86_64__)
// The compiler's own reader (libgcc's or compiler-rt's) checks the same
// CPUID bits and OS-saved states; both must agree on every feature they
// both name.
TEST(CpuFeaturesTest, AgreesWithTheCompilersReader) {
  const CpuFeatures& cpu = cpuFeatures();
  EXPECT_EQ(cpu.ssse3, __builtin_cpu_supports("ssse3") != 0);
  EXPECT_EQ(cpu.sse41, __builtin_cpu_supports("sse4.1") != 0);
  EXPECT_EQ(cpu.sse42, __builtin_cpu_supports("sse4.2") != 0);
  EXPECT_EQ(cpu.popcnt, __builtin_cpu_supports("popcnt") != 0);
  EXPECT_EQ(cpu.pclmul, __builtin_cpu_supports("pclmul") != 0);
  EXPECT_EQ(cpu.avx, __builtin_cpu_supports("avx") != 0);
  EXPECT_EQ(cpu.fma, __builtin_cpu_supports("fma") != 0);
  EXPECT_EQ(cpu.avx2, __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(cpu.bmi1, __builtin_cpu_supports("bmi") != 0);
  EXPECT_EQ(cpu.bmi2, __builtin_cpu_supports("bmi2") != 0);
  EXPECT_EQ(cpu.vpclmulqdq, __builtin_cpu_supports("vpclmulqdq") != 0);
  EXPECT_EQ(cpu.avx512f, __builtin_cpu_supports("avx512f") != 0);
  EXPECT_EQ(cpu.avx512bw, __builtin_cpu_supports("avx512bw") != 0);
  EXPECT_EQ(cpu.avx512cd, __builtin_cpu_supports("avx512cd") != 0);
  EXPECT_EQ(cpu.avx512dq, __builtin_cpu_supports("avx512dq") != 0);
  EXPECT_EQ(cpu.avx512vl, __builtin_cpu_supports("avx512vl") != 0);
#if !defined(__clang__)
  // GCC 12 knows the levels, F16C, MOVBE and SHA; LZCNT only within the
  // levels (x86-64-v3 requires it).
  EXPECT_EQ(cpu.f16c, __builtin_cpu_supports("f16c") != 0);
  EXPECT_EQ(cpu.movbe, __builtin_cpu_supports("movbe") != 0);
  EXPECT_EQ(cpu.sha, __builtin_cpu_supports("sha") != 0);
  EXPECT_EQ(cpu.x86_64V3(), __builtin_cpu_supports("x86-64-v3") != 0);
  EXPECT_EQ(cpu.x86_64V4(), __builtin_cpu_supports("x86-64-v4") != 0);
#endif
}

TEST(CpuFeaturesTest, LevelsNest) {
  const CpuFeatures& cpu = cpuFeatures();
  if (cpu.x86_64V4()) {
    EXPECT_TRUE(cpu.x86_64V3());
  }
  if (cpu.x86_64V3()) {
    EXPECT_TRUE(cpu.avx2 && cpu.fma && cpu.f16c && cpu.lzcnt);
  }
  // Every x86-64 CPU annrt's tests run on has SSE4.2 (x86-64-v2, 2009).
  EXPECT_TRUE(cpu.sse42);
}
#else
TEST(CpuFeaturesTest, NoX86FeaturesElsewhere) {
  const CpuFeatures& cpu = cpuFeatures();
  EXPECT_FALSE(cpu.sse42 || cpu.avx || cpu.avx2 || cpu.avx512f || cpu.x86_64V3());
}
#endif

}  // namespace
}  // namespace annrt
