// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// extractSubmodel's constants: a submodel lists only the pools of the
// constants it uses, renumbered, and holds only its own small values,
// moved, and reads the same bytes through them; with referenced subgraphs
// (which name pools and values by place too) it keeps them all.
#include "common/submodel.h"

#include <gtest/gtest.h>

#include <cstring>

#include "internal_model.h"

namespace annrt {
namespace {

using test::operandOf;
using test::VectorPool;

// x -> ADD(x, c0) -> ADD(., c1) -> ADD(., c2) -> y, constant ci of [1] float
// alone in pool i (as a model from the plug-in ABI has them), or with
// `smallValues` at offset 8 i of operandValues (as ModelBuilder puts them).
Model addChain(bool smallValues = false) {
  Model model;
  model.main.operands.push_back(operandOf(OperandType::TENSOR_FLOAT32, Lifetime::SUBGRAPH_INPUT));
  uint32_t value = 0;
  for (uint32_t i = 0; i < 3; ++i) {
    const float constant = 1.5f + float(i);
    std::vector<uint8_t> bytes(sizeof constant);
    std::memcpy(bytes.data(), &constant, sizeof constant);
    const auto c = static_cast<uint32_t>(model.main.operands.size());
    if (smallValues) {
      model.operandValues.resize(size_t{8} * i);
      model.operandValues.insert(model.operandValues.end(), bytes.begin(), bytes.end());
      model.main.operands.push_back(operandOf(OperandType::TENSOR_FLOAT32, Lifetime::CONSTANT_COPY,
                                              {0, size_t{8} * i, sizeof constant}));
    } else {
      model.pools.push_back(std::make_shared<VectorPool>(bytes));
      model.main.operands.push_back(operandOf(
          OperandType::TENSOR_FLOAT32, Lifetime::CONSTANT_REFERENCE, {i, 0, sizeof constant}));
    }
    const auto out = static_cast<uint32_t>(model.main.operands.size());
    model.main.operands.push_back(
        operandOf(OperandType::TENSOR_FLOAT32,
                  i == 2 ? Lifetime::SUBGRAPH_OUTPUT : Lifetime::TEMPORARY_VARIABLE));
    model.main.operations.push_back({OperationType::ADD, {value, c}, {out}});
    value = out;
  }
  model.main.inputIndexes = {0};
  model.main.outputIndexes = {value};
  return model;
}

float constantOf(const Model& model, uint32_t operation) {
  float value = 0;
  const Operand& operand = model.main.operands[model.main.operations[operation].inputs[1]];
  std::memcpy(&value, model.constantData(operand), sizeof value);
  return value;
}

bool readOutside(uint32_t) {
  return false;
}

TEST(SubmodelTest, KeepsOnlyThePoolsOfItsConstants) {
  const Model model = addChain();
  const Submodel last = extractSubmodel(model, {2}, readOutside);
  ASSERT_EQ(last.model->pools.size(), 1u);
  EXPECT_EQ(last.model->pools[0], model.pools[2]);
  EXPECT_EQ(constantOf(*last.model, 0), 3.5f);
  const Submodel two = extractSubmodel(model, {1, 2}, readOutside);
  ASSERT_EQ(two.model->pools.size(), 2u);
  EXPECT_EQ(constantOf(*two.model, 0), 2.5f);
  EXPECT_EQ(constantOf(*two.model, 1), 3.5f);
}

TEST(SubmodelTest, KeepsEveryPoolWithReferencedSubgraphs) {
  Model model = addChain();
  model.referenced.push_back(model.main);  // its constants name pools 0-2
  const Submodel last = extractSubmodel(model, {2}, readOutside);
  ASSERT_EQ(last.model->pools.size(), 3u);
  EXPECT_EQ(constantOf(*last.model, 0), 3.5f);
}

TEST(SubmodelTest, HoldsOnlyItsOwnSmallValues) {
  const Model model = addChain(/*smallValues=*/true);
  const Submodel last = extractSubmodel(model, {2}, readOutside);
  EXPECT_EQ(last.model->operandValues.size(), sizeof(float));
  EXPECT_EQ(constantOf(*last.model, 0), 3.5f);
  const Submodel two = extractSubmodel(model, {1, 2}, readOutside);
  EXPECT_EQ(two.model->operandValues.size(), 8 + sizeof(float));  // the second one aligned
  EXPECT_EQ(constantOf(*two.model, 0), 2.5f);
  EXPECT_EQ(constantOf(*two.model, 1), 3.5f);
}

TEST(SubmodelTest, KeepsEverySmallValueWithReferencedSubgraphs) {
  Model model = addChain(/*smallValues=*/true);
  model.referenced.push_back(model.main);  // its constants name offsets 0-16
  const Submodel last = extractSubmodel(model, {2}, readOutside);
  EXPECT_EQ(last.model->operandValues, model.operandValues);
  EXPECT_EQ(constantOf(*last.model, 0), 3.5f);
}

TEST(SubmodelTest, BoundaryIsWhatTheSubmodelWouldTakeAndGive) {
  Model model = addChain();
  for (const Operation& operation : model.main.operations) {
    for (uint32_t input : operation.inputs) ++model.main.operands[input].consumers;
  }
  // The results of the first two ADDs (operands 2 and 4) are read by
  // operations of other stages too.
  auto readLater = [](uint32_t operand) { return operand == 2 || operand == 4; };
  const std::vector<std::vector<uint32_t>> cuts = {{0}, {1}, {2}, {0, 1}, {1, 2}, {0, 1, 2}};
  for (const std::vector<uint32_t>& operations : cuts) {
    const Submodel submodel = extractSubmodel(model, operations, readLater);
    const SubmodelBoundary boundary = submodelBoundary(model, operations, readLater);
    EXPECT_EQ(boundary.inputs, submodel.inputs)
        << "cut of " << operations.size() << " from " << operations.front();
    EXPECT_EQ(boundary.outputs, submodel.outputs)
        << "cut of " << operations.size() << " from " << operations.front();
  }
  const SubmodelBoundary firstTwo = submodelBoundary(model, {0, 1}, readLater);
  EXPECT_EQ(firstTwo.inputs, (std::vector<uint32_t>{0}));
  EXPECT_EQ(firstTwo.outputs, (std::vector<uint32_t>{2, 4}));
}

}  // namespace
}  // namespace annrt
