// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt's limits on untrusted models (docs/limits.md): each is refused with
// BAD_DATA (or OP_FAILED for sizes only known at run time) and a log line,
// before anything it would size is allocated; what is at a limit still works.
#include <limits>

#include "common/model_limits.h"
#include "test_models.h"

namespace annrt::test {
namespace {

const ANeuralNetworksOperandType kInt32Scalar = {.type = ANEURALNETWORKS_INT32};

OperandType tensorOfRank(uint32_t rank) {
  return floatTensor(std::vector<uint32_t>(rank, 1));
}

TEST(LimitsTest, OperandRank) {
  Model model = newModel();
  const OperandType limit = tensorOfRank(limits::kMaxRank);
  const ANeuralNetworksOperandType atLimit = limit.get();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_addOperand(model.get(), &atLimit));
  const OperandType over = tensorOfRank(limits::kMaxRank + 1);
  const ANeuralNetworksOperandType overType = over.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperand(model.get(), &overType));
}

TEST(LimitsTest, OperandCount) {
  Model model = newModel();
  for (uint32_t i = 0; i < limits::kMaxOperands; ++i) {
    ASSERT_EQ(ANeuralNetworksModel_addOperand(model.get(), &kInt32Scalar), ANEURALNETWORKS_NO_ERROR)
        << "operand " << i;
  }
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperand(model.get(), &kInt32Scalar));
}

TEST(LimitsTest, OperationArity) {
  Model model = newModel();
  addOperand(model.get(), floatTensor({1}));
  addOperand(model.get(), floatTensor({1}));
  const std::vector<uint32_t> inputs(limits::kMaxArity + 1, 0);
  const uint32_t output = 1;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(model.get(), ANEURALNETWORKS_CONCATENATION,
                                              static_cast<uint32_t>(inputs.size()), inputs.data(),
                                              1, &output));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(
                model.get(), static_cast<uint32_t>(inputs.size()), inputs.data(), 1, &output));
}

// IF(true, then, else, x) -> y, with x and y of dims [1]: a model that can
// itself be a branch, so chains of them nest subgraphs one level each.
Model ifModel(ANeuralNetworksModel* thenBranch, ANeuralNetworksModel* elseBranch,
              bool finish = true) {
  Model model = newModel();
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  const OperandType condition = {ANEURALNETWORKS_TENSOR_BOOL8, {1}};
  addOperand(model.get(), condition);
  const uint8_t yes = 1;
  EXPECT_OK(ANeuralNetworksModel_setOperandValue(model.get(), 0, &yes, sizeof(yes)));
  for (int32_t index : {1, 2}) {
    EXPECT_OK(ANeuralNetworksModel_addOperand(model.get(), &modelType));
    EXPECT_OK(ANeuralNetworksModel_setOperandValueFromModel(model.get(), index,
                                                            index == 1 ? thenBranch : elseBranch));
  }
  addOperand(model.get(), floatTensor({1}));
  addOperand(model.get(), floatTensor({1}));
  const std::vector<uint32_t> inputs = {0, 1, 2, 3};
  const uint32_t x = 3, y = 4;
  EXPECT_OK(
      ANeuralNetworksModel_addOperation(model.get(), ANEURALNETWORKS_IF, 4, inputs.data(), 1, &y));
  EXPECT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model.get(), 1, &x, 1, &y));
  if (finish) {
    EXPECT_OK(ANeuralNetworksModel_finish(model.get()));
  }
  return model;
}

TEST(LimitsTest, SubgraphNesting) {
  std::vector<Model> chain;
  chain.push_back(floorModel({1}, {1}));
  while (chain.size() < limits::kMaxSubgraphDepth) {
    chain.push_back(ifModel(chain.back().get(), chain.back().get()));
  }
  // At the limit the model runs: 31 IFs around a FLOOR.
  Compilation compilation = compileForDevice(chain.back().get());
  Execution execution = newExecution(compilation.get());
  const float input = -1.5f;
  float output = 0.0f;
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, &input, sizeof(input)));
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, &output, sizeof(output)));
  ASSERT_OK(ANeuralNetworksExecution_compute(execution.get()));
  EXPECT_EQ(output, -2.0f);
  // One level more is refused where the model is referenced.
  Model outer = newModel();
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  ASSERT_OK(ANeuralNetworksModel_addOperand(outer.get(), &modelType));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValueFromModel(outer.get(), 0, chain.back().get()));
}

// Two distinct models per level, each referencing both of the level below:
// finish would copy 2^(level+1) - 2 subgraphs.
TEST(LimitsTest, ReferencedSubgraphCount) {
  Model a = floorModel({1}, {1}), b = floorModel({1}, {1});
  uint64_t referenced = 0;
  while (2 * (referenced + 1) <= limits::kMaxReferencedSubgraphs) {
    Model nextA = ifModel(a.get(), b.get());
    Model nextB = ifModel(b.get(), a.get());
    a = std::move(nextA);
    b = std::move(nextB);
    referenced = 2 * (referenced + 1);
  }
  Model over = ifModel(a.get(), b.get(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_finish(over.get()));
}

TEST(LimitsTest, ArgumentAndMemoryDescRank) {
  Model model = floorModel({0}, {0});
  Compilation compilation = compileForDevice(model.get());
  Execution execution = newExecution(compilation.get());
  const OperandType over = tensorOfRank(limits::kMaxRank + 1);
  const ANeuralNetworksOperandType overType = over.get();
  float value = 0.0f;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInput(execution.get(), 0, &overType, &value, 4));
  ANeuralNetworksMemoryDesc* raw = nullptr;
  ASSERT_OK(ANeuralNetworksMemoryDesc_create(&raw));
  MemoryDesc desc(raw);
  ASSERT_OK(ANeuralNetworksMemoryDesc_addInputRole(desc.get(), compilation.get(), 0, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemoryDesc_setDimensions(
                                          desc.get(), over.dims.size(), over.dims.data()));
}

// TILE by a multiple known only at run time makes an 8 GiB temporary: the
// reference device refuses it as Android's does (sizes must fit in 32 bits)
// instead of allocating it.
TEST(LimitsTest, TensorSizedAtRunTime) {
  client::GraphBuilder b;
  const uint32_t x = b.addTensor({1});
  const uint32_t multiples = b.addTensor({1}, {ANEURALNETWORKS_TENSOR_INT32});
  const uint32_t tiled = b.addTensor({0});
  const uint32_t y = b.addTensor({0});
  b.addOperation(ANEURALNETWORKS_TILE, {x, multiples}, {tiled});
  b.addOperation(ANEURALNETWORKS_FLOOR, {tiled}, {y});
  b.finish({x, multiples}, {y});
  Model model = built(b);
  Compilation compilation = compileForDevice(model.get());
  Execution execution = newExecution(compilation.get());
  const float input = 1.0f;
  const int32_t times = std::numeric_limits<int32_t>::max();
  float output[4] = {};
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, &input, sizeof(input)));
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 1, nullptr, &times, sizeof(times)));
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output, sizeof(output)));
  EXPECT_NN(ANEURALNETWORKS_OP_FAILED, ANeuralNetworksExecution_compute(execution.get()));
}

}  // namespace
}  // namespace annrt::test
