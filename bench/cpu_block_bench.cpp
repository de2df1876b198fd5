// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One MobileNet-v1-like block, 1x56x56x64 -> depthwise 3x3 -> pointwise 128
// -> depthwise 3x3 stride 2 -> pointwise 128 (all RELU6), compiled once and
// executed repeatedly on one device; and its int8 counterpart with
// per-channel filters and a residual ADD (MobileNet-v2 style): depthwise 3x3
// -> pointwise 64 -> ADD with the block input -> depthwise 3x3 stride 2 ->
// pointwise 128. annrt-cpu's thread count comes from ANNRT_NUM_THREADS, read
// when the model is compiled.
//
//   build/bench/annrt_cpu_bench --benchmark_min_time=1
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "test_graph.h"

namespace annrt::test {
namespace {

uint32_t depthwise(TestGraph& g, uint32_t in, uint32_t size, uint32_t channels, int32_t stride,
                   uint32_t seed) {
  const uint32_t outSize = (size + stride - 1) / stride;
  const uint32_t out = g.tensor({1, outSize, outSize, channels});
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {in, g.constant({1, 3, 3, channels}, randomValues(size_t{9} * channels, seed)),
               g.constant({channels}, randomValues(channels, seed + 1)),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(stride), g.int32(stride), g.int32(1),
               g.int32(ANEURALNETWORKS_FUSED_RELU6)},
              {out});
  return out;
}

uint32_t pointwise(TestGraph& g, uint32_t in, uint32_t size, uint32_t inChannels,
                   uint32_t outChannels, uint32_t seed) {
  const uint32_t out = g.tensor({1, size, size, outChannels});
  g.operation(ANEURALNETWORKS_CONV_2D,
              {in,
               g.constant({outChannels, 1, 1, inChannels},
                          randomValues(size_t{outChannels} * inChannels, seed, -0.2f, 0.2f)),
               g.constant({outChannels}, randomValues(outChannels, seed + 1)),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1),
               g.int32(ANEURALNETWORKS_FUSED_RELU6)},
              {out});
  return out;
}

constexpr uint32_t kSize = 56, kChannels = 64, kOutChannels = 128;
constexpr size_t kInputCount = size_t{kSize} * kSize * kChannels;
constexpr size_t kOutputCount = size_t{kSize / 2} * (kSize / 2) * kOutChannels;

void buildBlock(TestGraph& g) {
  const uint32_t in = g.tensor({1, kSize, kSize, kChannels});
  uint32_t x = depthwise(g, in, kSize, kChannels, 1, 1);
  x = pointwise(g, x, kSize, kChannels, kOutChannels, 3);
  x = depthwise(g, x, kSize, kOutChannels, 2, 5);
  x = pointwise(g, x, kSize / 2, kOutChannels, kOutChannels, 7);
  g.finish({in}, {x});
}

// Int8 activations; filters per-channel int8 (scales around 0.02).
const TensorType kInt8Activation{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 0.05f, -10};

std::vector<float> channelScales(uint32_t channels) {
  std::vector<float> scales(channels);
  for (uint32_t c = 0; c < channels; ++c) scales[c] = 0.01f + 0.0005f * static_cast<float>(c % 20);
  return scales;
}

uint32_t int8Depthwise(TestGraph& g, uint32_t in, uint32_t size, uint32_t channels, int32_t stride,
                       uint32_t seed) {
  const uint32_t outSize = (size + stride - 1) / stride;
  const uint32_t out = g.tensor({1, outSize, outSize, channels}, kInt8Activation);
  g.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
              {in,
               g.perChannel({1, 3, 3, channels}, randomInt8(size_t{9} * channels, seed), 3,
                            channelScales(channels)),
               g.int32Tensor({channels}, randomInt32(channels, seed + 1, -1000, 1000)),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(stride), g.int32(stride), g.int32(1),
               g.int32(ANEURALNETWORKS_FUSED_RELU6)},
              {out});
  return out;
}

uint32_t int8Pointwise(TestGraph& g, uint32_t in, uint32_t size, uint32_t inChannels,
                       uint32_t outChannels, uint32_t seed) {
  const uint32_t out = g.tensor({1, size, size, outChannels}, kInt8Activation);
  g.operation(ANEURALNETWORKS_CONV_2D,
              {in,
               g.perChannel({outChannels, 1, 1, inChannels},
                            randomInt8(size_t{outChannels} * inChannels, seed), 0,
                            channelScales(outChannels)),
               g.int32Tensor({outChannels}, randomInt32(outChannels, seed + 1, -1000, 1000)),
               g.int32(ANEURALNETWORKS_PADDING_SAME), g.int32(1), g.int32(1),
               g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {out});
  return out;
}

void buildInt8Block(TestGraph& g) {
  const uint32_t in = g.tensor({1, kSize, kSize, kChannels}, kInt8Activation);
  uint32_t x = int8Depthwise(g, in, kSize, kChannels, 1, 1);
  x = int8Pointwise(g, x, kSize, kChannels, kChannels, 3);
  const uint32_t sum = g.tensor({1, kSize, kSize, kChannels}, kInt8Activation);
  g.operation(ANEURALNETWORKS_ADD, {x, in, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
  x = int8Depthwise(g, sum, kSize, kChannels, 2, 5);
  x = int8Pointwise(g, x, kSize / 2, kChannels, kOutChannels, 7);
  g.finish({in}, {x});
}

void runBlock(benchmark::State& state, const std::string& device, const char* threads,
              bool int8 = false) {
  if (threads != nullptr) setenv("ANNRT_NUM_THREADS", threads, 1);
  TestGraph g;
  if (int8) {
    buildInt8Block(g);
  } else {
    buildBlock(g);
  }
  const ANeuralNetworksDevice* handle = findDevice(device);
  ANeuralNetworksCompilation* compilation = nullptr;
  if (handle == nullptr ||
      ANeuralNetworksCompilation_createForDevices(g.model(), &handle, 1, &compilation) !=
          ANEURALNETWORKS_NO_ERROR ||
      ANeuralNetworksCompilation_finish(compilation) != ANEURALNETWORKS_NO_ERROR) {
    state.SkipWithError(("cannot compile for " + device).c_str());
    ANeuralNetworksCompilation_free(compilation);
    return;
  }
  const size_t elementBytes = int8 ? 1 : sizeof(float);
  const std::vector<uint8_t> input =
      int8 ? randomBytes(kInputCount, 42) : toBytes(randomValues(kInputCount, 42));
  std::vector<uint8_t> output(kOutputCount * elementBytes);
  for (auto _ : state) {
    ANeuralNetworksExecution* execution = nullptr;
    ANeuralNetworksExecution_create(compilation, &execution);
    ANeuralNetworksExecution_setInput(execution, 0, nullptr, input.data(), input.size());
    ANeuralNetworksExecution_setOutput(execution, 0, nullptr, output.data(), output.size());
    if (ANeuralNetworksExecution_compute(execution) != ANEURALNETWORKS_NO_ERROR) {
      state.SkipWithError("execution failed");
    }
    ANeuralNetworksExecution_free(execution);
  }
  ANeuralNetworksCompilation_free(compilation);
  unsetenv("ANNRT_NUM_THREADS");
}

void BM_MobileNetBlock_Cpu1Thread(benchmark::State& state) {
  runBlock(state, "annrt-cpu", "1");
}
void BM_MobileNetBlock_Cpu2Threads(benchmark::State& state) {
  runBlock(state, "annrt-cpu", "2");
}
void BM_MobileNetBlock_Reference(benchmark::State& state) {
  runBlock(state, "nnapi-reference", nullptr);
}

void BM_Int8PerChannelBlock_Cpu1Thread(benchmark::State& state) {
  runBlock(state, "annrt-cpu", "1", true);
}
void BM_Int8PerChannelBlock_Cpu2Threads(benchmark::State& state) {
  runBlock(state, "annrt-cpu", "2", true);
}
void BM_Int8PerChannelBlock_Reference(benchmark::State& state) {
  runBlock(state, "nnapi-reference", nullptr, true);
}

BENCHMARK(BM_MobileNetBlock_Cpu1Thread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MobileNetBlock_Cpu2Threads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MobileNetBlock_Reference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Int8PerChannelBlock_Cpu1Thread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Int8PerChannelBlock_Cpu2Threads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Int8PerChannelBlock_Reference)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace annrt::test

BENCHMARK_MAIN();
