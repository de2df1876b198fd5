// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own MAX_POOL_2D (native_max_pool.cpp) against XNNPACK's, in
// the code of every instruction set the host runs: windows and strides,
// implicit and explicit padding, channel counts with and without a tail,
// batches and fused activations.
#include <gtest/gtest.h>

#include <string>

#include "cpu_test_models.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/thread_pool.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

struct PoolCase {
  uint32_t batch, height, width, channels, filter, stride;
  // Explicit paddings (left, right, top, bottom); empty: implicit `scheme`.
  std::vector<int32_t> pads;
  int32_t scheme = ANEURALNETWORKS_PADDING_VALID;
  int32_t activation = ANEURALNETWORKS_FUSED_NONE;
};

uint32_t outputSize(const PoolCase& c, uint32_t in, int32_t before, int32_t after) {
  if (!c.pads.empty()) return (in + before + after - c.filter) / c.stride + 1;
  if (c.scheme == ANEURALNETWORKS_PADDING_SAME) return (in + c.stride - 1) / c.stride;
  return (in - c.filter) / c.stride + 1;
}

std::vector<uint32_t> outputDims(const PoolCase& c) {
  const bool padded = !c.pads.empty();
  return {c.batch, outputSize(c, c.height, padded ? c.pads[2] : 0, padded ? c.pads[3] : 0),
          outputSize(c, c.width, padded ? c.pads[0] : 0, padded ? c.pads[1] : 0), c.channels};
}

std::shared_ptr<const Model> poolModel(const PoolCase& c) {
  test::InternalModel m;
  const uint32_t input = m.tensor({c.batch, c.height, c.width, c.channels});
  const uint32_t output = m.tensor(outputDims(c));
  std::vector<uint32_t> inputs = {input};
  if (c.pads.empty()) {
    inputs.push_back(m.int32(c.scheme));
  } else {
    for (int32_t pad : c.pads) inputs.push_back(m.int32(pad));
  }
  for (uint32_t scalar : {c.stride, c.stride, c.filter, c.filter}) {
    inputs.push_back(m.int32(static_cast<int32_t>(scalar)));
  }
  inputs.push_back(m.int32(c.activation));
  m.operation(ANEURALNETWORKS_MAX_POOL_2D, inputs, {output});
  return m.finish({input}, {output});
}

size_t elements(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

TEST(NativeMaxPoolTest, ComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::vector<PoolCase> cases = {
      // Face detection's 2x2 stride 2 of 28, 42 and 88 channels.
      {1, 16, 16, 28, 2, 2, {}},
      {1, 12, 10, 42, 2, 2, {}},
      {1, 8, 8, 88, 2, 2, {}},
      {1, 9, 9, 8, 3, 2, {}, ANEURALNETWORKS_PADDING_SAME},
      {2, 7, 11, 12, 3, 1, {}, ANEURALNETWORKS_PADDING_SAME, ANEURALNETWORKS_FUSED_RELU6},
      {1, 6, 5, 16, 3, 2, {1, 1, 1, 1}, 0, ANEURALNETWORKS_FUSED_RELU},
      {1, 5, 6, 20, 2, 1, {0, 1, 1, 0}, 0, ANEURALNETWORKS_FUSED_RELU1},
      {1, 15, 15, 17, 5, 3, {}, ANEURALNETWORKS_PADDING_SAME},
  };
  forEachIsa([&] {
    for (const PoolCase& c : cases) {
      SCOPED_TRACE(std::to_string(c.height) + "x" + std::to_string(c.width) + "x" +
                   std::to_string(c.channels) + ", " + std::to_string(c.filter) + "x" +
                   std::to_string(c.filter) + " stride " + std::to_string(c.stride));
      const std::shared_ptr<const Model> model = poolModel(c);
      const std::vector<float> in =
          test::seededValues(size_t{c.batch} * c.height * c.width * c.channels, 5);
      const size_t outputs = elements(outputDims(c));
      auto xnnpack = CompiledGraph::compile(model, nullptr);
      ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
      const std::vector<float> expected = runStage(**xnnpack, in, outputs);
      for (const ThreadPool& pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
        auto native = compileNative(model, pool);
        ASSERT_TRUE(native.ok()) << native.error().message;
        // A maximum is one of the inputs, clamped: equal, not near.
        EXPECT_EQ(runStage(**native, in, outputs), expected);
      }
    }
  });
}

// Measured faster than XNNPACK on AVX-512 and on AVX2.
TEST(NativeMaxPoolTest, RunsNativeWhereTheTableSays) {
  const std::shared_ptr<const Model> model = poolModel({1, 16, 16, 28, 2, 2, {}});
  expectNativeUnderAvx2AndAvx512(*model);
}

TEST(NativeMaxPoolTest, RefusesFewerThanEightChannels) {
  auto refused = compileNative(poolModel({1, 8, 8, 4, 2, 2, {}}), nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::OP_FAILED);
  EXPECT_NE(refused.error().message.find("4 channels"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace annrt::cpu
