// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "graph_builder.h"

#include <utility>

#include "nnapi_status.h"

namespace annrt::tools {

GraphBuilder::GraphBuilder() {
  check(ANeuralNetworksModel_create(&model_), "ANeuralNetworksModel_create");
}

GraphBuilder::~GraphBuilder() {
  if (model_ != nullptr) ANeuralNetworksModel_free(model_);
}

void GraphBuilder::check(int code, const char* call) {
  if (code != ANEURALNETWORKS_NO_ERROR && firstError_ == ANEURALNETWORKS_NO_ERROR) {
    firstError_ = code;
    firstErrorCall_ = call;
  }
}

uint32_t GraphBuilder::addOperand(const ANeuralNetworksOperandType& type) {
  if (firstError_ == ANEURALNETWORKS_NO_ERROR) {
    check(ANeuralNetworksModel_addOperand(model_, &type), "ANeuralNetworksModel_addOperand");
  }
  return operandCount_++;
}

uint32_t GraphBuilder::addFloatTensor(std::vector<uint32_t> dims) {
  ANeuralNetworksOperandType type{ANEURALNETWORKS_TENSOR_FLOAT32,
                                  static_cast<uint32_t>(dims.size()), dims.data(), 0.0f, 0};
  return addOperand(type);
}

uint32_t GraphBuilder::addFloatConstant(std::vector<uint32_t> dims, std::vector<float> values) {
  const uint32_t index = addFloatTensor(std::move(dims));
  const std::vector<float>& stored = constants_.emplace_back(std::move(values));
  constantBytes_ += stored.size() * sizeof(float);
  if (firstError_ == ANEURALNETWORKS_NO_ERROR) {
    check(ANeuralNetworksModel_setOperandValue(model_, index, stored.data(),
                                               stored.size() * sizeof(float)),
          "ANeuralNetworksModel_setOperandValue");
  }
  return index;
}

uint32_t GraphBuilder::addInt32Scalar(int32_t value) {
  const uint32_t index = addOperand({ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0});
  if (firstError_ == ANEURALNETWORKS_NO_ERROR) {
    check(ANeuralNetworksModel_setOperandValue(model_, index, &value, sizeof(value)),
          "ANeuralNetworksModel_setOperandValue");
  }
  return index;
}

uint32_t GraphBuilder::addFloat32Scalar(float value) {
  const uint32_t index = addOperand({ANEURALNETWORKS_FLOAT32, 0, nullptr, 0.0f, 0});
  if (firstError_ == ANEURALNETWORKS_NO_ERROR) {
    check(ANeuralNetworksModel_setOperandValue(model_, index, &value, sizeof(value)),
          "ANeuralNetworksModel_setOperandValue");
  }
  return index;
}

void GraphBuilder::addOperation(ANeuralNetworksOperationType type,
                                const std::vector<uint32_t>& inputs,
                                const std::vector<uint32_t>& outputs) {
  if (firstError_ != ANEURALNETWORKS_NO_ERROR) return;
  check(ANeuralNetworksModel_addOperation(model_, type, static_cast<uint32_t>(inputs.size()),
                                          inputs.data(), static_cast<uint32_t>(outputs.size()),
                                          outputs.data()),
        "ANeuralNetworksModel_addOperation");
}

void GraphBuilder::finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs,
                          bool relaxFloat32toFloat16) {
  if (firstError_ != ANEURALNETWORKS_NO_ERROR) return;
  check(ANeuralNetworksModel_identifyInputsAndOutputs(
            model_, static_cast<uint32_t>(inputs.size()), inputs.data(),
            static_cast<uint32_t>(outputs.size()), outputs.data()),
        "ANeuralNetworksModel_identifyInputsAndOutputs");
  if (relaxFloat32toFloat16 && firstError_ == ANEURALNETWORKS_NO_ERROR) {
    check(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model_, true),
          "ANeuralNetworksModel_relaxComputationFloat32toFloat16");
  }
  if (firstError_ == ANEURALNETWORKS_NO_ERROR) {
    check(ANeuralNetworksModel_finish(model_), "ANeuralNetworksModel_finish");
  }
}

Result<void> GraphBuilder::status() const {
  return checkNnapi(firstError_, firstErrorCall_);
}

ANeuralNetworksModel* GraphBuilder::releaseModel() {
  return std::exchange(model_, nullptr);
}

}  // namespace annrt::tools
