// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What checking and keying a cache entry costs per byte: CRC-32C (every
// kernel this CPU runs), hash128 (model contents, every kernel) and SHA-256 (keys and model
// structure; SHA-NI and portable), on a 20 MB buffer (a large model's
// payload), and CRC-32C of 5 and 20 MB on one thread against shared with a
// second (crc32cSplit, side_thread.h).
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/crc32c.h"
#include "runtime/hash128.h"
#include "runtime/sha256.h"
#include "runtime/sha256_blocks.h"

namespace {

using namespace annrt::runtime;

const std::vector<uint8_t>& payload() {
  static const std::vector<uint8_t> bytes = [] {
    std::vector<uint8_t> v(20 << 20);
    std::mt19937 random(1);
    for (uint8_t& b : v) b = static_cast<uint8_t>(random());
    return v;
  }();
  return bytes;
}

template <typename F>
void perByte(benchmark::State& state, F f) {
  const auto& bytes = payload();
  for (auto _ : state) benchmark::DoNotOptimize(f(std::span<const uint8_t>(bytes)));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}

// Crc32c/<kernel>: every kernel this CPU runs (crc32c uses the last one).
void Crc32c(benchmark::State& state, Crc32cKernel kernel) {
  perByte(state, [kernel](auto bytes) { return crc32cWith(kernel, 0, bytes); });
}
// Hash128/<kernel>: every kernel this CPU runs (hash128 uses the last one).
void Hash128Of(benchmark::State& state, Hash128Kernel kernel) {
  perByte(state, [kernel](auto bytes) { return hash128With(kernel, bytes); });
}
// The first `state.range(0)` KB of the payload, on the calling thread alone
// (`shared` false) or shared with a thread of its own (crc32cSplit).
void Crc32cPieces(benchmark::State& state, bool shared) {
  const auto bytes = std::span<const uint8_t>(payload()).first(size_t(state.range(0)) << 10);
  for (auto _ : state) benchmark::DoNotOptimize(shared ? crc32cSplit(bytes) : crc32c(0, bytes));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
void Sha256Digest(benchmark::State& state) {
  state.SetLabel(sha256Implementation());
  perByte(state, [](auto bytes) {
    Sha256 sha;
    sha.update(bytes);
    return sha.finish();
  });
}

void Sha256Portable(benchmark::State& state) {
  perByte(state, [](auto bytes) {
    std::array<uint32_t, 8> words{};
    sha256BlocksPortable(words.data(), bytes.data(), bytes.size() / 64);
    return words;
  });
}

BENCHMARK_CAPTURE(Crc32cPieces, alone, false)->Arg(5120)->Arg(20480);
BENCHMARK_CAPTURE(Crc32cPieces, shared, true)->Arg(5120)->Arg(20480);
BENCHMARK(Sha256Digest)->Unit(benchmark::kMillisecond);
BENCHMARK(Sha256Portable)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  for (Crc32cKernel kernel : crc32cKernelsOnThisCpu()) {
    benchmark::RegisterBenchmark((std::string("Crc32c/") + crc32cKernelName(kernel)).c_str(),
                                 Crc32c, kernel)
        ->Unit(benchmark::kMillisecond);
  }
  for (Hash128Kernel kernel : hash128KernelsOnThisCpu()) {
    benchmark::RegisterBenchmark((std::string("Hash128/") + hash128KernelName(kernel)).c_str(),
                                 Hash128Of, kernel)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
