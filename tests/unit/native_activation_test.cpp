// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own HARD_SWISH, LOGISTIC and RELUs (native_unary.cpp) against
// XNNPACK's, in the code of every instruction set the host runs, on whole
// vectors and tails, values past exp's range included.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "cpu_test_models.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/thread_pool.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

std::shared_ptr<const Model> unaryModel(int32_t type, const std::vector<uint32_t>& dims) {
  test::InternalModel m;
  const uint32_t input = m.tensor(dims);
  const uint32_t output = m.tensor(dims);
  m.operation(type, {input}, {output});
  return m.finish({input}, {output});
}

size_t elements(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

// Values from -100 to 100 (where e^x leaves float's range), then seeded
// ones in [-8, 8].
std::vector<float> inputValues(size_t count) {
  std::vector<float> values = test::seededValues(count, 9);
  for (size_t i = 0; i < count; ++i) {
    values[i] = i < 41 ? -100.0f + 5.0f * static_cast<float>(i) : 8.0f * values[i];
  }
  return values;
}

TEST(NativeActivationTest, ComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  for (int32_t type : {ANEURALNETWORKS_HARD_SWISH, ANEURALNETWORKS_LOGISTIC, ANEURALNETWORKS_RELU,
                       ANEURALNETWORKS_RELU1, ANEURALNETWORKS_RELU6}) {
    for (const std::vector<uint32_t>& dims : std::vector<std::vector<uint32_t>>{
             {1, 1, 1, 96}, {1, 7, 5, 13}, {2, 16, 16}, {3}, {1, 64, 64, 1}}) {
      SCOPED_TRACE(std::to_string(type) + " of " + toString(dims));
      const std::shared_ptr<const Model> model = unaryModel(type, dims);
      const std::vector<float> in = inputValues(elements(dims));
      auto xnnpack = CompiledGraph::compile(model, nullptr);
      ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
      const std::vector<float> expected = runStage(**xnnpack, in, in.size());
      forEachIsa([&] {
        for (const auto& pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
          auto native = compileNative(model, pool);
          ASSERT_TRUE(native.ok()) << native.error().message;
          // Within a few ulp: e^x's polynomial is good to 3.5e-7.
          expectNear(runStage(**native, in, in.size()), expected, 2e-6f);
        }
      });
    }
  }
}

// Infinities reach 0 (or a float under 1e-37: the portable code clamps
// the exponent) and 1, and NaN stays NaN, in every instruction set's code
// (AVX-512's bounds e^-|x| below, where -inf would make NaN).
TEST(NativeActivationTest, LogisticOfInfinitiesAndNan) {
  const std::vector<uint32_t> dims = {1, 1, 1, 35};
  const std::shared_ptr<const Model> model = unaryModel(ANEURALNETWORKS_LOGISTIC, dims);
  std::vector<float> in(35, 0.5f);
  in[0] = -std::numeric_limits<float>::infinity();
  in[1] = std::numeric_limits<float>::infinity();
  in[2] = std::numeric_limits<float>::quiet_NaN();
  in[33] = -std::numeric_limits<float>::infinity();  // in the tail
  in[34] = std::numeric_limits<float>::infinity();
  forEachIsa([&] {
    auto native = compileNative(model, nullptr);
    ASSERT_TRUE(native.ok()) << native.error().message;
    const std::vector<float> out = runStage(**native, in, in.size());
    EXPECT_TRUE(out[0] >= 0.0f && out[0] < 1e-37f) << out[0];
    EXPECT_EQ(out[1], 1.0f);
    EXPECT_TRUE(std::isnan(out[2]));
    EXPECT_NEAR(out[3], 0.62245933f, 1e-6f);
    EXPECT_TRUE(out[33] >= 0.0f && out[33] < 1e-37f) << out[33];
    EXPECT_EQ(out[34], 1.0f);
  });
}

// Past 4096 elements XNNPACK's LOGISTIC is faster (native_kernel_table.cpp).
TEST(NativeActivationTest, LeavesLargeLogisticsToXnnpack) {
  auto refused = compileNative(unaryModel(ANEURALNETWORKS_LOGISTIC, {1, 64, 65, 1}), nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("at most 4096"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace annrt::cpu
