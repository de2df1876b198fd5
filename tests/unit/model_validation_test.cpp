// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ops::validateModel, the check of a complete model that ModelBuilder::finish
// and drivers receiving models through the plug-in ABI share: each case
// breaks one rule in a valid model and must be rejected for that rule.
#include "ops/model_validation.h"

#include <gtest/gtest.h>

#include <string>

#include "ops/operation.h"
#include "unit/internal_model.h"

namespace annrt::ops {
namespace {

// input [1,4,4,1] -> MAX_POOL_2D -> t [1,2,2,1] -> MAX_POOL_2D -> output [1,1,1,1].
// Operands: 0 input, 1 t, 2-7 the first pool's scalars, 8 output, 9-14 the second's.
class ModelValidationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = *test::maxPoolChain(2);
    ASSERT_EQ(model_.main.operations[0].outputs, std::vector<uint32_t>{1});
    ASSERT_EQ(model_.main.operations[1].outputs, std::vector<uint32_t>{8});
  }

  // Expects validation to fail with `expected` in the message.
  void expectRejected(const std::string& expected) const {
    const Result<void> valid = validateModel(model_);
    ASSERT_FALSE(valid.ok()) << "expected: " << expected;
    EXPECT_EQ(valid.error().code, ErrorCode::BAD_DATA);
    EXPECT_NE(valid.error().message.find(expected), std::string::npos) << valid.error().message;
  }

  Operation& firstPool() { return model_.main.operations[0]; }
  Operation& secondPool() { return model_.main.operations[1]; }

  Model model_;
};

TEST_F(ModelValidationTest, ValidModelPasses) {
  const Result<void> valid = validateModel(model_);
  EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST_F(ModelValidationTest, WrongOperationArity) {
  firstPool().inputs.pop_back();
  expectRejected("invalid MAX_POOL_2D operation");
}

TEST_F(ModelValidationTest, WrongOperandTypeForOperation) {
  model_.main.operands[0].shape.type = OperandType::TENSOR_BOOL8;
  expectRejected("invalid MAX_POOL_2D operation");
}

TEST_F(ModelValidationTest, InvalidOperandType) {
  model_.main.operands[0].shape.scale = 0.5f;  // a float tensor has no quantization
  expectRejected("operand 0: TENSOR_FLOAT32 operand must have scale 0");
}

TEST_F(ModelValidationTest, ConstantOfWrongLength) {
  model_.main.operands[2].location.length = 2;
  expectRejected("constant operand 2 of INT32[] needs 4 bytes, has 2");
}

TEST_F(ModelValidationTest, ConstantOutsideOperandValues) {
  model_.main.operands[2].location.offset = model_.operandValues.size() - 2;
  expectRejected("constant operand 2 takes bytes");
}

TEST_F(ModelValidationTest, ConstantPoolOutOfRange) {
  Operand& operand = model_.main.operands[2];
  operand.lifetime = Lifetime::CONSTANT_REFERENCE;
  operand.location.pool = static_cast<uint32_t>(model_.pools.size());
  expectRejected("constant operand 2 is in memory pool");
}

TEST_F(ModelValidationTest, OperationReadsOperandProducedLater) {
  std::swap(firstPool(), secondPool());
  expectRejected("operation 0 (MAX_POOL_2D) reads operand 1 before any operation writes it");
}

TEST_F(ModelValidationTest, OperandWrittenTwice) {
  secondPool().outputs = {1};
  expectRejected("operand 1 is written by more than one operation");
}

TEST_F(ModelValidationTest, OperationWritesConstant) {
  secondPool().outputs = {2};
  expectRejected("writes operand 2, which is a constant");
}

TEST_F(ModelValidationTest, OutputNeverWritten) {
  model_.main.operands.push_back(model_.main.operands[8]);
  model_.main.outputIndexes.push_back(static_cast<uint32_t>(model_.main.operands.size() - 1));
  expectRejected("operand 15 is never written");
}

TEST_F(ModelValidationTest, IoListWithConstant) {
  model_.main.outputIndexes.push_back(2);
  expectRejected("model output operand 2 is a constant");
}

TEST_F(ModelValidationTest, IoListWithOperandTwice) {
  model_.main.inputIndexes.push_back(0);
  expectRejected("operand 0 is listed twice as a model input");
}

TEST_F(ModelValidationTest, SubgraphOperandOutOfRange) {
  Operand& operand = model_.main.operands[2];
  operand.shape = test::shapeOf(OperandType::SUBGRAPH, {});
  operand.lifetime = Lifetime::SUBGRAPH;
  operand.location = {0, 3, 0};
  expectRejected("operand 2 references subgraph 3, the model has 0");
}

// A referenced model holding itself: an IF or WHILE of it would recurse forever.
TEST_F(ModelValidationTest, ReferencedModelReferencingItself) {
  Subgraph self = model_.main;
  Operand& operand = self.operands.emplace_back();
  operand.shape.type = OperandType::SUBGRAPH;
  operand.lifetime = Lifetime::SUBGRAPH;
  operand.location = {0, 0, 0};
  model_.referenced.push_back(std::move(self));
  expectRejected("referenced model 0 is reached again");
}

TEST(ModelValidationControlFlowTest, WhileLoopPasses) {
  const Result<void> valid = validateModel(test::loopNeverTaken());
  EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST(ModelValidationControlFlowTest, WhileBodyReferencingItself) {
  Model model = test::loopNeverTaken();
  model.referenced[1].operands.push_back(
      test::operandOf(OperandType::SUBGRAPH, Lifetime::SUBGRAPH, {0, 1, 0}));
  const Result<void> valid = validateModel(model);
  ASSERT_FALSE(valid.ok());
  EXPECT_NE(valid.error().message.find("referenced model 1 is reached again"), std::string::npos)
      << valid.error().message;
}

TEST_F(ModelValidationTest, EmptyModel) {
  model_.main.operations.clear();
  expectRejected("the model is empty");
}

// A context of `inputs` and `outputs` FLOAT32 [1] operands, none constant,
// that records any access past them (which would read out of bounds in the
// real contexts).
class CountingContext final : public ValidationContext {
 public:
  CountingContext(uint32_t inputs, uint32_t outputs) : inputs_(inputs), outputs_(outputs) {}
  uint32_t inputCount() const override { return inputs_; }
  uint32_t outputCount() const override { return outputs_; }
  const Shape& inputShape(uint32_t i) const override { return at(i, inputs_); }
  const Shape& outputShape(uint32_t i) const override { return at(i, outputs_); }
  bool isOmittedInput(uint32_t i) const override {
    at(i, inputs_);
    return false;
  }
  const void* constantInput(uint32_t i) const override {
    at(i, inputs_);
    return nullptr;
  }
  bool isRelaxed() const override { return false; }
  mutable bool outOfRange = false;

 private:
  const Shape& at(uint32_t i, uint32_t count) const {
    outOfRange = outOfRange || i >= count;
    return shape_;
  }
  uint32_t inputs_, outputs_;
  Shape shape_ = test::shapeOf(OperandType::TENSOR_FLOAT32, {1});
};

// fuzz/regressions/fuzz_abi_model/cast-without-inputs: CAST's validator read
// its input's type before counting its inputs (as did 15 others). No
// validator may look past the operands the operation has.
TEST(OperationValidatorTest, NoValidatorReadsPastItsOperands) {
  for (const OperationRegistration* operation : allOperations()) {
    for (uint32_t inputs = 0; inputs <= 3; ++inputs) {
      for (uint32_t outputs = 0; outputs <= 1; ++outputs) {
        const CountingContext context(inputs, outputs);
        (void)operation->validate(context);
        EXPECT_FALSE(context.outOfRange)
            << operation->name << " with " << inputs << " inputs and " << outputs << " outputs";
      }
    }
  }
}

}  // namespace
}  // namespace annrt::ops
