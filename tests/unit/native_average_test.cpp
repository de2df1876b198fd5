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
#include <tuple>

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
    for (const auto& pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
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
        std::pair{std::vector<uint32_t>{1, 3, 1, 4}, ANEURALNETWORKS_FUSED_RELU},
        // Summed in two parts (kPartRows), the second shorter.
        std::pair{std::vector<uint32_t>{1, 72, 64, 12}, ANEURALNETWORKS_FUSED_NONE}}) {
    SCOPED_TRACE(toString(dims));
    expectAsXnnpack(globalPoolModel(dims, activation), elements(dims), size_t{dims[0]} * dims[3]);
  }
}

TEST(NativeAverageTest, MeanComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  expectAsXnnpack(meanModel({1, 12, 10, 24}, {1, 2}, {1, 1, 1, 24}, true), size_t{12} * 10 * 24,
                  24);
  expectAsXnnpack(meanModel({2, 5, 6, 11}, {2, 1}, {2, 11}, false), size_t{2} * 5 * 6 * 11, 22);
  expectAsXnnpack(meanModel({3, 4, 5}, {-1}, {3, 4}, false), 60, 12);
}

// RELU of the input, ADD of the input and that (with `addActivation`), then
// a global AVERAGE_POOL_2D (or, `mean`, a MEAN over height and width) of the
// sums; `sumsToo`: the sums are a model output too.
std::shared_ptr<const Model> addThenAverageModel(const std::vector<uint32_t>& dims,
                                                 int32_t addActivation, bool mean, bool sumsToo) {
  test::InternalModel m;
  const uint32_t input = m.tensor(dims);
  const uint32_t positive = m.tensor(dims);
  m.operation(ANEURALNETWORKS_RELU, {input}, {positive});
  const uint32_t sums = m.tensor(dims);
  m.operation(ANEURALNETWORKS_ADD, {input, positive, m.int32(addActivation)}, {sums});
  const uint32_t output = m.tensor({dims[0], 1, 1, dims[3]});
  if (mean) {
    const std::vector<int32_t> axes = {1, 2};
    std::vector<uint8_t> bytes(axes.size() * sizeof(int32_t));
    std::memcpy(bytes.data(), axes.data(), bytes.size());
    m.operation(ANEURALNETWORKS_MEAN,
                {sums, m.constantBytes({2}, ANEURALNETWORKS_TENSOR_INT32, bytes), m.int32(1)},
                {output});
  } else {
    m.operation(ANEURALNETWORKS_AVERAGE_POOL_2D,
                {sums, m.int32(ANEURALNETWORKS_PADDING_VALID), m.int32(1), m.int32(1),
                 m.int32(static_cast<int32_t>(dims[2])), m.int32(static_cast<int32_t>(dims[1])),
                 m.int32(ANEURALNETWORKS_FUSED_NONE)},
                {output});
  }
  if (sumsToo) return m.finish({input}, {output, sums});
  return m.finish({input}, {output});
}

// An ADD whose output only the average reads folds into it
// (FusionRole::AVERAGED_ADD; selfie_segmentation's ADD before its
// squeeze-and-excitation block): the average sums the ADD's two inputs,
// each sum clamped to the ADD's activation, in every instruction set's code;
// where the table does not use the fold (baseline decisions) and where the
// sums are read elsewhere too, the ADD is a kernel of its own.
TEST(NativeAverageTest, TakesInTheAddBeforeIt) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  for (const auto& [dims, activation, mean] :
       {std::tuple{std::vector<uint32_t>{1, 16, 16, 24}, ANEURALNETWORKS_FUSED_NONE, false},
        std::tuple{std::vector<uint32_t>{2, 7, 9, 13}, ANEURALNETWORKS_FUSED_RELU1, false},
        std::tuple{std::vector<uint32_t>{1, 5, 3, 16}, ANEURALNETWORKS_FUSED_RELU6, true},
        std::tuple{std::vector<uint32_t>{2, 72, 64, 8}, ANEURALNETWORKS_FUSED_RELU, false}}) {
    SCOPED_TRACE(toString(dims));
    const auto model = addThenAverageModel(dims, activation, mean, false);
    expectAsXnnpack(model, elements(dims), size_t{dims[0]} * dims[3]);
    // Plain pairs: Debian's clang 14 (the aarch64 cross build's) cannot
    // capture structured bindings in a lambda.
    for (const std::pair<NativeIsa, size_t>& expected :
         {std::pair{NativeIsa::AVX512, size_t{2}}, std::pair{NativeIsa::AVX2, size_t{2}},
          std::pair{NativeIsa::BASELINE, size_t{3}}}) {
      forEachIsa(
          [&] {
            auto native = compileNative(model, nullptr);
            ASSERT_TRUE(native.ok()) << native.error().message;
            EXPECT_EQ((*native)->kernelCount(), expected.second);
          },
          expected.first);
    }
  }
  const std::vector<uint32_t> dims = {1, 6, 6, 8};
  auto twice =
      compileNative(addThenAverageModel(dims, ANEURALNETWORKS_FUSED_NONE, false, true), nullptr);
  ASSERT_TRUE(twice.ok()) << twice.error().message;
  EXPECT_EQ((*twice)->kernelCount(), 3u);
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
