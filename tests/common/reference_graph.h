// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Operation tests' models: operands with their values (model inputs,
// constants, outputs), built with client::GraphBuilder, compiled for
// nnapi-reference and run once through the public C API.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include "client/graph_builder.h"
#include "common/reference_compilation.h"

namespace annrt::test {

// A model operand: its type, and for inputs and constants its value. A
// constant with no bytes is an omitted optional operand; an input with no
// bytes is left out by the execution (setInput with no buffer).
struct Operand {
  int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32;
  std::vector<uint32_t> dims;
  std::vector<uint8_t> bytes;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  bool constant = false;
};

// Bytes of an operand of `o`'s type and dims.
inline size_t byteSize(const Operand& o) {
  size_t element = 4;
  switch (o.type) {
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_FLOAT16:
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: element = 2; break;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_BOOL: element = 1; break;
    default: break;
  }
  return std::accumulate(o.dims.begin(), o.dims.end(), element, std::multiplies<size_t>());
}

template <typename T>
std::vector<T> values(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

// Each step records the first error code it meets; run() returns it.
class ReferenceGraph {
 public:
  ReferenceGraph() = default;
  ~ReferenceGraph() {
    ANeuralNetworksExecution_free(execution_);
    ANeuralNetworksCompilation_free(compilation_);
  }
  ReferenceGraph(const ReferenceGraph&) = delete;
  ReferenceGraph& operator=(const ReferenceGraph&) = delete;

  uint32_t input(const Operand& o) {
    inputs_.push_back(add(o));
    inputBytes_.push_back(o.bytes);
    return inputs_.back();
  }
  uint32_t constant(const Operand& o) {
    if (o.bytes.empty()) return omitted(o);
    return builder_.addConstant(o.dims, typeOf(o), o.bytes);
  }
  // An optional operand left out of the model (NO_VALUE).
  uint32_t omitted(const Operand& o) { return builder_.addOmitted(o.dims, typeOf(o)); }
  // A model input that the execution leaves out (setInput with no buffer).
  uint32_t omittedInput(const Operand& o) {
    Operand none = o;
    none.bytes.clear();
    return input(none);
  }
  // A model input (or a constant, when `o.constant`).
  uint32_t operand(const Operand& o) { return o.constant ? constant(o) : input(o); }
  uint32_t temporary(const Operand& o) { return add(o); }
  // A model output with a buffer of `bytes` bytes (by default, what its
  // declared dimensions need).
  uint32_t output(const Operand& o) { return output(o, byteSize(o)); }
  uint32_t output(const Operand& o, size_t bytes) {
    outputs_.push_back(add(o));
    outputBytes_.emplace_back(bytes);
    return outputs_.back();
  }
  ReferenceGraph& operation(int32_t type, const std::vector<uint32_t>& in,
                            const std::vector<uint32_t>& out) {
    builder_.addOperation(type, in, out);
    return *this;
  }

  // Finishes, compiles for nnapi-reference and computes; the first error code.
  int run() {
    builder_.finish(inputs_, outputs_);
    int status = builder_.firstErrorCode();
    if (status == ANEURALNETWORKS_NO_ERROR) status = compile();
    if (status == ANEURALNETWORKS_NO_ERROR) status = compute();
    return status;
  }

  const std::vector<uint8_t>& resultBytes(size_t output = 0) const { return outputBytes_[output]; }
  template <typename T>
  std::vector<T> result(size_t output = 0) const {
    return values<T>(outputBytes_[output]);
  }
  std::vector<uint32_t> outputDims(int32_t output = 0) const {
    uint32_t rank = 0;
    ANeuralNetworksExecution_getOutputOperandRank(execution_, output, &rank);
    std::vector<uint32_t> dims(rank);
    ANeuralNetworksExecution_getOutputOperandDimensions(execution_, output, dims.data());
    return dims;
  }

 private:
  static client::TensorType typeOf(const Operand& o) { return {o.type, o.scale, o.zeroPoint}; }
  uint32_t add(const Operand& o) { return builder_.addTensor(o.dims, typeOf(o)); }

  int compile() {
    const int status = createReferenceCompilation(builder_.model(), &compilation_);
    return status != ANEURALNETWORKS_NO_ERROR ? status
                                              : ANeuralNetworksCompilation_finish(compilation_);
  }
  int compute() {
    int status = ANeuralNetworksExecution_create(compilation_, &execution_);
    for (size_t i = 0; i < inputBytes_.size() && status == ANEURALNETWORKS_NO_ERROR; ++i) {
      const std::vector<uint8_t>& bytes = inputBytes_[i];
      status =
          ANeuralNetworksExecution_setInput(execution_, static_cast<int32_t>(i), nullptr,
                                            bytes.empty() ? nullptr : bytes.data(), bytes.size());
    }
    for (size_t i = 0; i < outputBytes_.size() && status == ANEURALNETWORKS_NO_ERROR; ++i) {
      std::vector<uint8_t>& bytes = outputBytes_[i];
      status =
          ANeuralNetworksExecution_setOutput(execution_, static_cast<int32_t>(i), nullptr,
                                             bytes.empty() ? nullptr : bytes.data(), bytes.size());
    }
    return status != ANEURALNETWORKS_NO_ERROR ? status
                                              : ANeuralNetworksExecution_compute(execution_);
  }

  client::GraphBuilder builder_;
  ANeuralNetworksCompilation* compilation_ = nullptr;
  ANeuralNetworksExecution* execution_ = nullptr;
  std::vector<uint32_t> inputs_, outputs_;
  std::vector<std::vector<uint8_t>> inputBytes_, outputBytes_;
};

}  // namespace annrt::test
