// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/cpu_features.h"

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace annrt {
namespace {

#if defined(__x86_64__) || defined(__i386__)
struct Registers {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Registers cpuid(unsigned leaf, unsigned subleaf = 0) {
  Registers r;
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

// XCR0: the register states the OS saves on a context switch. Asked only
// where CPUID says the OS enabled XGETBV (OSXSAVE).
uint64_t enabledStates() {
  uint32_t low = 0, high = 0;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (uint64_t{high} << 32) | low;
}

bool bit(unsigned value, int n) {
  return ((value >> n) & 1u) != 0;
}

CpuFeatures readCpuFeatures() {
  CpuFeatures f;
  const unsigned maxLeaf = cpuid(0).eax;
  if (maxLeaf < 1) return f;
  const Registers one = cpuid(1);
  constexpr uint64_t kAvxStates = 0x6;      // SSE and AVX registers
  constexpr uint64_t kAvx512States = 0xe6;  // and the opmask and upper ZMM ones
  const uint64_t states = bit(one.ecx, 27) ? enabledStates() : 0;
  const bool avxState = (states & kAvxStates) == kAvxStates;
  const bool avx512State = (states & kAvx512States) == kAvx512States;
  f.pclmul = bit(one.ecx, 1);
  f.ssse3 = bit(one.ecx, 9);
  f.fma = bit(one.ecx, 12) && avxState;
  f.sse41 = bit(one.ecx, 19);
  f.sse42 = bit(one.ecx, 20);
  f.movbe = bit(one.ecx, 22);
  f.popcnt = bit(one.ecx, 23);
  f.avx = bit(one.ecx, 28) && avxState;
  f.f16c = bit(one.ecx, 29) && avxState;
  if (maxLeaf >= 7) {
    const Registers seven = cpuid(7, 0);
    f.bmi1 = bit(seven.ebx, 3);
    f.avx2 = bit(seven.ebx, 5) && avxState;
    f.bmi2 = bit(seven.ebx, 8);
    f.avx512f = bit(seven.ebx, 16) && avx512State;
    f.avx512dq = bit(seven.ebx, 17) && avx512State;
    f.avx512cd = bit(seven.ebx, 28) && avx512State;
    f.sha = bit(seven.ebx, 29);
    f.avx512bw = bit(seven.ebx, 30) && avx512State;
    f.avx512vl = bit(seven.ebx, 31) && avx512State;
    f.vpclmulqdq = bit(seven.ecx, 10) && avxState;
  }
  if (cpuid(0x80000000).eax >= 0x80000001) f.lzcnt = bit(cpuid(0x80000001).ecx, 5);
  return f;
}
#else
CpuFeatures readCpuFeatures() {
  return {};
}
#endif

}  // namespace

bool CpuFeatures::x86_64V3() const {
  return ssse3 && sse41 && sse42 && popcnt && avx && avx2 && fma && f16c && bmi1 && bmi2 && lzcnt &&
         movbe;
}

bool CpuFeatures::x86_64V4() const {
  return x86_64V3() && avx512f && avx512bw && avx512cd && avx512dq && avx512vl;
}

const CpuFeatures& cpuFeatures() {
  static const CpuFeatures features = readCpuFeatures();
  return features;
}

}  // namespace annrt
