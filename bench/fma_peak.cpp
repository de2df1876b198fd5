// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "fma_peak.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace annrt::bench {
namespace {

#if defined(__x86_64__) && defined(__GNUC__)
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
    volatile const float sum = run();
    (void)sum;
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    best = std::max(best, flopsPerRound * kRounds / seconds.count());
  }
  return best;
}

__attribute__((target("avx512f"))) float chains512() {
  __m512 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm512_set1_ps(static_cast<float>(c));
  const __m512 a = _mm512_set1_ps(0.999F), b = _mm512_set1_ps(0.001F);
  for (long r = 0; r < kRounds; ++r) {
    for (int c = 0; c < kChains; ++c) acc[c] = _mm512_fmadd_ps(acc[c], a, b);
  }
  for (int c = 1; c < kChains; ++c) acc[0] = _mm512_add_ps(acc[0], acc[c]);
  float lanes[16];
  _mm512_storeu_ps(lanes, acc[0]);
  float sum = 0;
  for (float lane : lanes) sum += lane;
  return sum;
}

__attribute__((target("avx2,fma"))) float chains256() {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_ps(static_cast<float>(c));
  const __m256 a = _mm256_set1_ps(0.999F), b = _mm256_set1_ps(0.001F);
  for (long r = 0; r < kRounds; ++r) {
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], a, b);
  }
  for (int c = 1; c < kChains; ++c) acc[0] = _mm256_add_ps(acc[0], acc[c]);
  float lanes[8];
  _mm256_storeu_ps(lanes, acc[0]);
  float sum = 0;
  for (float lane : lanes) sum += lane;
  return sum;
}
#endif

}  // namespace

FmaPeak measureFmaPeak() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) {
    return {bestFlopsPerSecond(chains512, 2.0 * 16 * kChains), "AVX-512"};
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return {bestFlopsPerSecond(chains256, 2.0 * 8 * kChains), "AVX2+FMA"};
  }
#endif
  return {};
}

}  // namespace annrt::bench
