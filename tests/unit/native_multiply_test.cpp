// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own MUL (native_multiply.cpp) against XNNPACK's: tensors of
// one shape, and a tensor by a vector of its channels (either order, of its
// rank or lower), with fused activations, in every instruction set's code.
#include <gtest/gtest.h>

#include <string>

#include "cpu_test_models.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/thread_pool.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

struct MulCase {
  std::vector<uint32_t> a, b, out;
  int32_t activation = ANEURALNETWORKS_FUSED_NONE;
};

size_t elements(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::shared_ptr<const Model> mulModel(const MulCase& c) {
  test::InternalModel m;
  const uint32_t a = m.tensor(c.a);
  const uint32_t b = m.tensor(c.b);
  const uint32_t output = m.tensor(c.out);
  m.operation(ANEURALNETWORKS_MUL, {a, b, m.int32(c.activation)}, {output});
  return m.finish({a, b}, {output});
}

TEST(NativeMultiplyTest, ComputesWhatXnnpackComputes) {
  if (!initializeXnnpack()) GTEST_SKIP() << "XNNPACK does not support this CPU";
  const std::vector<MulCase> cases = {
      {{1, 16, 16, 24}, {1, 1, 1, 24}, {1, 16, 16, 24}},
      {{1, 1, 1, 13}, {2, 5, 3, 13}, {2, 5, 3, 13}, ANEURALNETWORKS_FUSED_RELU6},
      {{1, 9, 7, 20}, {20}, {1, 9, 7, 20}, ANEURALNETWORKS_FUSED_RELU1},
      {{3, 11, 17}, {3, 11, 17}, {3, 11, 17}, ANEURALNETWORKS_FUSED_RELU},
      {{1, 128, 64, 16}, {1, 1, 1, 16}, {1, 128, 64, 16}},
  };
  for (const MulCase& c : cases) {
    SCOPED_TRACE(toString(c.a) + " x " + toString(c.b));
    const std::shared_ptr<const Model> model = mulModel(c);
    const std::vector<float> a = test::seededValues(elements(c.a), 3);
    const std::vector<float> b = test::seededValues(elements(c.b), 4);
    const size_t outputs = elements(c.out);
    auto xnnpack = CompiledGraph::compile(model, nullptr);
    ASSERT_TRUE(xnnpack.ok()) << xnnpack.error().message;
    std::vector<float> expected(outputs);
    ASSERT_TRUE((*xnnpack)->run({a.data(), b.data()}, {expected.data()}, true).ok());
    forEachIsa([&] {
      for (const auto& pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
        auto native = compileNative(model, pool);
        ASSERT_TRUE(native.ok()) << native.error().message;
        std::vector<float> actual(outputs);
        ASSERT_TRUE((*native)->run({a.data(), b.data()}, {actual.data()}, true).ok());
        expectNear(actual, expected);
      }
    });
  }
}

TEST(NativeMultiplyTest, RefusesOtherBroadcasts) {
  auto refused = compileNative(mulModel({{1, 4, 4, 8}, {1, 4, 1, 8}, {1, 4, 4, 8}}), nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("a vector of its channels"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace annrt::cpu
