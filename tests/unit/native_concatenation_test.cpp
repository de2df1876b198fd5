// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own CONCATENATION (native_concatenation.cpp): every input's
// values where the axis puts them, on any axis and rank, on one thread and
// on the pool.
#include <gtest/gtest.h>

#include <string>

#include "cpu_test_models.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/thread_pool.h"
#include "native_stage_support.h"

namespace annrt::cpu {
namespace {

struct ConcatCase {
  std::vector<std::vector<uint32_t>> inputs;
  int32_t axis;
};

size_t elements(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::vector<uint32_t> outputDims(const ConcatCase& c, uint32_t axis) {
  std::vector<uint32_t> dims = c.inputs[0];
  dims[axis] = 0;
  for (const std::vector<uint32_t>& input : c.inputs) dims[axis] += input[axis];
  return dims;
}

// The output, element by element: its index along the axis says which
// input and where in it.
std::vector<float> expectedOutput(const ConcatCase& c, uint32_t axis,
                                  const std::vector<std::vector<float>>& values) {
  const std::vector<uint32_t> out = outputDims(c, axis);
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= out[d];
  for (size_t d = axis + 1; d < out.size(); ++d) inner *= out[d];
  std::vector<float> result;
  for (size_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      const size_t span = c.inputs[k][axis] * inner;
      for (size_t j = 0; j < span; ++j) result.push_back(values[k][o * span + j]);
    }
  }
  return result;
}

TEST(NativeConcatenationTest, PlacesEveryInputAlongTheAxis) {
  const std::vector<ConcatCase> cases = {
      // Face detection's outputs: 512 and 384 boxes of 16 and of 1.
      {{{1, 512, 16}, {1, 384, 16}}, 1},
      {{{1, 512, 1}, {1, 384, 1}}, 1},
      {{{2, 3, 4, 5}, {2, 3, 4, 2}, {2, 3, 4, 1}}, -1},
      {{{3, 2, 6}, {1, 2, 6}}, 0},
      {{{4, 1, 3, 2}, {4, 5, 3, 2}}, 1},
      // More than one task's worth per index before the axis.
      {{{3, 64, 128}, {3, 80, 128}}, 1},
  };
  for (const ConcatCase& c : cases) {
    const auto rankOf = static_cast<int32_t>(c.inputs[0].size());
    const auto axis = static_cast<uint32_t>(c.axis < 0 ? c.axis + rankOf : c.axis);
    SCOPED_TRACE("axis " + std::to_string(c.axis) + " of " + std::to_string(c.inputs.size()));
    test::InternalModel m;
    std::vector<uint32_t> inputs;
    inputs.reserve(c.inputs.size());
    for (const std::vector<uint32_t>& dims : c.inputs) inputs.push_back(m.tensor(dims));
    std::vector<uint32_t> operands = inputs;
    operands.push_back(m.int32(c.axis));
    const uint32_t output = m.tensor(outputDims(c, axis));
    m.operation(ANEURALNETWORKS_CONCATENATION, operands, {output});
    const std::shared_ptr<const Model> model = m.finish(inputs, {output});
    std::vector<std::vector<float>> values;
    std::vector<const void*> pointers;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      values.push_back(test::seededValues(elements(c.inputs[k]), static_cast<uint32_t>(k + 1)));
      pointers.push_back(values.back().data());
    }
    const std::vector<float> expected = expectedOutput(c, axis, values);
    for (const ThreadPool& pool : {ThreadPool(nullptr), sharedThreadPool(2)}) {
      auto native = compileNative(model, pool);
      ASSERT_TRUE(native.ok()) << native.error().message;
      std::vector<float> actual(expected.size());
      const Result<void> ran = (*native)->run(pointers, {actual.data()}, true);
      ASSERT_TRUE(ran.ok()) << ran.error().message;
      EXPECT_EQ(actual, expected);
    }
  }
}

// Measured faster than XNNPACK on AVX-512 and on AVX2.
TEST(NativeConcatenationTest, RunsNativeWhereTheTableSays) {
  test::InternalModel m;
  const uint32_t a = m.tensor({1, 6, 4});
  const uint32_t b = m.tensor({1, 2, 4});
  const uint32_t output = m.tensor({1, 8, 4});
  m.operation(ANEURALNETWORKS_CONCATENATION, {a, b, m.int32(1)}, {output});
  const std::shared_ptr<const Model> model = m.finish({a, b}, {output});
  expectNativeUnderAvx2AndAvx512(*model);
}

}  // namespace
}  // namespace annrt::cpu
