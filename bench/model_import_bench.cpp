// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What a start costs before any compilation: importing each default model
// (.tflite file -> finished NNAPI model, src/tflite), the part of a warm
// start's "Init" that the compilation cache cannot save (docs/caching.md).
// Counters: microseconds per operand and per operation of the imported model.
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>

#include <string>

#include "common/default_models.h"
#include "tflite/importer.h"

namespace {

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
  state.counters["operations"] = static_cast<double>(operations);
  state.counters["per_operation_us"] = benchmark::Counter(
      static_cast<double>(operations) * 1e-6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

int main(int argc, char** argv) {
  for (const std::string& name : annrt::test::defaultModels()) {
    benchmark::RegisterBenchmark(("Import/" + name).c_str(), Import, annrt::test::modelPath(name))
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
