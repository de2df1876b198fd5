// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One float32 convolution of few channels on annrt-cpu at 1 thread (or --threads), on its
// own kernels (src/drivers/cpu/native_kernel.h) and on XNNPACK
// (ANNRT_CPU_NATIVE_KERNELS=0), the pair run one after the other for each
// shape: the ratio of the two is what decides nativeKernelPreferred. Shapes
// are those of the default models' heads and first layers.
//
//   build/bench/annrt_native_kernel_bench --benchmark_min_time=0.5
//
// --native=all runs the native side with ANNRT_CPU_NATIVE_KERNELS=all: every
// native form where its kernel applies, including those the host's column of
// the kernel table leaves on XNNPACK (which is how such a column is measured).
// --threads=N compiles both sides for N threads (default 1), how a kernel
// shares its work out; peak% is then of N cores' peak.
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fma_peak.h"
#include "test_graph.h"

namespace annrt::test {
namespace {

struct ConvCase {
  bool depthwise;
  uint32_t size, inChannels, outChannels, filter, stride;
  // The fused activation: RELU6 as most of the models' layers, NONE as their
  // linear bottlenecks (no clamps to apply).
  int32_t fuse = ANEURALNETWORKS_FUSED_RELU6;
};

// Outputs of one SAME convolution of `c` on a size x size input.
uint32_t outputSize(const ConvCase& c) {
  return (c.size + c.stride - 1) / c.stride;
}

// The convolution of `c` from `in`; returns its output.
uint32_t addConv(TestGraph& g, const ConvCase& c, uint32_t in) {
  const uint32_t side = outputSize(c);
  const uint32_t out = g.tensor({1, side, side, c.outChannels});
  const size_t taps = size_t{c.filter} * c.filter;
  const uint32_t filter = c.depthwise
                              ? g.constant({1, c.filter, c.filter, c.outChannels},
                                           randomValues(taps * c.outChannels, 1))
                              : g.constant({c.outChannels, c.filter, c.filter, c.inChannels},
                                           randomValues(taps * c.inChannels * c.outChannels, 1));
  std::vector<uint32_t> inputs = {in,
                                  filter,
                                  g.constant({c.outChannels}, randomValues(c.outChannels, 2)),
                                  g.int32(ANEURALNETWORKS_PADDING_SAME),
                                  g.int32(static_cast<int32_t>(c.stride)),
                                  g.int32(static_cast<int32_t>(c.stride))};
  if (c.depthwise) inputs.push_back(g.int32(1));
  inputs.push_back(g.int32(c.fuse));
  g.operation(c.depthwise ? ANEURALNETWORKS_DEPTHWISE_CONV_2D : ANEURALNETWORKS_CONV_2D, inputs,
              {out});
  return out;
}

void buildConv(TestGraph& g, const ConvCase& c) {
  const uint32_t in = g.tensor({1, c.size, c.size, c.inChannels});
  g.finish({in}, {addConv(g, c, in)});
}

// Times the one-operation graph `build` makes on annrt-cpu at gThreads threads, on
// its own kernels (native) or on XNNPACK.
// The ANNRT_CPU_NATIVE_KERNELS value of the native side: "1" (the table) or
// "all" (--native=all).
const char* gNativeMode = "1";

// The thread count both sides are compiled for (--threads=N).
uint32_t gThreads = 1;

// Inputs are random in [-spread, spread].
template <class Build>
void runGraph(benchmark::State& state, bool native, const std::vector<size_t>& inputFloats,
              size_t outputFloats, Build&& build, float spread = 1.0f) {
  setenv("ANNRT_CPU_NATIVE_KERNELS", native ? gNativeMode : "0", 1);
  TestGraph g;
  build(g);
  g.setThreadHint(gThreads);
  TestGraph::CompilationPtr compilation = g.compile(kCpu);
  unsetenv("ANNRT_CPU_NATIVE_KERNELS");
  if (compilation == nullptr) {
    state.SkipWithError("cannot compile for annrt-cpu");
    return;
  }
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<std::span<const uint8_t>> views;
  inputs.reserve(inputFloats.size());
  views.reserve(inputFloats.size());
  for (size_t floats : inputFloats) {
    inputs.push_back(
        toBytes(randomValues(floats, static_cast<uint32_t>(3 + inputs.size()), -spread, spread)));
  }
  for (const std::vector<uint8_t>& input : inputs) views.emplace_back(input);
  std::vector<uint8_t> output(outputFloats * sizeof(float));
  for (auto _ : state) {
    if (!TestGraph::compute(compilation.get(), views, {std::span<uint8_t>(output)})) {
      state.SkipWithError("execution failed");
      break;
    }
  }
}

template <class Build>
void runGraph(benchmark::State& state, bool native, size_t inputFloats, size_t outputFloats,
              Build&& build, float spread = 1.0f) {
  runGraph(state, native, std::vector<size_t>{inputFloats}, outputFloats,
           std::forward<Build>(build), spread);
}

// Registers name/native and name/xnnpack, one after the other.
void registerPair(const std::string& name,
                  const std::function<void(benchmark::State&, bool)>& run) {
  for (bool native : {true, false}) {
    benchmark::RegisterBenchmark((name + (native ? "/native" : "/xnnpack")).c_str(),
                                 [run, native](benchmark::State& state) { run(state, native); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
}

// Multiply-adds of one convolution of `c`.
double multiplyAdds(const ConvCase& c) {
  const double outputs = double(outputSize(c)) * outputSize(c) * c.outChannels;
  return outputs * c.filter * c.filter * (c.depthwise ? 1 : c.inChannels);
}

// The core's measured FMA peak (fma_peak.h), 0 where unknown.
double gPeakFlops = 0;

// Reports FLOP/s ("flops": 2 per multiply-add) and, where the host's peak is
// known, that as a percentage of it ("peak%").
void registerCase(const std::string& name, const ConvCase& c) {
  const uint32_t side = outputSize(c);
  registerPair(name, [c, side](benchmark::State& state, bool native) {
    runGraph(state, native, size_t{c.size} * c.size * c.inChannels,
             size_t{side} * side * c.outChannels, [&c](TestGraph& g) { buildConv(g, c); });
    const double flops = 2 * multiplyAdds(c);
    state.counters["flops"] =
        benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
    if (gPeakFlops > 0) {
      state.counters["peak%"] = benchmark::Counter(100 * flops / (gPeakFlops * gThreads),
                                                   benchmark::Counter::kIsIterationInvariantRate);
    }
  });
}

// RESIZE_BILINEAR of `in`, a size x size image of `channels`, to twice its
// size (half-pixel centers, as MediaPipe's models); returns its output.
uint32_t addResize(TestGraph& g, uint32_t in, uint32_t size, uint32_t channels) {
  const uint32_t out = g.tensor({1, 2 * size, 2 * size, channels});
  const auto doubled = static_cast<int32_t>(2 * size);
  g.operation(
      ANEURALNETWORKS_RESIZE_BILINEAR,
      {in, g.int32(doubled), g.int32(doubled), g.boolean(false), g.boolean(false), g.boolean(true)},
      {out});
  return out;
}

// That resize alone.
void registerResize(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [size, channels](benchmark::State& state, bool native) {
    const size_t pixels = size_t{size} * size;
    runGraph(state, native, pixels * channels, 4 * pixels * channels, [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      g.finish({in}, {addResize(g, in, size, channels)});
    });
  });
}

// TRANSPOSE_CONV_2D whose filter is its stride (no padding), from a size x
// size image `in`: each input pixel makes a block x block square of outputs.
uint32_t addTransposed(TestGraph& g, uint32_t in, uint32_t size, uint32_t inChannels,
                       uint32_t outChannels, uint32_t block) {
  const uint32_t out = g.tensor({1, size * block, size * block, outChannels});
  const size_t weights = size_t{outChannels} * block * block * inChannels;
  std::vector<uint32_t> inputs = {
      in, g.constant({outChannels, block, block, inChannels}, randomValues(weights, 1)),
      g.constant({outChannels}, randomValues(outChannels, 2))};
  for (int pad = 0; pad < 4; ++pad) inputs.push_back(g.int32(0));
  inputs.push_back(g.int32(static_cast<int32_t>(block)));
  inputs.push_back(g.int32(static_cast<int32_t>(block)));
  inputs.push_back(g.int32(ANEURALNETWORKS_FUSED_NONE));
  inputs.push_back(g.boolean(false));
  g.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, {out});
  return out;
}

void registerTransposed(const std::string& name, uint32_t size, uint32_t inChannels,
                        uint32_t outChannels, uint32_t block) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t pixels = size_t{size} * size;
    runGraph(state, native, pixels * inChannels, pixels * block * block * outChannels,
             [&](TestGraph& g) {
               const uint32_t in = g.tensor({1, size, size, inChannels});
               g.finish({in}, {addTransposed(g, in, size, inChannels, outChannels, block)});
             });
  });
}

// A residual ADD widening `channels` by `extra`: ADD(PAD of the image's
// channels after, PAD of them before), RELU; the second PAD folds into a
// native ADD, the first runs on XNNPACK in both runs.
void registerPaddedAdd(const std::string& name, uint32_t size, uint32_t channels, uint32_t extra) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t pixels = size_t{size} * size;
    runGraph(state, native, pixels * channels, pixels * (channels + extra), [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      auto pad = [&](int32_t before, int32_t after) {
        const uint32_t out = g.tensor({1, size, size, channels + extra});
        g.operation(ANEURALNETWORKS_PAD,
                    {in, g.int32Tensor({4, 2}, {0, 0, 0, 0, 0, 0, before, after})}, {out});
        return out;
      };
      const auto e = static_cast<int32_t>(extra);
      const uint32_t after = pad(0, e), before = pad(e, 0);
      const uint32_t out = g.tensor({1, size, size, channels + extra});
      g.operation(ANEURALNETWORKS_ADD, {after, before, g.int32(ANEURALNETWORKS_FUSED_RELU)}, {out});
      g.finish({in}, {out});
    });
  });
}

// A VALID 2x2 MAX_POOL_2D of stride 2 of a size x size image (the face
// and hand models' downsampling branches).
void registerMaxPool(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t pixels = size_t{size} * size;
    runGraph(state, native, pixels * channels, pixels / 4 * channels, [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      const uint32_t out = g.tensor({1, size / 2, size / 2, channels});
      g.operation(ANEURALNETWORKS_MAX_POOL_2D,
                  {in, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(2), g.int32(2), g.int32(2),
                   g.int32(2), g.int32(ANEURALNETWORKS_FUSED_NONE)},
                  {out});
      g.finish({in}, {out});
    });
  });
}

// CONCATENATION along axis 1 of [1, first, depth] and [1, second, depth]
// (face detection's boxes and scores).
void registerConcatenation(const std::string& name, uint32_t first, uint32_t second,
                           uint32_t depth) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, {size_t{first} * depth, size_t{second} * depth},
             size_t{first + second} * depth, [&](TestGraph& g) {
               const uint32_t a = g.tensor({1, first, depth});
               const uint32_t b = g.tensor({1, second, depth});
               const uint32_t out = g.tensor({1, first + second, depth});
               g.operation(ANEURALNETWORKS_CONCATENATION, {a, b, g.int32(1)}, {out});
               g.finish({a, b}, {out});
             });
  });
}

// A RESHAPE of [1, size, size, channels] to [1, size * size, channels]
// (face detection's heads before their concatenations).
void registerReshape(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t floats = size_t{size} * size * channels;
    runGraph(state, native, floats, floats, [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      const uint32_t out = g.tensor({1, size * size, channels});
      const auto dims = std::vector<int32_t>{1, static_cast<int32_t>(size * size),
                                             static_cast<int32_t>(channels)};
      g.operation(ANEURALNETWORKS_RESHAPE, {in, g.int32Tensor({3}, dims)}, {out});
      g.finish({in}, {out});
    });
  });
}

// `activation` (HARD_SWISH, LOGISTIC, RELU) of [1, size, size, channels] `in`.
uint32_t addActivation(TestGraph& g, int32_t activation, uint32_t in, uint32_t size,
                       uint32_t channels) {
  const uint32_t out = g.tensor({1, size, size, channels});
  g.operation(activation, {in}, {out});
  return out;
}

// An element-by-element `type` (HARD_SWISH, LOGISTIC, RELU) of [1, size, size,
// channels], its inputs in [-spread, spread] (a segmentation's logits reach
// -100, where e^x is subnormal).
void registerUnary(const std::string& name, int32_t type, uint32_t size, uint32_t channels,
                   float spread = 1.0f) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t floats = size_t{size} * size * channels;
    runGraph(
        state, native, floats, floats,
        [&](TestGraph& g) {
          const uint32_t in = g.tensor({1, size, size, channels});
          g.finish({in}, {addActivation(g, type, in, size, channels)});
        },
        spread);
  });
}

// The convolution of `c`, then `activation` of its output: on the native
// side one kernel applying the activation to what it writes
// (NativeForm::FOLDED_ACTIVATION), on XNNPACK two nodes. The native side's
// time against the sum of the convolution's and the activation's own
// benchmarks is what the fold saves.
void registerConvThen(const std::string& name, const ConvCase& c, int32_t activation) {
  const uint32_t side = outputSize(c);
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, size_t{c.size} * c.size * c.inChannels,
             size_t{side} * side * c.outChannels, [&](TestGraph& g) {
               const uint32_t in = g.tensor({1, c.size, c.size, c.inChannels});
               const uint32_t convolved = addConv(g, c, in);
               g.finish({in}, {addActivation(g, activation, convolved, side, c.outChannels)});
             });
  });
}

// Convolution `first`, then `second` reading its output alone: on the
// native side the two kernels of one stage, run band by band where the table
// uses NativeForm::BANDED_PAIR (band_pair.h) and one after the other
// elsewhere. Against the sum of the two convolutions' own benchmarks.
void registerConvPair(const std::string& name, const ConvCase& first, const ConvCase& second) {
  const uint32_t side = outputSize(second);
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, size_t{first.size} * first.size * first.inChannels,
             size_t{side} * side * second.outChannels, [&](TestGraph& g) {
               const uint32_t in = g.tensor({1, first.size, first.size, first.inChannels});
               g.finish({in}, {addConv(g, second, addConv(g, first, in))});
             });
  });
}

// The convolution of `c`, then the ADD of its output and a second input of
// that shape (a residual connection): on the native side one kernel adding
// the second input to what it writes where the table uses
// NativeForm::FOLDED_ADD, else the convolution's kernel and the ADD's; on
// XNNPACK two nodes.
void registerConvAdd(const std::string& name, const ConvCase& c) {
  const uint32_t side = outputSize(c);
  const size_t outputs = size_t{side} * side * c.outChannels;
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, {size_t{c.size} * c.size * c.inChannels, outputs}, outputs,
             [&](TestGraph& g) {
               const uint32_t in = g.tensor({1, c.size, c.size, c.inChannels});
               const uint32_t residual = g.tensor({1, side, side, c.outChannels});
               const uint32_t sum = g.tensor({1, side, side, c.outChannels});
               g.operation(ANEURALNETWORKS_ADD,
                           {addConv(g, c, in), residual, g.int32(ANEURALNETWORKS_FUSED_NONE)},
                           {sum});
               g.finish({in, residual}, {sum});
             });
  });
}

// A 1x1 product of `c`, then the ADD of its output and its input padded
// with zeros after its channels (face detection's widening residuals): on
// the native side the product's kernel adds the narrower input as it writes
// (NativeForm::FOLDED_ADD), where it ran a PAD-folding ADD after it before.
void registerConvPaddedAdd(const std::string& name, const ConvCase& c) {
  const size_t pixels = size_t{c.size} * c.size;
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, pixels * c.inChannels, pixels * c.outChannels, [&](TestGraph& g) {
      // In the models' order: the product, the PAD, the ADD.
      const uint32_t in = g.tensor({1, c.size, c.size, c.inChannels});
      const uint32_t convolved = addConv(g, c, in);
      const uint32_t padded = g.tensor({1, c.size, c.size, c.outChannels});
      const auto extra = static_cast<int32_t>(c.outChannels - c.inChannels);
      g.operation(ANEURALNETWORKS_PAD, {in, g.int32Tensor({4, 2}, {0, 0, 0, 0, 0, 0, 0, extra})},
                  {padded});
      const uint32_t sum = g.tensor({1, c.size, c.size, c.outChannels});
      g.operation(ANEURALNETWORKS_ADD, {convolved, padded, g.int32(ANEURALNETWORKS_FUSED_RELU)},
                  {sum});
      g.finish({in}, {sum});
    });
  });
}

// A 2x bilinear resize of [1, size, size, channels], then the ADD of its
// output and a second input of that shape (the pose models' decoders): on
// the native side the resize's kernel adds it as it writes
// (NativeForm::FOLDED_ADD); on XNNPACK two nodes.
void registerResizeAdd(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t in = size_t{size} * size * channels, out = 4 * in;
    runGraph(state, native, {in, out}, out, [&](TestGraph& g) {
      const uint32_t image = g.tensor({1, size, size, channels});
      const uint32_t skip = g.tensor({1, 2 * size, 2 * size, channels});
      const uint32_t sum = g.tensor({1, 2 * size, 2 * size, channels});
      g.operation(ANEURALNETWORKS_ADD,
                  {addResize(g, image, size, channels), skip, g.int32(ANEURALNETWORKS_FUSED_NONE)},
                  {sum});
      g.finish({image, skip}, {sum});
    });
  });
}

// MUL of [1, size, size, channels] by [1, 1, 1, channels], then the ADD of
// its output and a third input of its shape (selfie_segmentation's
// squeeze-and-excitation, then its residual).
void registerChannelScaleAdd(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t floats = size_t{size} * size * channels;
    runGraph(state, native, {floats, channels, floats}, floats, [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      const uint32_t scale = g.tensor({1, 1, 1, channels});
      const uint32_t residual = g.tensor({1, size, size, channels});
      const uint32_t scaled = g.tensor({1, size, size, channels});
      const uint32_t sum = g.tensor({1, size, size, channels});
      g.operation(ANEURALNETWORKS_MUL, {in, scale, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {scaled});
      g.operation(ANEURALNETWORKS_ADD, {scaled, residual, g.int32(ANEURALNETWORKS_FUSED_NONE)},
                  {sum});
      g.finish({in, scale, residual}, {sum});
    });
  });
}

// The transposed convolution of registerTransposed, then `activation`.
void registerTransposedThen(const std::string& name, uint32_t size, uint32_t inChannels,
                            uint32_t outChannels, uint32_t block, int32_t activation) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t pixels = size_t{size} * size;
    runGraph(state, native, pixels * inChannels, pixels * block * block * outChannels,
             [&](TestGraph& g) {
               const uint32_t in = g.tensor({1, size, size, inChannels});
               const uint32_t convolved =
                   addTransposed(g, in, size, inChannels, outChannels, block);
               g.finish({in}, {addActivation(g, activation, convolved, size * block, outChannels)});
             });
  });
}

// FULLY_CONNECTED of `batch` rows of `inputs` floats to `units` (the hand
// models' heads: 1152 to 63 landmarks and to 1 score).
void registerFullyConnected(const std::string& name, uint32_t batch, uint32_t inputs,
                            uint32_t units) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, size_t{batch} * inputs, size_t{batch} * units, [&](TestGraph& g) {
      const uint32_t in = g.tensor({batch, inputs});
      const uint32_t out = g.tensor({batch, units});
      const uint32_t weights = g.constant({units, inputs}, randomValues(size_t{units} * inputs, 1));
      const uint32_t bias = g.constant({units}, randomValues(units, 2));
      g.operation(ANEURALNETWORKS_FULLY_CONNECTED,
                  {in, weights, bias, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {out});
      g.finish({in}, {out});
    });
  });
}

// ADD of two tensors of one shape (the residuals of the landmark models).
void registerAdd(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t floats = size_t{size} * size * channels;
    runGraph(state, native, {floats, floats}, floats, [&](TestGraph& g) {
      const uint32_t a = g.tensor({1, size, size, channels});
      const uint32_t b = g.tensor({1, size, size, channels});
      const uint32_t out = g.tensor({1, size, size, channels});
      g.operation(ANEURALNETWORKS_ADD, {a, b, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {out});
      g.finish({a, b}, {out});
    });
  });
}

// MUL of [1, size, size, channels] by [1, 1, 1, channels] (selfie
// segmentation's squeeze-and-excitation scaling).
void registerChannelScale(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    const size_t floats = size_t{size} * size * channels;
    runGraph(state, native, {floats, channels}, floats, [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      const uint32_t scale = g.tensor({1, 1, 1, channels});
      const uint32_t out = g.tensor({1, size, size, channels});
      g.operation(ANEURALNETWORKS_MUL, {in, scale, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {out});
      g.finish({in, scale}, {out});
    });
  });
}

// AVERAGE_POOL_2D of the whole [1, size, size, channels] image.
// The global AVERAGE_POOL_2D of `in`, a size x size image of `channels`.
uint32_t addGlobalAverage(TestGraph& g, uint32_t in, uint32_t size, uint32_t channels) {
  const uint32_t out = g.tensor({1, 1, 1, channels});
  const auto side = static_cast<int32_t>(size);
  g.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {in, g.int32(ANEURALNETWORKS_PADDING_VALID), g.int32(1), g.int32(1), g.int32(side),
               g.int32(side), g.int32(ANEURALNETWORKS_FUSED_NONE)},
              {out});
  return out;
}

void registerGlobalAverage(const std::string& name, uint32_t size, uint32_t channels) {
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, size_t{size} * size * channels, channels, [&](TestGraph& g) {
      const uint32_t in = g.tensor({1, size, size, channels});
      g.finish({in}, {addGlobalAverage(g, in, size, channels)});
    });
  });
}

// The ADD of two inputs, then the global average of the sums: on the native
// side the average summing the two where the table uses
// NativeForm::FOLDED_SUM, else the ADD's kernel and the average's; on
// XNNPACK two nodes.
void registerAddThenAverage(const std::string& name, uint32_t size, uint32_t channels) {
  const size_t floats = size_t{size} * size * channels;
  registerPair(name, [=](benchmark::State& state, bool native) {
    runGraph(state, native, {floats, floats}, channels, [&](TestGraph& g) {
      const uint32_t a = g.tensor({1, size, size, channels});
      const uint32_t b = g.tensor({1, size, size, channels});
      const uint32_t sum = g.tensor({1, size, size, channels});
      g.operation(ANEURALNETWORKS_ADD, {a, b, g.int32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
      g.finish({a, b}, {addGlobalAverage(g, sum, size, channels)});
    });
  });
}

// Takes --native=all and --threads=N out of argv (Google Benchmark refuses
// flags it does not know).
void takeOwnFlags(int& argc, char** argv) {
  constexpr std::string_view kThreads = "--threads=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg == "--native=all") {
      gNativeMode = "all";
    } else if (arg.starts_with(kThreads)) {
      gThreads = static_cast<uint32_t>(std::max(1, std::atoi(argv[i] + kThreads.size())));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

}  // namespace
}  // namespace annrt::test

int main(int argc, char** argv) {
  annrt::test::takeOwnFlags(argc, argv);
  const annrt::bench::FmaPeak peak = annrt::bench::measureFmaPeak();
  annrt::test::gPeakFlops = peak.flopsPerSecond;
  if (peak.flopsPerSecond > 0) {
    benchmark::AddCustomContext("fma_peak", fmt::format("{:.1f} GFLOP/s ({}, one core, measured)",
                                                        peak.flopsPerSecond / 1e9, peak.vectors));
  }
  benchmark::AddCustomContext("threads", std::to_string(annrt::test::gThreads));
  benchmark::AddCustomContext("native_side",
                              std::string("ANNRT_CPU_NATIVE_KERNELS=") + annrt::test::gNativeMode);
  using annrt::test::registerAdd;
  using annrt::test::registerAddThenAverage;
  using annrt::test::registerCase;
  using annrt::test::registerChannelScale;
  using annrt::test::registerChannelScaleAdd;
  using annrt::test::registerConcatenation;
  using annrt::test::registerConvAdd;
  using annrt::test::registerConvPaddedAdd;
  using annrt::test::registerConvPair;
  using annrt::test::registerConvThen;
  using annrt::test::registerFullyConnected;
  using annrt::test::registerGlobalAverage;
  using annrt::test::registerMaxPool;
  using annrt::test::registerPaddedAdd;
  using annrt::test::registerReshape;
  using annrt::test::registerResize;
  using annrt::test::registerResizeAdd;
  using annrt::test::registerTransposed;
  using annrt::test::registerTransposedThen;
  using annrt::test::registerUnary;
  // pose_landmark_full's segmentation head (256x256 and 128x128, 8 channels).
  registerCase("Depthwise3x3_C8_256", {true, 256, 8, 8, 3, 1});
  registerCase("Pointwise_8to8_256", {false, 256, 8, 8, 1, 1});
  registerCase("Conv3x3_8to1_256", {false, 256, 8, 1, 3, 1});
  registerCase("Depthwise3x3_C8_128", {true, 128, 8, 8, 3, 1});
  registerCase("Pointwise_8to8_128", {false, 128, 8, 8, 1, 1});
  // 16 channels, and wider inputs or outputs.
  registerCase("Depthwise3x3_C16_128", {true, 128, 16, 16, 3, 1});
  registerCase("Depthwise3x3_C16_64", {true, 64, 16, 16, 3, 1});
  registerCase("Depthwise3x3_C16_128_s2", {true, 128, 16, 16, 3, 2});
  registerCase("Pointwise_16to16_128", {false, 128, 16, 16, 1, 1});
  registerCase("Pointwise_16to8_128", {false, 128, 16, 8, 1, 1});
  registerCase("Pointwise_8to16_128", {false, 128, 8, 16, 1, 1});
  registerCase("Conv3x3_16to16_64", {false, 64, 16, 16, 3, 1});
  registerCase("Conv3x3_16to1_128", {false, 128, 16, 1, 3, 1});
  // The first convolution of every default model: an RGB image, stride 2.
  registerCase("Stem3x3_3to24_224", {false, 224, 3, 24, 3, 2});
  registerCase("Stem3x3_3to24_256", {false, 256, 3, 24, 3, 2});
  registerCase("Stem3x3_3to16_256", {false, 256, 3, 16, 3, 2});
  registerCase("Stem3x3_3to32_192", {false, 192, 3, 32, 3, 2});
  registerCase("Stem5x5_3to24_128", {false, 128, 3, 24, 5, 2});
  // Depthwise convolutions of many channels (hand_landmark_full, face detection).
  registerCase("Depthwise3x3_C24_112", {true, 112, 24, 24, 3, 1});
  registerCase("Depthwise3x3_C64_112_s2", {true, 112, 64, 64, 3, 2});
  registerCase("Depthwise3x3_C144_56", {true, 56, 144, 144, 3, 1});
  registerCase("Depthwise5x5_C144_56_s2", {true, 56, 144, 144, 5, 2});
  registerCase("Depthwise5x5_C240_28", {true, 28, 240, 240, 5, 1});
  registerCase("Depthwise5x5_C672_14", {true, 14, 672, 672, 5, 1});
  registerCase("Depthwise5x5_C1152_7", {true, 7, 1152, 1152, 5, 1});
  registerCase("Depthwise3x3_C32_64", {true, 64, 32, 32, 3, 1});
  registerCase("Depthwise3x3_C88_32", {true, 32, 88, 88, 3, 1});
  // Face detection's depthwise convolutions of channels that are not a
  // multiple of 8 (native in AVX-512's column form only).
  registerCase("Depthwise3x3_C28_64_s2", {true, 64, 28, 28, 3, 2});
  registerCase("Depthwise3x3_C36_32", {true, 32, 36, 36, 3, 1});
  registerCase("Depthwise3x3_C42_32_s2", {true, 32, 42, 42, 3, 2});
  registerCase("Depthwise3x3_C12_48", {true, 48, 12, 12, 3, 1});
  // 1x1 convolutions of the hand and face models (native_pointwise.cpp).
  registerCase("Pointwise_16to64_112", {false, 112, 16, 64, 1, 1});
  registerCase("Pointwise_24to16_112", {false, 112, 24, 16, 1, 1});
  registerCase("Pointwise_144to24_56", {false, 56, 144, 24, 1, 1});
  registerCase("Pointwise_24to144_56", {false, 56, 24, 144, 1, 1});
  // Two of them apart from memory (outputs that stay in the L2 cache).
  registerCase("Pointwise_24to144_16", {false, 16, 24, 144, 1, 1});
  registerCase("Pointwise_16to64_24", {false, 24, 16, 64, 1, 1});
  registerCase("Pointwise_64to24_56", {false, 56, 64, 24, 1, 1});
  registerCase("Pointwise_240to40_28", {false, 28, 240, 40, 1, 1});
  registerCase("Pointwise_40to240_28", {false, 28, 40, 240, 1, 1});
  registerCase("Pointwise_672to112_14", {false, 14, 672, 112, 1, 1});
  registerCase("Pointwise_112to672_14", {false, 14, 112, 672, 1, 1});
  registerCase("Pointwise_1152to192_7", {false, 7, 1152, 192, 1, 1});
  registerCase("Pointwise_192to1152_7", {false, 7, 192, 1152, 1, 1});
  registerCase("Pointwise_32to8_96", {false, 96, 32, 8, 1, 1});
  registerCase("Pointwise_8to32_96", {false, 96, 8, 32, 1, 1});
  registerCase("Pointwise_24to48_48", {false, 48, 24, 48, 1, 1});
  registerCase("Pointwise_48to24_48", {false, 48, 48, 24, 1, 1});
  registerCase("Pointwise_32to128_24", {false, 24, 32, 128, 1, 1});
  registerCase("Pointwise_128to32_24", {false, 24, 128, 32, 1, 1});
  // face_detection_full_range's feature pyramid.
  registerCase("Pointwise_64to48_48", {false, 48, 64, 48, 1, 1});
  registerCase("Pointwise_128to64_24", {false, 24, 128, 64, 1, 1});
  registerCase("Pointwise_256to96_12", {false, 12, 256, 96, 1, 1});
  // Products without an activation (their range has no bounds): the hand
  // models' linear bottlenecks, face_detection_full_range's expansions.
  constexpr int32_t kLinear = ANEURALNETWORKS_FUSED_NONE;
  registerCase("Pointwise_144to24_56_Linear", {false, 56, 144, 24, 1, 1, kLinear});
  registerCase("Pointwise_8to32_96_Linear", {false, 96, 8, 32, 1, 1, kLinear});
  registerCase("Pointwise_12to48_48_Linear", {false, 48, 12, 48, 1, 1, kLinear});
  // face_detection_short_range's products to channel counts that are no
  // multiple of 16 (its blocks widen by 4 or 6 channels).
  registerCase("Pointwise_24to28_64_Linear", {false, 64, 24, 28, 1, 1, kLinear});
  registerCase("Pointwise_28to32_32_Linear", {false, 32, 28, 32, 1, 1, kLinear});
  registerCase("Pointwise_32to36_32_Linear", {false, 32, 32, 36, 1, 1, kLinear});
  registerCase("Pointwise_36to42_32_Linear", {false, 32, 36, 42, 1, 1, kLinear});
  registerCase("Pointwise_42to48_16_Linear", {false, 16, 42, 48, 1, 1, kLinear});
  registerCase("Pointwise_24to24_64_Linear", {false, 64, 24, 24, 1, 1, kLinear});
  // The pose models' 39 heatmap channels (a model output, no activation).
  registerCase("Pointwise_48to39_64_Linear", {false, 64, 48, 39, 1, 1, kLinear});
  // A 1x1 expansion, then the depthwise convolution reading its output, of
  // hand_landmark_full (3.2 and 1.8 MB between the two), and its stem then
  // first depthwise convolution (1.2 MB).
  registerConvPair("Pair_16to64_Dw3x3s2_112", {false, 112, 16, 64, 1, 1},
                   {true, 112, 64, 64, 3, 2});
  registerConvPair("Pair_24to144_Dw5x5s2_56", {false, 56, 24, 144, 1, 1},
                   {true, 56, 144, 144, 5, 2});
  registerConvPair("Pair_24to144_Dw3x3_56", {false, 56, 24, 144, 1, 1}, {true, 56, 144, 144, 3, 1});
  registerConvPair("Pair_Stem3x3_Dw3x3_224", {false, 224, 3, 24, 3, 2}, {true, 112, 24, 24, 3, 1});
  // The pose models' last blocks: a depthwise convolution, then a 1x1
  // product reading its output (2 MB between the two), and the same at
  // the hand models' widest depthwise layer.
  registerConvPair("Pair_Dw3x3_8to8_256", {true, 256, 8, 8, 3, 1}, {false, 256, 8, 8, 1, 1});
  registerConvPair("Pair_Dw3x3_64to16_112", {true, 112, 64, 64, 3, 1}, {false, 112, 64, 16, 1, 1});
  // The hand models' heads, and a batch of rows.
  registerFullyConnected("FullyConnected_1152to63", 1, 1152, 63);
  registerFullyConnected("FullyConnected_1152to1", 1, 1152, 1);
  registerFullyConnected("FullyConnected_256to128_b8", 8, 256, 128);
  // First layers: 3 input channels, stride 2.
  registerCase("Conv3x3_3to16_256_s2", {false, 256, 3, 16, 3, 2});
  registerCase("Conv3x3_3to8_256_s2", {false, 256, 3, 8, 3, 2});
  // selfie_segmentation's upsampling decoder.
  registerResize("Resize2x_C16_64", 64, 16);
  registerResize("Resize2x_C24_32", 32, 24);
  registerResize("Resize2x_C128_16", 16, 128);
  // selfie_segmentation's last layer (2x2, stride 2, 16 -> 1), and 8 -> 1.
  registerTransposed("Transposed2x2_16to1_128", 128, 16, 1, 2);
  registerTransposed("Transposed2x2_8to1_128", 128, 8, 1, 2);
  // Residual ADDs widening their channels with a PAD, as in face detection.
  registerPaddedAdd("PaddedAdd_24to32_48", 48, 24, 8);
  registerPaddedAdd("PaddedAdd_64to96_12", 12, 64, 32);
  // Max pools of face detection (short and full range) and hand_landmark_lite.
  registerMaxPool("MaxPool2x2_C28_64", 64, 28);
  registerMaxPool("MaxPool2x2_C42_32", 32, 42);
  registerMaxPool("MaxPool2x2_C88_16", 16, 88);
  registerMaxPool("MaxPool2x2_C32_96", 96, 32);
  registerMaxPool("MaxPool2x2_C64_48", 48, 64);
  registerMaxPool("MaxPool2x2_C128_24", 24, 128);
  registerMaxPool("MaxPool2x2_C16_112", 112, 16);
  // face_detection_short_range's outputs.
  registerConcatenation("Concat_512_384_x16", 512, 384, 16);
  registerConcatenation("Concat_512_384_x1", 512, 384, 1);
  registerReshape("Reshape_8x8x96", 8, 96);
  registerReshape("Reshape_16x16x32", 16, 32);
  registerReshape("Reshape_64x64x32", 64, 32);
  // selfie_segmentation's squeeze-and-excitation blocks and activations.
  registerUnary("HardSwish_128x128x16", ANEURALNETWORKS_HARD_SWISH, 128, 16);
  registerUnary("HardSwish_16x16x96", ANEURALNETWORKS_HARD_SWISH, 16, 96);
  registerUnary("HardSwish_16x16x128", ANEURALNETWORKS_HARD_SWISH, 16, 128);
  registerUnary("Logistic_1x1x96", ANEURALNETWORKS_LOGISTIC, 1, 96);
  registerUnary("Logistic_64x64x1", ANEURALNETWORKS_LOGISTIC, 64, 1);
  registerUnary("Logistic_256x256x1", ANEURALNETWORKS_LOGISTIC, 256, 1);
  registerUnary("Logistic_256x256x1_Spread100", ANEURALNETWORKS_LOGISTIC, 256, 1, 100.0f);
  // Those activations taken into the convolution before them (selfie
  // segmentation's stem, squeeze-and-excitation blocks and last layer),
  // beside the convolutions alone above and below.
  registerConvThen("Stem3x3_3to16_256_HardSwish", {false, 256, 3, 16, 3, 2},
                   ANEURALNETWORKS_HARD_SWISH);
  registerCase("Depthwise3x3_C96_16", {true, 16, 96, 96, 3, 1});
  registerConvThen("Depthwise3x3_C96_16_HardSwish", {true, 16, 96, 96, 3, 1},
                   ANEURALNETWORKS_HARD_SWISH);
  registerCase("Pointwise_32to128_16", {false, 16, 32, 128, 1, 1});
  registerConvThen("Pointwise_32to128_16_HardSwish", {false, 16, 32, 128, 1, 1},
                   ANEURALNETWORKS_HARD_SWISH);
  registerTransposedThen("Transposed2x2_16to1_128_Logistic", 128, 16, 1, 2,
                         ANEURALNETWORKS_LOGISTIC);
  // face_detection_full_range's RELUs of its feature pyramid.
  registerUnary("Relu_6x6x96", ANEURALNETWORKS_RELU, 6, 96);
  registerUnary("Relu_12x12x96", ANEURALNETWORKS_RELU, 12, 96);
  registerUnary("Relu_24x24x64", ANEURALNETWORKS_RELU, 24, 64);
  registerUnary("Relu_48x48x48", ANEURALNETWORKS_RELU, 48, 48);
  registerUnary("Relu6_48x48x48", ANEURALNETWORKS_RELU6, 48, 48);
  registerChannelScale("ChannelScale_128x128x16", 128, 16);
  registerChannelScale("ChannelScale_64x64x16", 64, 16);
  registerChannelScale("ChannelScale_16x16x96", 16, 96);
  registerChannelScale("ChannelScale_32x32x24", 32, 24);
  registerAdd("Add_128x128x16", 128, 16);
  registerAdd("Add_64x64x24", 64, 24);
  registerAdd("Add_32x32x40", 32, 40);
  registerAdd("Add_16x16x80", 16, 80);
  registerAdd("Add_8x8x192", 8, 192);
  // Residual connections: a 1x1 product or depthwise convolution, then the
  // ADD of its output and an earlier tensor (face_detection_full_range's 8 ->
  // 32 on 96x96, pose_landmark_full's 8 -> 8 on 256x256, selfie
  // segmentation's 16 channels on 128x128, face_detection_short_range's 24
  // on 64x64, the hand models' 144 -> 24 on 56x56).
  registerConvAdd("ConvAdd_8to32_96", {false, 96, 8, 32, 1, 1, kLinear});
  registerConvAdd("ConvAdd_8to8_256", {false, 256, 8, 8, 1, 1, kLinear});
  registerConvAdd("ConvAdd_16to16_128", {false, 128, 16, 16, 1, 1, kLinear});
  registerConvAdd("ConvAdd_Dw3x3_C16_128", {true, 128, 16, 16, 3, 1, kLinear});
  registerConvAdd("ConvAdd_24to24_64", {false, 64, 24, 24, 1, 1, kLinear});
  registerConvAdd("ConvAdd_144to24_56", {false, 56, 144, 24, 1, 1, kLinear});
  registerConvPaddedAdd("ConvPaddedAdd_24to28_64", {false, 64, 24, 28, 1, 1, kLinear});
  registerConvPaddedAdd("ConvPaddedAdd_32to48_48", {false, 48, 32, 48, 1, 1, kLinear});
  registerResizeAdd("ResizeAdd_2x_C8_128", 128, 8);
  registerResizeAdd("ResizeAdd_2x_C48_32", 32, 48);
  registerChannelScaleAdd("ChannelScaleAdd_128x128x16", 128, 16);
  registerGlobalAverage("GlobalAverage_128x128x16", 128, 16);
  registerGlobalAverage("GlobalAverage_64x64x16", 64, 16);
  registerGlobalAverage("GlobalAverage_16x16x96", 16, 96);
  registerGlobalAverage("GlobalAverage_32x32x24", 32, 24);
  // selfie_segmentation's ADD before its last squeeze-and-excitation block.
  registerAddThenAverage("AddAverage_128x128x16", 128, 16);
  registerAddThenAverage("AddAverage_32x32x24", 32, 24);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
