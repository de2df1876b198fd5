// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What running a plug-in in annrt-driver-host costs per execution: one ADD of
// two float tensors of N elements on sample-failing (ANNRT_SAMPLE_FAILING_MODE
// =none: it computes with the reference kernels and fails nothing), compiled
// for that device alone, with the tensors in the application's buffers
// (BM_AddOnPlugin: copied through the host's arena when isolated) or in one
// memfd-backed ANeuralNetworksMemory (BM_AddOnPluginFromMemory: mapped by the
// host). Run it twice and compare (docs/driver-isolation.md):
//
//   build/bench/annrt_driver_isolation_bench
//   ANNRT_DRIVER_ISOLATION=process build/bench/annrt_driver_isolation_bench
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <unistd.h>

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

// ADD of two [n] tensors, compiled for sample-failing; null when unavailable.
ANeuralNetworksCompilation* compileAdd(uint32_t n, annrt::client::GraphBuilder& b) {
  const uint32_t x = b.addFloatTensor({n});
  const uint32_t y = b.addFloatTensor({n});
  const uint32_t sum = b.addFloatTensor({n});
  b.addOperation(ANEURALNETWORKS_ADD, {x, y, b.addInt32Scalar(0)}, {sum});
  b.finish({x, y}, {sum});
  const ANeuralNetworksDevice* device = annrt::test::findDevice("sample-failing");
  if (!kEnvironmentReady || !b.ok() || device == nullptr) return nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksCompilation_createForDevices(b.model(), &device, 1, &compilation);
  if (ANeuralNetworksCompilation_finish(compilation) != ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksCompilation_free(compilation);
    return nullptr;
  }
  return compilation;
}

// Times executions whose arguments `bind` sets.
template <typename Bind>
void timeExecutions(benchmark::State& state, ANeuralNetworksCompilation* compilation, Bind bind) {
  for (auto _ : state) {
    ANeuralNetworksExecution* execution = nullptr;
    ANeuralNetworksExecution_create(compilation, &execution);
    bind(execution);
    if (ANeuralNetworksExecution_compute(execution) != ANEURALNETWORKS_NO_ERROR) {
      state.SkipWithError("execution failed");
    }
    ANeuralNetworksExecution_free(execution);
  }
}

void BM_AddOnPlugin(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  annrt::client::GraphBuilder b;
  ANeuralNetworksCompilation* compilation = compileAdd(n, b);
  if (compilation == nullptr) return state.SkipWithError("no sample-failing compilation");
  std::vector<float> a(n, 1.5f), c(n, 2.0f), out(n);
  const size_t bytes = n * sizeof(float);
  timeExecutions(state, compilation, [&](ANeuralNetworksExecution* execution) {
    ANeuralNetworksExecution_setInput(execution, 0, nullptr, a.data(), bytes);
    ANeuralNetworksExecution_setInput(execution, 1, nullptr, c.data(), bytes);
    ANeuralNetworksExecution_setOutput(execution, 0, nullptr, out.data(), bytes);
  });
  benchmark::DoNotOptimize(out.data());
  ANeuralNetworksCompilation_free(compilation);
}

void BM_AddOnPluginFromMemory(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  annrt::client::GraphBuilder b;
  ANeuralNetworksCompilation* compilation = compileAdd(n, b);
  if (compilation == nullptr) return state.SkipWithError("no sample-failing compilation");
  const size_t bytes = n * sizeof(float);
  const int fd = memfd_create("annrt-bench", MFD_CLOEXEC);
  ANeuralNetworksMemory* memory = nullptr;
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(3 * bytes)) != 0 ||
      ANeuralNetworksMemory_createFromFd(3 * bytes, PROT_READ | PROT_WRITE, fd, 0, &memory) !=
          ANEURALNETWORKS_NO_ERROR) {
    return state.SkipWithError("no memfd memory");
  }
  timeExecutions(state, compilation, [&](ANeuralNetworksExecution* execution) {
    ANeuralNetworksExecution_setInputFromMemory(execution, 0, nullptr, memory, 0, bytes);
    ANeuralNetworksExecution_setInputFromMemory(execution, 1, nullptr, memory, bytes, bytes);
    ANeuralNetworksExecution_setOutputFromMemory(execution, 0, nullptr, memory, 2 * bytes, bytes);
  });
  ANeuralNetworksMemory_free(memory);
  close(fd);
  ANeuralNetworksCompilation_free(compilation);
}
BENCHMARK(BM_AddOnPlugin)->Arg(16)->Arg(1 << 18)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AddOnPluginFromMemory)->Arg(16)->Arg(1 << 18)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
