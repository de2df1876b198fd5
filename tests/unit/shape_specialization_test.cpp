// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/shape_specialization.h"

#include <gtest/gtest.h>

#include "internal_model.h"

namespace annrt::runtime {
namespace {

using Dims = std::vector<uint32_t>;

// in [0,4,4,2] -> MAX_POOL_2D 2x2 -> pooled [0,2,2,2] -> RESHAPE by the
// model input `shape` (its value known only at execution) -> out.
struct PoolReshape {
  std::shared_ptr<const Model> model;
  uint32_t pooled = 0;
  uint32_t reshaped = 0;
};

PoolReshape poolReshapeModel(const Dims& pooledDims = {0, 2, 2, 2}) {
  test::InternalModel m;
  const uint32_t input = m.tensor({0, 4, 4, 2});
  const uint32_t pooled = m.maxPool(input, 2, pooledDims);
  const uint32_t shape = m.tensor({2}, ANEURALNETWORKS_TENSOR_INT32);
  const uint32_t reshaped = m.tensor({0, 0});
  m.operation(ANEURALNETWORKS_RESHAPE, {pooled, shape}, {reshaped});
  return {m.finish({input, shape}, {reshaped}), pooled, reshaped};
}

const Dims& dimsOf(const Model& model, uint32_t operand) {
  return model.main.operands[operand].shape.dims;
}

TEST(ShapeSpecializationTest, FillsWhatFollowsFromTheInputDims) {
  const PoolReshape graph = poolReshapeModel();
  EXPECT_TRUE(hasUnknownInputDims(*graph.model));
  const std::vector<Dims> inputs = {{3, 4, 4, 2}, {2}};
  auto specialized = specializeModel(*graph.model, inputs);
  ASSERT_TRUE(specialized.ok()) << specialized.error().message;
  const Model& model = *specialized.value();
  EXPECT_EQ(dimsOf(model, model.main.inputIndexes[0]), (Dims{3, 4, 4, 2}));
  EXPECT_EQ(dimsOf(model, graph.pooled), (Dims{3, 2, 2, 2}));
  // RESHAPE's output depends on the value of a non-constant INT32 input.
  EXPECT_EQ(dimsOf(model, graph.reshaped), (Dims{0, 0}));
  EXPECT_FALSE(hasUnknownInputDims(model));
  // The general model is left as it was.
  EXPECT_EQ(dimsOf(*graph.model, graph.pooled), (Dims{0, 2, 2, 2}));
}

TEST(ShapeSpecializationTest, RefusesDimsThatContradictTheModel) {
  const PoolReshape graph = poolReshapeModel();
  const std::vector<Dims> otherSide = {{1, 5, 4, 2}, {2}};
  auto refused = specializeModel(*graph.model, otherSide);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("input 0 dims [1,5,4,2] contradict the model's [0,4,4,2]"),
            std::string::npos)
      << refused.error().message;

  // The declared [0,3,3,2] cannot hold MAX_POOL_2D's [1,2,2,2].
  const PoolReshape wrong = poolReshapeModel({0, 3, 3, 2});
  const std::vector<Dims> batchOne = {{1, 4, 4, 2}, {2}};
  auto contradicted = specializeModel(*wrong.model, batchOne);
  ASSERT_FALSE(contradicted.ok());
  EXPECT_NE(contradicted.error().message.find("operation 0 (MAX_POOL_2D)"), std::string::npos)
      << contradicted.error().message;
}

}  // namespace
}  // namespace annrt::runtime
