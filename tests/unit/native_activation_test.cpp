// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own HARD_SWISH, LOGISTIC and RELUs (native_unary.cpp) against
// XNNPACK's, in the code of every instruction set the host runs, on whole
// vectors and tails, values past exp's range included.
#include <gtest/gtest.h>

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
        for (ThreadPool pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
          auto native = compileNative(model, pool);
          ASSERT_TRUE(native.ok()) << native.error().message;
          // Within a few ulp: e^x's polynomial is good to 3.5e-7.
          expectNear(runStage(**native, in, in.size()), expected, 2e-6f);
        }
      });
    }
  }
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
