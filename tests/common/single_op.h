// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A model of one operation, built, compiled on nnapi-reference and run through
// the public NNAPI C API (ReferenceGraph): the harness of the op unit tests.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/reference_graph.h"

namespace annrt::test {

inline constexpr int32_t kOk = ANEURALNETWORKS_NO_ERROR;
inline constexpr int32_t kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
inline constexpr int32_t kI32 = ANEURALNETWORKS_TENSOR_INT32;
inline constexpr int32_t kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
inline constexpr int32_t kQ8S = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
inline constexpr int32_t kBool8 = ANEURALNETWORKS_TENSOR_BOOL8;

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
  return values<T>(o.bytes);
}

// Builds a one-operation model, runs it on nnapi-reference and fills
// `outputs`. Returns the first error code of any step, or
// ANEURALNETWORKS_NO_ERROR.
inline int run(int32_t operation, const std::vector<Operand>& inputs,
               std::vector<Operand*> outputs) {
  ReferenceGraph graph;
  std::vector<uint32_t> in;
  std::vector<uint32_t> out;
  in.reserve(inputs.size());
  out.reserve(outputs.size());
  for (const Operand& o : inputs) in.push_back(graph.operand(o));
  for (const Operand* o : outputs) out.push_back(graph.output(*o, o->bytes.size()));
  const int status = graph.operation(operation, in, out).run();
  if (status != ANEURALNETWORKS_NO_ERROR) return status;
  for (size_t i = 0; i < outputs.size(); ++i) outputs[i]->bytes = graph.resultBytes(i);
  return status;
}

inline int run(int32_t operation, const std::vector<Operand>& inputs, Operand& out) {
  return run(operation, inputs, std::vector<Operand*>{&out});
}

}  // namespace annrt::test
