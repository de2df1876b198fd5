// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "client/graph_builder.h"

#include <utility>

#include "client/result_codes.h"

namespace annrt::client {

GraphBuilder::GraphBuilder() {
  check(ANeuralNetworksModel_create(&model_), "ANeuralNetworksModel_create");
}

GraphBuilder::~GraphBuilder() {
  if (model_ != nullptr) ANeuralNetworksModel_free(model_);
}

void GraphBuilder::check(int code, const char* call) {
  if (code != ANEURALNETWORKS_NO_ERROR && ok()) {
    firstError_ = code;
    firstErrorCall_ = call;
  }
}

uint32_t GraphBuilder::addOperand(const ANeuralNetworksOperandType& type) {
  if (ok())
    check(ANeuralNetworksModel_addOperand(model_, &type), "ANeuralNetworksModel_addOperand");
  return operandCount_++;
}

void GraphBuilder::setValue(uint32_t operand, const void* data, size_t length) {
  if (!ok()) return;
  check(ANeuralNetworksModel_setOperandValue(model_, static_cast<int32_t>(operand), data, length),
        "ANeuralNetworksModel_setOperandValue");
}

uint32_t GraphBuilder::addTensor(const std::vector<uint32_t>& dims, const TensorType& type) {
  return addOperand({type.type, static_cast<uint32_t>(dims.size()),
                     dims.empty() ? nullptr : dims.data(), type.scale, type.zeroPoint});
}

uint32_t GraphBuilder::addConstant(const std::vector<uint32_t>& dims, const TensorType& type,
                                   std::vector<uint8_t> bytes) {
  const uint32_t index = addTensor(dims, type);
  const std::vector<uint8_t>& stored = constants_.emplace_back(std::move(bytes));
  constantBytes_ += stored.size();
  setValue(index, stored.data(), stored.size());
  return index;
}

uint32_t GraphBuilder::addFloatConstant(const std::vector<uint32_t>& dims,
                                        const std::vector<float>& values) {
  return addConstant(dims, {}, toBytes(values));
}

uint32_t GraphBuilder::addInt32Scalar(int32_t value) {
  const uint32_t index = addTensor({}, {ANEURALNETWORKS_INT32});
  setValue(index, &value, sizeof(value));
  return index;
}

uint32_t GraphBuilder::addFloat32Scalar(float value) {
  const uint32_t index = addTensor({}, {ANEURALNETWORKS_FLOAT32});
  setValue(index, &value, sizeof(value));
  return index;
}

uint32_t GraphBuilder::addBoolScalar(bool value) {
  const uint32_t index = addTensor({}, {ANEURALNETWORKS_BOOL});
  const uint8_t byte = value ? 1 : 0;
  setValue(index, &byte, sizeof(byte));
  return index;
}

uint32_t GraphBuilder::addSubgraph(const ANeuralNetworksModel* subgraph) {
  ANeuralNetworksOperandType type{};
  type.type = ANEURALNETWORKS_MODEL;
  const uint32_t index = addOperand(type);
  if (ok()) {
    check(ANeuralNetworksModel_setOperandValueFromModel(model_, static_cast<int32_t>(index),
                                                        subgraph),
          "ANeuralNetworksModel_setOperandValueFromModel");
  }
  return index;
}

uint32_t GraphBuilder::addOmitted(const std::vector<uint32_t>& dims, const TensorType& type) {
  const uint32_t index = addTensor(dims, type);
  setValue(index, nullptr, 0);
  return index;
}

void GraphBuilder::setPerChannelQuant(uint32_t operand, uint32_t channelDim,
                                      const std::vector<float>& scales) {
  if (!ok()) return;
  const ANeuralNetworksSymmPerChannelQuantParams params{
      channelDim, static_cast<uint32_t>(scales.size()), scales.data()};
  check(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
            model_, static_cast<int32_t>(operand), &params),
        "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams");
}

void GraphBuilder::addOperation(ANeuralNetworksOperationType type,
                                const std::vector<uint32_t>& inputs,
                                const std::vector<uint32_t>& outputs) {
  ++operationCount_;
  if (!ok()) return;
  check(ANeuralNetworksModel_addOperation(model_, type, static_cast<uint32_t>(inputs.size()),
                                          indexArray(inputs), static_cast<uint32_t>(outputs.size()),
                                          indexArray(outputs)),
        "ANeuralNetworksModel_addOperation");
}

void GraphBuilder::identifyInputsAndOutputs(const std::vector<uint32_t>& inputs,
                                            const std::vector<uint32_t>& outputs) {
  if (!ok()) return;
  check(ANeuralNetworksModel_identifyInputsAndOutputs(
            model_, static_cast<uint32_t>(inputs.size()), indexArray(inputs),
            static_cast<uint32_t>(outputs.size()), indexArray(outputs)),
        "ANeuralNetworksModel_identifyInputsAndOutputs");
}

void GraphBuilder::finish(bool relaxFloat32toFloat16) {
  if (relaxFloat32toFloat16 && ok()) {
    check(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model_, true),
          "ANeuralNetworksModel_relaxComputationFloat32toFloat16");
  }
  if (ok()) check(ANeuralNetworksModel_finish(model_), "ANeuralNetworksModel_finish");
}

void GraphBuilder::finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs,
                          bool relaxFloat32toFloat16) {
  identifyInputsAndOutputs(inputs, outputs);
  finish(relaxFloat32toFloat16);
}

Result<void> GraphBuilder::status() const {
  return checkNnapi(firstError_, firstErrorCall_);
}

ANeuralNetworksModel* GraphBuilder::releaseModel() {
  return std::exchange(model_, nullptr);
}

}  // namespace annrt::client
