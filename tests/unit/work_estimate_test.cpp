// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's work estimate, which decides which operations are worth
// handing to the thread pool.
#include "drivers/cpu/work_estimate.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace annrt::cpu {
namespace {

uint32_t addOperand(Model& model, OperandType type, std::vector<uint32_t> dims) {
  Operand operand;
  operand.shape.type = type;
  operand.shape.dims = std::move(dims);
  model.main.operands.push_back(operand);
  return static_cast<uint32_t>(model.main.operands.size() - 1);
}

TEST(WorkEstimateTest, CountsMultiplyAddsOfConvolutionsAndSkipsFoldedOperations) {
  Model model;
  const uint32_t input = addOperand(model, OperandType::TENSOR_FLOAT32, {1, 8, 8, 4});
  const uint32_t half = addOperand(model, OperandType::TENSOR_FLOAT16, {16, 3, 3, 4});
  const uint32_t filter = addOperand(model, OperandType::TENSOR_FLOAT32, {16, 3, 3, 4});
  const uint32_t conv = addOperand(model, OperandType::TENSOR_FLOAT32, {1, 8, 8, 16});
  const uint32_t depthwiseFilter = addOperand(model, OperandType::TENSOR_FLOAT32, {1, 5, 5, 16});
  const uint32_t depthwise = addOperand(model, OperandType::TENSOR_FLOAT32, {1, 4, 4, 16});
  const uint32_t flat = addOperand(model, OperandType::TENSOR_FLOAT32, {1, 256});
  const uint32_t logistic = addOperand(model, OperandType::TENSOR_FLOAT32, {1, 256});
  model.main.operations = {
      {OperationType::CAST, {half}, {filter}},
      {OperationType::CONV_2D, {input, filter}, {conv}},
      {OperationType::DEPTHWISE_CONV_2D, {conv, depthwiseFilter}, {depthwise}},
      {OperationType::RESHAPE, {depthwise}, {flat}},
      {OperationType::LOGISTIC, {flat}, {logistic}},
  };
  const auto& ops = model.main.operations;
  EXPECT_EQ(operationMflop(model, ops[0]), 0.0);  // folded
  EXPECT_DOUBLE_EQ(operationMflop(model, ops[1]) * 1e6, 2.0 * (8 * 8 * 16) * (3 * 3 * 4));
  EXPECT_DOUBLE_EQ(operationMflop(model, ops[2]) * 1e6, 2.0 * (4 * 4 * 16) * (5 * 5));
  EXPECT_EQ(operationMflop(model, ops[3]), 0.0);  // a reshape is no node
  EXPECT_DOUBLE_EQ(operationMflop(model, ops[4]) * 1e6, 256.0);
}

TEST(WorkEstimateTest, ThresholdFromTheEnvironment) {
  unsetenv("ANNRT_CPU_HANDOFF_US");
  EXPECT_DOUBLE_EQ(handOffMicros(), kDefaultHandOffMicros);
  setenv("ANNRT_CPU_HANDOFF_US", "0", 1);
  EXPECT_DOUBLE_EQ(handOffMicros(), 0.0);
  setenv("ANNRT_CPU_HANDOFF_US", "2.5", 1);
  EXPECT_DOUBLE_EQ(handOffMicros(), 2.5);
  setenv("ANNRT_CPU_HANDOFF_US", "0.75", 1);
  EXPECT_DOUBLE_EQ(handOffMicros(), 0.75);
  setenv("ANNRT_CPU_HANDOFF_US", "lots", 1);
  EXPECT_DOUBLE_EQ(handOffMicros(), kDefaultHandOffMicros);  // ignored, with a warning
  setenv("ANNRT_CPU_HANDOFF_US", "-1", 1);
  EXPECT_DOUBLE_EQ(handOffMicros(), kDefaultHandOffMicros);
  unsetenv("ANNRT_CPU_HANDOFF_US");
}

}  // namespace
}  // namespace annrt::cpu
