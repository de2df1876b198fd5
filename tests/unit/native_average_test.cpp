// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own averages (native_average_pool.cpp) against XNNPACK's: a
// global AVERAGE_POOL_2D with its activation, and MEAN over height and
// width or over another run of axes, kept dims or not, in every
// instruction set's code.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cpu_test_models.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/thread_pool.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

size_t elements(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::shared_ptr<const Model> globalPoolModel(const std::vector<uint32_t>& dims,
                                             int32_t activation) {
  test::InternalModel m;
  const uint32_t input = m.tensor(dims);
  const uint32_t output = m.tensor({dims[0], 1, 1, dims[3]});
  m.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {input, m.int32(ANEURALNETWORKS_PADDING_VALID), m.int32(1), m.int32(1),
               m.int32(static_cast<int32_t>(dims[2])), m.int32(static_cast<int32_t>(dims[1])),
               m.int32(activation)},
              {output});
  return m.finish({input}, {output});
}

std::shared_ptr<const Model> meanModel(const std::vector<uint32_t>& dims,
                                       const std::vector<int32_t>& axes,
                                       const std::vector<uint32_t>& out, bool keepDims) {
  test::InternalModel m;
  const uint32_t input = m.tensor(dims);
  const uint32_t output = m.tensor(out);
  std::vector<uint8_t> bytes(axes.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), axes.data(), bytes.size());
  m.operation(
      ANEURALNETWORKS_MEAN,
      {input,
       m.constantBytes({static_cast<uint32_t>(axes.size())}, ANEURALNETWORKS_TENSOR_INT32, bytes),
       m.int32(keepDims ? 1 : 0)},
      {output});
  return m.finish({input}, {output});
}

void expectAsXnnpack(const std::shared_ptr<const Model>& model, size_t inputs, size_t outputs) {
  const std::vector<float> in = test::seededValues(inputs, 6);
  auto xnnpack = CompiledGraph::compile(model, nullptr);
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
  const std::vector<float> expected = runStage(**xnnpack, in, outputs);
  forEachIsa([&] {
    for (ThreadPool pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
      auto native = compileNative(model, pool);
      ASSERT_TRUE(native.ok()) << native.error().message;
      expectNear(runStage(**native, in, outputs), expected);
    }
  });
}

TEST(NativeAverageTest, GlobalPoolComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  for (const auto& [dims, activation] :
       {std::pair{std::vector<uint32_t>{1, 16, 16, 96}, ANEURALNETWORKS_FUSED_NONE},
        std::pair{std::vector<uint32_t>{2, 7, 9, 13}, ANEURALNETWORKS_FUSED_RELU6},
        std::pair{std::vector<uint32_t>{1, 3, 1, 4}, ANEURALNETWORKS_FUSED_RELU}}) {
    SCOPED_TRACE(toString(dims));
    expectAsXnnpack(globalPoolModel(dims, activation), elements(dims), dims[0] * dims[3]);
  }
}

TEST(NativeAverageTest, MeanComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  expectAsXnnpack(meanModel({1, 12, 10, 24}, {1, 2}, {1, 1, 1, 24}, true), 12 * 10 * 24, 24);
  expectAsXnnpack(meanModel({2, 5, 6, 11}, {2, 1}, {2, 11}, false), 2 * 5 * 6 * 11, 22);
  expectAsXnnpack(meanModel({3, 4, 5}, {-1}, {3, 4}, false), 60, 12);
}

TEST(NativeAverageTest, RefusesWindowsSmallerThanTheImage) {
  test::InternalModel m;
  const uint32_t input = m.tensor({1, 8, 8, 16});
  const uint32_t output = m.tensor({1, 4, 4, 16});
  m.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
              {input, m.int32(ANEURALNETWORKS_PADDING_VALID), m.int32(2), m.int32(2), m.int32(2),
               m.int32(2), m.int32(ANEURALNETWORKS_FUSED_NONE)},
              {output});
  auto refused = compileNative(m.finish({input}, {output}), nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("only a global average"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace annrt::cpu
