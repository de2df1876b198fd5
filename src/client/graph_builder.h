// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The one builder of NNAPI models that annrt's tools and tests write by hand
// (built-in benchmark models, operation tests, device tests). It goes through
// the public C API only. The first failing call is remembered and later calls
// become no-ops, so building code reads as a straight list of operations and
// checks status() once at the end.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "common/result.h"

namespace annrt::client {

// An operand's type code and quantization (0 and 0 where it has none).
struct TensorType {
  int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};

template <typename T>
std::vector<uint8_t> toBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// The pointer to give NNAPI for a list of operand indexes: never null, since
// AOSP refuses a null list even when it is empty.
inline const uint32_t* indexArray(const std::vector<uint32_t>& indexes) {
  static constexpr uint32_t kNone = 0;
  return indexes.empty() ? &kNone : indexes.data();
}

class GraphBuilder {
 public:
  GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;
  ~GraphBuilder();

  // An operand without a value (a model input or output, or a temporary).
  // Scalars have no dims.
  uint32_t addTensor(const std::vector<uint32_t>& dims, const TensorType& type = {});
  uint32_t addFloatTensor(const std::vector<uint32_t>& dims) { return addTensor(dims); }
  // A constant; the builder keeps `bytes`, since NNAPI references values over
  // 128 bytes until finish (see takeConstants()).
  uint32_t addConstant(const std::vector<uint32_t>& dims, const TensorType& type,
                       std::vector<uint8_t> bytes);
  uint32_t addFloatConstant(const std::vector<uint32_t>& dims, const std::vector<float>& values);
  uint32_t addInt32Scalar(int32_t value);
  uint32_t addFloat32Scalar(float value);
  uint32_t addBoolScalar(bool value);
  // An operand of type MODEL referring to `subgraph` (finished), for IF and WHILE.
  uint32_t addSubgraph(const ANeuralNetworksModel* subgraph);
  // An optional operand given no value (Lifetime NO_VALUE).
  uint32_t addOmitted(const std::vector<uint32_t>& dims, const TensorType& type = {});
  void setPerChannelQuant(uint32_t operand, uint32_t channelDim, const std::vector<float>& scales);
  void addOperation(ANeuralNetworksOperationType type, const std::vector<uint32_t>& inputs,
                    const std::vector<uint32_t>& outputs);
  void identifyInputsAndOutputs(const std::vector<uint32_t>& inputs,
                                const std::vector<uint32_t>& outputs);
  // relaxComputationFloat32toFloat16 when asked, then finish.
  void finish(bool relaxFloat32toFloat16 = false);
  // identifyInputsAndOutputs, then finish.
  void finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs,
              bool relaxFloat32toFloat16 = false);

  // The first failing call, or ok.
  Result<void> status() const;
  bool ok() const { return firstError_ == ANEURALNETWORKS_NO_ERROR; }
  int firstErrorCode() const { return firstError_; }
  ANeuralNetworksModel* model() const { return model_; }
  uint32_t operandCount() const { return operandCount_; }
  uint32_t operationCount() const { return operationCount_; }
  // Hands over the model (finished or not) and the constant buffers it uses.
  ANeuralNetworksModel* releaseModel();
  std::deque<std::vector<uint8_t>> takeConstants() { return std::move(constants_); }
  uint64_t constantBytes() const { return constantBytes_; }

 private:
  uint32_t addOperand(const ANeuralNetworksOperandType& type);
  void setValue(uint32_t operand, const void* data, size_t length);
  void check(int code, const char* call);

  ANeuralNetworksModel* model_ = nullptr;
  uint32_t operandCount_ = 0;
  uint32_t operationCount_ = 0;
  std::deque<std::vector<uint8_t>> constants_;
  uint64_t constantBytes_ = 0;
  int firstError_ = ANEURALNETWORKS_NO_ERROR;
  std::string firstErrorCall_;
};

}  // namespace annrt::client
