// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Builds an annrt::Model through the runtime's ModelBuilder (with its
// validation), for tests of driver internals that take a Model.
#pragma once

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/model_builder.h"

namespace annrt::test {

class InternalModel {
 public:
  uint32_t tensor(const std::vector<uint32_t>& dims,
                  int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) {
    const ANeuralNetworksOperandType operand{type, static_cast<uint32_t>(dims.size()), dims.data(),
                                             0.0f, 0};
    EXPECT_TRUE(builder_.addOperand(operand).ok());
    return next_++;
  }
  uint32_t constant(const std::vector<uint32_t>& dims, const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return constantBytes(dims, ANEURALNETWORKS_TENSOR_FLOAT32, std::move(bytes));
  }
  // A constant of any tensor type from its raw bytes.
  // Values over 128 bytes are read at finish, as NNAPI specifies: kept here.
  uint32_t constantBytes(const std::vector<uint32_t>& dims, int32_t type,
                         std::vector<uint8_t> bytes) {
    const uint32_t index = tensor(dims, type);
    const std::vector<uint8_t>& kept = values_.emplace_back(std::move(bytes));
    EXPECT_TRUE(
        builder_.setOperandValue(static_cast<int32_t>(index), kept.data(), kept.size()).ok());
    return index;
  }
  uint32_t int32(int32_t value) {
    const ANeuralNetworksOperandType operand{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};
    EXPECT_TRUE(builder_.addOperand(operand).ok());
    EXPECT_TRUE(builder_.setOperandValue(static_cast<int32_t>(next_), &value, sizeof value).ok());
    return next_++;
  }
  // A VALID MAX_POOL_2D of `size` x `size` windows, stride `size`.
  uint32_t maxPool(uint32_t input, int32_t size, const std::vector<uint32_t>& outputDims) {
    const uint32_t output = tensor(outputDims);
    operation(ANEURALNETWORKS_MAX_POOL_2D,
              {input, int32(ANEURALNETWORKS_PADDING_VALID), int32(size), int32(size), int32(size),
               int32(size), int32(ANEURALNETWORKS_FUSED_NONE)},
              {output});
    return output;
  }
  void operation(ANeuralNetworksOperationType type, const std::vector<uint32_t>& inputs,
                 const std::vector<uint32_t>& outputs) {
    EXPECT_TRUE(builder_
                    .addOperation(type, static_cast<uint32_t>(inputs.size()), inputs.data(),
                                  static_cast<uint32_t>(outputs.size()), outputs.data())
                    .ok());
  }
  std::shared_ptr<const Model> finish(const std::vector<uint32_t>& inputs,
                                      const std::vector<uint32_t>& outputs) {
    EXPECT_TRUE(builder_
                    .identifyInputsAndOutputs(static_cast<uint32_t>(inputs.size()), inputs.data(),
                                              static_cast<uint32_t>(outputs.size()), outputs.data())
                    .ok());
    EXPECT_TRUE(builder_.finish().ok());
    return builder_.model();
  }

 private:
  runtime::ModelBuilder builder_;
  std::deque<std::vector<uint8_t>> values_;
  uint32_t next_ = 0;
};

// An input [1, 4, 4, 1] through `count` (1 or 2) 2x2 MAX_POOL_2Ds of stride
// 2, each halving its height and width.
inline std::shared_ptr<const Model> maxPoolChain(uint32_t count) {
  InternalModel builder;
  const uint32_t input = builder.tensor({1, 4, 4, 1});
  uint32_t value = input;
  for (uint32_t i = 0, side = 2; i < count; ++i, side /= 2) {
    value = builder.maxPool(value, 2, {1, side, side, 1});
  }
  return builder.finish({input}, {value});
}

// An operand of `type` with dims [1] (none for SUBGRAPH).
// A memory pool holding its own bytes.
class VectorPool final : public MemoryPool {
 public:
  explicit VectorPool(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  uint8_t* data() const override { return const_cast<uint8_t*>(bytes_.data()); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::vector<uint8_t> bytes_;
};

// A shape of `type` and `dims`, unquantized.
inline Shape shapeOf(OperandType type, std::vector<uint32_t> dims) {
  Shape shape;
  shape.type = type;
  shape.dims = std::move(dims);
  return shape;
}

inline Operand operandOf(OperandType type, Lifetime lifetime, DataLocation location = {}) {
  Operand operand;
  operand.shape = shapeOf(
      type, type == OperandType::SUBGRAPH ? std::vector<uint32_t>{} : std::vector<uint32_t>{1});
  operand.lifetime = lifetime;
  operand.location = location;
  return operand;
}

// y = WHILE(false, FLOOR)(x), built by hand as a valid Model: the loop runs
// no iteration and passes x on. Referenced model 0 is the condition, 1 the body.
inline Model loopNeverTaken() {
  Model model;
  model.operandValues = {0};  // the condition: false
  const Operand boolFalse =
      operandOf(OperandType::TENSOR_BOOL8, Lifetime::CONSTANT_COPY, {0, 0, 1});
  Subgraph condition;
  condition.operands = {operandOf(OperandType::TENSOR_FLOAT32, Lifetime::SUBGRAPH_INPUT), boolFalse,
                        boolFalse, operandOf(OperandType::TENSOR_BOOL8, Lifetime::SUBGRAPH_OUTPUT)};
  condition.operations = {{OperationType::LOGICAL_AND, {1, 2}, {3}}};
  condition.inputIndexes = {0};
  condition.outputIndexes = {3};
  Subgraph body;
  body.operands = {operandOf(OperandType::TENSOR_FLOAT32, Lifetime::SUBGRAPH_INPUT),
                   operandOf(OperandType::TENSOR_FLOAT32, Lifetime::SUBGRAPH_OUTPUT)};
  body.operations = {{OperationType::FLOOR, {0}, {1}}};
  body.inputIndexes = {0};
  body.outputIndexes = {1};
  model.referenced = {condition, body};
  model.main.operands = {operandOf(OperandType::TENSOR_FLOAT32, Lifetime::SUBGRAPH_INPUT),
                         operandOf(OperandType::SUBGRAPH, Lifetime::SUBGRAPH, {0, 0, 0}),
                         operandOf(OperandType::SUBGRAPH, Lifetime::SUBGRAPH, {0, 1, 0}),
                         operandOf(OperandType::TENSOR_FLOAT32, Lifetime::SUBGRAPH_OUTPUT)};
  model.main.operations = {{OperationType::WHILE, {1, 2, 0}, {3}}};
  model.main.inputIndexes = {0};
  model.main.outputIndexes = {3};
  return model;
}

}  // namespace annrt::test
