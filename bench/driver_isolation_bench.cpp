// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What running a plug-in in annrt-driver-host costs per execution: one ADD of
// two float tensors of N elements on sample-failing (ANNRT_SAMPLE_FAILING_MODE
// =none: it computes with the reference kernels and fails nothing), compiled
// for that device alone. Run it twice and compare (docs/driver-isolation.md):
//
//   build/bench/annrt_driver_isolation_bench
//   ANNRT_DRIVER_ISOLATION=process build/bench/annrt_driver_isolation_bench
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "client/graph_builder.h"
#include "common/device_lookup.h"

namespace {

const bool kEnvironmentReady = [] {
  setenv("ANNRT_DRIVER_PATH", ANNRT_SAMPLE_DRIVER_DIR, 0);
  setenv("ANNRT_SAMPLE_FAILING_MODE", "none", 1);
  return true;
}();

void BM_AddOnPlugin(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  annrt::client::GraphBuilder b;
  const uint32_t x = b.addFloatTensor({n});
  const uint32_t y = b.addFloatTensor({n});
  const uint32_t sum = b.addFloatTensor({n});
  b.addOperation(ANEURALNETWORKS_ADD, {x, y, b.addInt32Scalar(0)}, {sum});
  b.finish({x, y}, {sum});
  const ANeuralNetworksDevice* device = annrt::test::findDevice("sample-failing");
  if (!kEnvironmentReady || !b.ok() || device == nullptr) {
    state.SkipWithError("no model or no sample-failing device");
    return;
  }
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksCompilation_createForDevices(b.model(), &device, 1, &compilation);
  if (ANeuralNetworksCompilation_finish(compilation) != ANEURALNETWORKS_NO_ERROR) {
    state.SkipWithError("compilation failed");
    return;
  }
  std::vector<float> a(n, 1.5f), c(n, 2.0f), out(n);
  for (auto _ : state) {
    ANeuralNetworksExecution* execution = nullptr;
    ANeuralNetworksExecution_create(compilation, &execution);
    ANeuralNetworksExecution_setInput(execution, 0, nullptr, a.data(), n * sizeof(float));
    ANeuralNetworksExecution_setInput(execution, 1, nullptr, c.data(), n * sizeof(float));
    ANeuralNetworksExecution_setOutput(execution, 0, nullptr, out.data(), n * sizeof(float));
    if (ANeuralNetworksExecution_compute(execution) != ANEURALNETWORKS_NO_ERROR) {
      state.SkipWithError("execution failed");
    }
    ANeuralNetworksExecution_free(execution);
  }
  benchmark::DoNotOptimize(out.data());
  ANeuralNetworksCompilation_free(compilation);
}
BENCHMARK(BM_AddOnPlugin)->Arg(16)->Arg(1 << 18)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
