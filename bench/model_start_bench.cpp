// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What a warm start costs before its first inference, per default model, in
// one process (docs/caching.md): Import (.tflite file -> finished NNAPI
// model, src/tflite), the part the compilation cache cannot save, and
// WarmCompile (a compilation for annrt-cpu found in the NNAPI cache, dir +
// token: reading and checking the entry, partitioning, cutting stages and
// making their kernels). Counter: microseconds per operation of the model.
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "client/devices.h"
#include "common/default_models.h"
#include "tflite/importer.h"

namespace {

void perOperation(benchmark::State& state, size_t operations) {
  state.counters["per_operation_us"] = benchmark::Counter(
      static_cast<double>(operations) * 1e-6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void Import(benchmark::State& state, const std::string& path) {
  size_t operations = 0;
  for (auto _ : state) {
    auto imported = annrt::tflite::importFile(path);
    if (!imported.ok()) {
      state.SkipWithError(imported.error().message.c_str());
      return;
    }
    operations = (*imported)->operations().size();
    benchmark::DoNotOptimize(imported);
  }
  perOperation(state, operations);
}

// A finished compilation of `model` for annrt-cpu cached in `dir`; false on
// any error.
bool compileCached(ANeuralNetworksModel* model, const std::string& dir) {
  static constexpr std::array<uint8_t, ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN> kToken = {1, 2, 3};
  const ANeuralNetworksDevice* cpu = annrt::client::findDevice("annrt-cpu");
  ANeuralNetworksCompilation* compilation = nullptr;
  bool ok = cpu != nullptr &&
            ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &compilation) ==
                ANEURALNETWORKS_NO_ERROR &&
            ANeuralNetworksCompilation_setCaching(compilation, dir.c_str(), kToken.data()) ==
                ANEURALNETWORKS_NO_ERROR &&
            ANeuralNetworksCompilation_finish(compilation) == ANEURALNETWORKS_NO_ERROR;
  ANeuralNetworksCompilation_free(compilation);
  return ok;
}

void WarmCompile(benchmark::State& state, const std::string& path) {
  auto imported = annrt::tflite::importFile(path);
  const std::string dir =
      std::filesystem::temp_directory_path() / ("annrt-start-bench." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  // The first compilation writes the entry the timed ones read.
  if (!imported.ok() || !compileCached((*imported)->model(), dir)) {
    state.SkipWithError("cannot import or compile the model");
  } else {
    for (auto _ : state) {
      if (!compileCached((*imported)->model(), dir)) state.SkipWithError("compilation failed");
    }
    perOperation(state, (*imported)->operations().size());
  }
  std::filesystem::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
  // Only the cache this benchmark names, never the automatic one.
  setenv("ANNRT_CACHE_CAPACITY", "0", 1);
  for (const std::string& name : annrt::test::defaultModels()) {
    const std::string path = annrt::test::modelPath(name);
    benchmark::RegisterBenchmark(("Import/" + name).c_str(), Import, path)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("WarmCompile/" + name).c_str(), WarmCompile, path)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
