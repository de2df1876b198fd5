// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A thin helper over the NNAPI model-building calls for models the tools
// construct themselves. The first failing call is remembered and later calls
// become no-ops, so building code reads as a straight list of operations and
// checks status() once at the end.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/result.h"

namespace annrt::tools {

struct ModelDeleter {
  void operator()(ANeuralNetworksModel* model) const { ANeuralNetworksModel_free(model); }
};

class GraphBuilder {
 public:
  GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;
  ~GraphBuilder();

  uint32_t addFloatTensor(std::vector<uint32_t> dims);
  // A TENSOR_FLOAT32 constant; the values stay owned by the builder (see
  // takeConstants()) because NNAPI references values over 128 bytes.
  uint32_t addFloatConstant(std::vector<uint32_t> dims, std::vector<float> values);
  uint32_t addInt32Scalar(int32_t value);
  uint32_t addFloat32Scalar(float value);
  void addOperation(ANeuralNetworksOperationType type, const std::vector<uint32_t>& inputs,
                    const std::vector<uint32_t>& outputs);
  void finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs,
              bool relaxFloat32toFloat16);

  Result<void> status() const;
  // Hands over the model (finished or not) and the constant buffers it uses.
  ANeuralNetworksModel* releaseModel();
  std::deque<std::vector<float>> takeConstants() { return std::move(constants_); }
  uint64_t constantBytes() const { return constantBytes_; }

 private:
  uint32_t addOperand(const ANeuralNetworksOperandType& type);
  void check(int code, const char* call);

  ANeuralNetworksModel* model_ = nullptr;
  uint32_t operandCount_ = 0;
  std::deque<std::vector<float>> constants_;
  uint64_t constantBytes_ = 0;
  int firstError_ = ANEURALNETWORKS_NO_ERROR;
  std::string firstErrorCall_;
};

}  // namespace annrt::tools
