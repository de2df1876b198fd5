// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Builds, compiles (on nnapi-reference) and runs a model of one operation
// through the public NNAPI C API: the harness of the op unit tests.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/reference_compilation.h"

namespace annrt::test {

inline constexpr int32_t kOk = ANEURALNETWORKS_NO_ERROR;
inline constexpr int32_t kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
inline constexpr int32_t kI32 = ANEURALNETWORKS_TENSOR_INT32;
inline constexpr int32_t kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
inline constexpr int32_t kQ8S = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
inline constexpr int32_t kBool8 = ANEURALNETWORKS_TENSOR_BOOL8;

// A model operand: a model input (tensor) or a constant (scalar or tensor).
struct Operand {
  int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32;
  std::vector<uint32_t> dims;
  std::vector<uint8_t> bytes;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  bool constant = false;
};

template <typename T>
inline Operand tensor(int32_t type, std::vector<uint32_t> dims, const std::vector<T>& values,
                      float scale = 0.0f, int32_t zeroPoint = 0) {
  Operand o{type, std::move(dims), std::vector<uint8_t>(values.size() * sizeof(T)), scale,
            zeroPoint};
  if (!values.empty()) std::memcpy(o.bytes.data(), values.data(), o.bytes.size());
  return o;
}

inline Operand f32(std::vector<uint32_t> dims, const std::vector<float>& values) {
  return tensor(ANEURALNETWORKS_TENSOR_FLOAT32, std::move(dims), values);
}

// An output of `count` elements of T with the given dims.
template <typename T>
inline Operand output(int32_t type, std::vector<uint32_t> dims, float scale = 0.0f,
                      int32_t zeroPoint = 0) {
  size_t count = 1;
  for (uint32_t d : dims) count *= d;
  return tensor(type, std::move(dims), std::vector<T>(count), scale, zeroPoint);
}

template <typename T>
inline Operand scalar(int32_t type, T value) {
  Operand o{type, {}, std::vector<uint8_t>(sizeof(T))};
  std::memcpy(o.bytes.data(), &value, sizeof(T));
  o.constant = true;
  return o;
}

inline Operand i32(int32_t value) {
  return scalar(ANEURALNETWORKS_INT32, value);
}
inline Operand f32Scalar(float value) {
  return scalar(ANEURALNETWORKS_FLOAT32, value);
}
inline Operand boolean(bool value) {
  return scalar(ANEURALNETWORKS_BOOL, static_cast<uint8_t>(value));
}
inline Operand axes(const std::vector<int32_t>& values) {
  Operand o = tensor(ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(values.size())}, values);
  o.constant = true;
  return o;
}

template <typename T>
inline std::vector<T> values(const Operand& o) {
  std::vector<T> v(o.bytes.size() / sizeof(T));
  std::memcpy(v.data(), o.bytes.data(), o.bytes.size());
  return v;
}

// Builds a one-operation model, runs it and fills `outputs`. Returns the
// first error code of any step, or ANEURALNETWORKS_NO_ERROR.
inline int run(int32_t operation, const std::vector<Operand>& inputs,
               std::vector<Operand*> outputs) {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksModel_create(&model);
  std::vector<uint32_t> indexes;
  std::vector<uint32_t> modelInputs;
  std::vector<uint32_t> outIndexes;
  auto add = [&](const Operand& o) {
    const ANeuralNetworksOperandType type{o.type, static_cast<uint32_t>(o.dims.size()),
                                          o.dims.data(), o.scale, o.zeroPoint};
    ANeuralNetworksModel_addOperand(model, &type);
    return static_cast<uint32_t>(indexes.size() + outIndexes.size());
  };
  for (const Operand& o : inputs) {
    const uint32_t index = add(o);
    if (o.constant) {
      ANeuralNetworksModel_setOperandValue(model, static_cast<int32_t>(index), o.bytes.data(),
                                           o.bytes.size());
    } else {
      modelInputs.push_back(index);
    }
    indexes.push_back(index);
  }
  for (const Operand* o : outputs) outIndexes.push_back(add(*o));
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksExecution* execution = nullptr;
  int status = ANeuralNetworksModel_addOperation(model, operation, indexes.size(), indexes.data(),
                                                 outIndexes.size(), outIndexes.data());
  if (status == ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksModel_identifyInputsAndOutputs(model, modelInputs.size(), modelInputs.data(),
                                                  outIndexes.size(), outIndexes.data());
    status = ANeuralNetworksModel_finish(model);
  }
  if (status == ANEURALNETWORKS_NO_ERROR) {
    status = annrt::test::createReferenceCompilation(model, &compilation);
  }
  if (status == ANEURALNETWORKS_NO_ERROR) {
    status = ANeuralNetworksCompilation_finish(compilation);
  }
  if (status == ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksExecution_create(compilation, &execution);
    int32_t next = 0;
    for (const Operand& o : inputs) {
      if (o.constant) continue;
      ANeuralNetworksExecution_setInput(execution, next++, nullptr, o.bytes.data(), o.bytes.size());
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(i), nullptr,
                                         outputs[i]->bytes.data(), outputs[i]->bytes.size());
    }
    status = ANeuralNetworksExecution_compute(execution);
  }
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  return status;
}

inline int run(int32_t operation, const std::vector<Operand>& inputs, Operand& out) {
  return run(operation, inputs, std::vector<Operand*>{&out});
}

}  // namespace annrt::test
