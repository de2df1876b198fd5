// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "fma_peak.h"

#include <algorithm>
#include <chrono>
#include <cstddef>

namespace annrt::bench {
namespace {

// Twelve chains: more than an FMA's latency times the FMA ports of current
// x86 cores (4 x 2), so that the chains never wait on each other.
constexpr int kChains = 12;
constexpr long kRounds = 200000;

template <class Run>
double bestFlopsPerSecond(Run run, double flopsPerRound) {
  double best = 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const auto start = std::chrono::steady_clock::now();
    // Stored, so the chains are not optimized away.
    volatile const float sum = run(kRounds);
    (void)sum;
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    best = std::max(best, flopsPerRound * kRounds / seconds.count());
  }
  return best;
}

#if defined(__x86_64__) && defined(__GNUC__)
using Float8 = float __attribute__((vector_size(32)));
using Float16 = float __attribute__((vector_size(64)));

// Inlined into the callers below, whose target makes its multiply-adds
// (contracted: -ffp-contract=fast) FMAs of their vector width.
template <class Vec>
[[gnu::always_inline]] inline float chains(long rounds) {
  // Read at run time, so that no chain's result is known to the compiler.
  static volatile float seed = 1.0F;
  Vec acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = Vec{} + (seed + static_cast<float>(c));
  const Vec a = Vec{} + 0.999F, b = Vec{} + 0.001F;
  for (long r = 0; r < rounds; ++r) {
    for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * a + b;
  }
  for (int c = 1; c < kChains; ++c) acc[0] += acc[c];
  float sum = 0;
  for (size_t lane = 0; lane < sizeof(Vec) / sizeof(float); ++lane) sum += acc[0][lane];
  return sum;
}

__attribute__((target("avx512f"))) float chains512(long rounds) {
  return chains<Float16>(rounds);
}

__attribute__((target("avx2,fma"))) float chains256(long rounds) {
  return chains<Float8>(rounds);
}
#endif

// The chains in the widest vectors the host has.
struct Probe {
  float (*chains)(long rounds) = nullptr;  // null where no probe exists
  int lanes = 0;
  const char* vectors = "";
};

Probe hostProbe() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) return {chains512, 16, "AVX-512"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return {chains256, 8, "AVX2+FMA"};
  }
#endif
  return {};
}

}  // namespace

FmaPeak measureFmaPeak() {
  const Probe probe = hostProbe();
  if (probe.chains == nullptr) return {};
  return {bestFlopsPerSecond(probe.chains, 2.0 * probe.lanes * kChains), probe.vectors};
}

float runFmaChains(long rounds) {
  const Probe probe = hostProbe();
  return probe.chains != nullptr ? probe.chains(rounds) : 0;
}

}  // namespace annrt::bench
