// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The cost model against plans that split a model too finely: a chain of
// kPairs x (ADD, which annrt-cpu claims, then EXP, which it leaves to
// nnapi-reference) over 1xSxSx32 tensors. Followed op by op, the devices'
// claims give 2 x kPairs steps. Each boundary costs a hand-over and a
// dispatch; on small tensors that is more than annrt-cpu saves on an ADD,
// on large ones it is not. Three runs of the same model per size S:
//   CostModel        ANeuralNetworksCompilation_create, cost model on (default)
//   ForcedSplit      the same with ANNRT_COST_MODEL=0: the per-op plan is kept
//   ReferenceAlone   createForDevices(nnapi-reference)
// Plug-ins (ANNRT_DRIVER_PATH) are hidden: the devices are annrt-cpu and
// nnapi-reference.
//
//   ANNRT_VLOG=compilation build/bench/annrt_partition_bench   (logs both estimates)
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "test_graph.h"

namespace annrt::test {
namespace {

constexpr uint32_t kChannels = 32, kPairs = 8;

void buildChain(TestGraph& g, uint32_t size) {
  const std::vector<uint32_t> dims{1, size, size, kChannels};
  const size_t count = size_t{size} * size * kChannels;
  const uint32_t in = g.tensor(dims);
  uint32_t x = in;
  for (uint32_t i = 0; i < kPairs; ++i) {
    const uint32_t sum = g.tensor(dims);
    g.operation(ANEURALNETWORKS_ADD,
                {x, g.constant(dims, randomValues(count, i, -0.1f, 0.1f)),
                 g.int32(ANEURALNETWORKS_FUSED_NONE)},
                {sum});
    x = g.tensor(dims);
    g.operation(ANEURALNETWORKS_EXP, {sum}, {x});
  }
  g.finish({in}, {x});
}

ANeuralNetworksCompilation* compile(const TestGraph& g, const char* device) {
  ANeuralNetworksCompilation* compilation = nullptr;
  int status = ANEURALNETWORKS_NO_ERROR;
  if (device == nullptr) {
    status = ANeuralNetworksCompilation_create(g.model(), &compilation);
  } else {
    const ANeuralNetworksDevice* handle = findDevice(device);
    status = handle == nullptr
                 ? ANEURALNETWORKS_BAD_DATA
                 : ANeuralNetworksCompilation_createForDevices(g.model(), &handle, 1, &compilation);
  }
  if (status == ANEURALNETWORKS_NO_ERROR) status = ANeuralNetworksCompilation_finish(compilation);
  if (status == ANEURALNETWORKS_NO_ERROR) return compilation;
  ANeuralNetworksCompilation_free(compilation);
  return nullptr;
}

void runChain(benchmark::State& state, const char* costModel, const char* device) {
  setenv("ANNRT_COST_MODEL", costModel, 1);
  const auto size = static_cast<uint32_t>(state.range(0));
  const size_t count = size_t{size} * size * kChannels;
  TestGraph g;
  buildChain(g, size);
  ANeuralNetworksCompilation* compilation = compile(g, device);
  unsetenv("ANNRT_COST_MODEL");
  if (compilation == nullptr) {
    state.SkipWithError("cannot compile the chain");
    return;
  }
  const std::vector<float> input = randomValues(count, 99, -0.1f, 0.1f);
  std::vector<float> output(count);
  for (auto _ : state) {
    ANeuralNetworksExecution* execution = nullptr;
    ANeuralNetworksExecution_create(compilation, &execution);
    ANeuralNetworksExecution_setInput(execution, 0, nullptr, input.data(),
                                      input.size() * sizeof(float));
    ANeuralNetworksExecution_setOutput(execution, 0, nullptr, output.data(),
                                       output.size() * sizeof(float));
    if (ANeuralNetworksExecution_compute(execution) != ANEURALNETWORKS_NO_ERROR) {
      state.SkipWithError("execution failed");
    }
    ANeuralNetworksExecution_free(execution);
  }
  ANeuralNetworksCompilation_free(compilation);
}

void BM_Chain_CostModel(benchmark::State& state) {
  runChain(state, "1", nullptr);
}
void BM_Chain_ForcedSplit(benchmark::State& state) {
  runChain(state, "0", nullptr);
}
void BM_Chain_ReferenceAlone(benchmark::State& state) {
  runChain(state, "1", "nnapi-reference");
}

BENCHMARK(BM_Chain_CostModel)->Arg(4)->Arg(56)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_Chain_ForcedSplit)->Arg(4)->Arg(56)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_Chain_ReferenceAlone)->Arg(4)->Arg(56)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace annrt::test

int main(int argc, char** argv) {
  // Before the first NNAPI call, when the runtime loads plug-ins and hides devices.
  setenv("ANNRT_DISABLE_DEVICES", "^sample-", 0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
