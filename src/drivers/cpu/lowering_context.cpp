// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/lowering_context.h"

#include <algorithm>
#include <cstring>

namespace annrt::cpu {
namespace {

// The XNNPACK subgraph API of Debian's 2022-02 build handles at most 6 dims.
constexpr uint32_t kMaxRank = 6;

bool isConstant(const Operand& operand) {
  return operand.lifetime == Lifetime::CONSTANT_COPY ||
         operand.lifetime == Lifetime::CONSTANT_REFERENCE;
}

std::vector<size_t> toSizes(const std::vector<uint32_t>& dims) {
  return {dims.begin(), dims.end()};
}

}  // namespace

Result<void> checkXnn(xnn_status status, const char* call) {
  ANNRT_CPU_REQUIRE(status == xnn_status_success, "XNNPACK {} failed with status {}", call,
                    static_cast<int>(status));
  return {};
}

LoweringContext::LoweringContext(const Model& model, xnn_subgraph_t subgraph)
    : model_(model), subgraph_(subgraph) {}

Result<const uint8_t*> LoweringContext::constantBytes(const Operation& op, uint32_t i,
                                                      OperandType type) const {
  ANNRT_CPU_REQUIRE(i < op.inputs.size(), "missing input {}", i);
  const Operand& operand = input(op, i);
  ANNRT_CPU_REQUIRE(operand.shape.type == type, "input {} is {}, expected {}", i,
                    operandTypeName(operand.shape.type), operandTypeName(type));
  ANNRT_CPU_REQUIRE(isConstant(operand), "input {} is not a constant", i);
  const uint8_t* data = model_.constantData(operand);
  ANNRT_CPU_REQUIRE(data != nullptr, "input {} has no data", i);
  return data;
}

Result<int32_t> LoweringContext::intScalar(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::INT32));
  int32_t value;
  std::memcpy(&value, data, sizeof(value));
  return value;
}

Result<float> LoweringContext::floatScalar(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::FLOAT32));
  float value;
  std::memcpy(&value, data, sizeof(value));
  return value;
}

Result<bool> LoweringContext::boolScalar(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::BOOL));
  return *data != 0;
}

Result<std::vector<int32_t>> LoweringContext::intTensor(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::TENSOR_INT32));
  std::vector<int32_t> values(elementCount(input(op, i).shape));
  std::memcpy(values.data(), data, values.size() * sizeof(int32_t));
  return values;
}

Result<void> LoweringContext::checkFloatTensor(uint32_t operandIndex) const {
  const Shape& shape = operand(operandIndex).shape;
  ANNRT_CPU_REQUIRE(shape.type == OperandType::TENSOR_FLOAT32, "operand {} is {}, not float32",
                    operandIndex, operandTypeName(shape.type));
  ANNRT_CPU_REQUIRE(!hasUnknownDims(shape), "operand {} has unknown or zero dimensions {}",
                    operandIndex, toString(shape.dims));
  ANNRT_CPU_REQUIRE(rank(shape) <= kMaxRank, "operand {} has rank {} > {}", operandIndex,
                    rank(shape), kMaxRank);
  return {};
}

Result<void> LoweringContext::checkFloatTensors(const Operation& op,
                                                std::initializer_list<uint32_t> inputs) const {
  for (uint32_t i : inputs) {
    ANNRT_CPU_REQUIRE(i < op.inputs.size(), "missing input {}", i);
    ANNRT_RETURN_IF_ERROR(checkFloatTensor(op.inputs[i]));
  }
  for (uint32_t index : op.outputs) ANNRT_RETURN_IF_ERROR(checkFloatTensor(index));
  return {};
}

Result<void> LoweringContext::checkConstant(const Operation& op, uint32_t i) const {
  ANNRT_CPU_REQUIRE(isConstant(input(op, i)), "input {} must be a constant", i);
  return {};
}

bool LoweringContext::isOmitted(const Operation& op, uint32_t i) const {
  return i >= op.inputs.size() || input(op, i).lifetime == Lifetime::NO_VALUE;
}

uint32_t LoweringContext::externalValueCount() const {
  return static_cast<uint32_t>(model_.main.inputIndexes.size() + model_.main.outputIndexes.size());
}

const float* LoweringContext::ownedCopy(const uint8_t* data, size_t bytes) {
  const size_t floats = (bytes + XNN_EXTRA_BYTES) / sizeof(float) + 1;
  auto copy = std::make_unique<float[]>(floats);
  std::fill_n(copy.get(), floats, 0.0f);
  std::memcpy(copy.get(), data, bytes);
  constants_.push_back(std::move(copy));
  return constants_.back().get();
}

Result<uint32_t> LoweringContext::defineTensor(const std::vector<uint32_t>& dims, const void* data,
                                               uint32_t externalId, uint32_t flags) {
  const std::vector<size_t> sizes = toSizes(dims);
  uint32_t id = XNN_INVALID_VALUE_ID;
  ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32,
                                                         sizes.size(), sizes.data(), data,
                                                         externalId, flags, &id),
                                 "xnn_define_tensor_value"));
  return id;
}

Result<uint32_t> LoweringContext::value(uint32_t operandIndex) {
  if (auto found = values_.find(operandIndex); found != values_.end()) return found->second;
  ANNRT_RETURN_IF_ERROR(checkFloatTensor(operandIndex));
  const Operand& operand = this->operand(operandIndex);
  const auto& inputs = model_.main.inputIndexes;
  const auto& outputs = model_.main.outputIndexes;
  const auto inputAt = std::find(inputs.begin(), inputs.end(), operandIndex);
  const auto outputAt = std::find(outputs.begin(), outputs.end(), operandIndex);
  ANNRT_CPU_REQUIRE(inputAt == inputs.end() || outputAt == outputs.end(),
                    "operand {} is both a model input and output", operandIndex);
  const void* data = nullptr;
  uint32_t externalId = XNN_INVALID_VALUE_ID;
  uint32_t flags = 0;
  if (inputAt != inputs.end()) {
    externalId = static_cast<uint32_t>(inputAt - inputs.begin());
    flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
  } else if (outputAt != outputs.end()) {
    externalId = static_cast<uint32_t>(inputs.size() + (outputAt - outputs.begin()));
    flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
  } else if (isConstant(operand)) {
    const uint8_t* bytes = model_.constantData(operand);
    ANNRT_CPU_REQUIRE(bytes != nullptr, "constant operand {} has no data", operandIndex);
    data = ownedCopy(bytes, byteSize(operand.shape));
  } else {
    ANNRT_CPU_REQUIRE(operand.lifetime == Lifetime::TEMPORARY_VARIABLE,
                      "operand {} has unsupported lifetime {}", operandIndex,
                      static_cast<int>(operand.lifetime));
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t id, defineTensor(operand.shape.dims, data, externalId, flags));
  values_[operandIndex] = id;
  return id;
}

Result<uint32_t> LoweringContext::internalValue(const std::vector<uint32_t>& dims) {
  return defineTensor(dims, nullptr, XNN_INVALID_VALUE_ID, 0);
}

Result<uint32_t> LoweringContext::staticValue(const std::vector<uint32_t>& dims,
                                              std::vector<float> data) {
  const float* copy =
      ownedCopy(reinterpret_cast<const uint8_t*>(data.data()), data.size() * sizeof(float));
  return defineTensor(dims, copy, XNN_INVALID_VALUE_ID, 0);
}

}  // namespace annrt::cpu
