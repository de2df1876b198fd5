// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Reads a .tflite file: runs the flatbuffers Verifier, then checks everything
// the importer relies on (buffer bounds, tensor byte sizes against shapes and
// types, tensor/operator/opcode indexes, quantization parameters) and exposes
// the result as plain, already-validated views. Nothing in the file is
// trusted before ModelReader::open returns successfully.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "schema_generated.h"

namespace annrt::tflite {

// TFLite TensorType values.
enum class TensorType : int8_t {
  FLOAT32 = 0,
  FLOAT16 = 1,
  INT32 = 2,
  UINT8 = 3,
  INT64 = 4,
  STRING = 5,
  BOOL = 6,
  INT16 = 7,
  COMPLEX64 = 8,
  INT8 = 9,
  FLOAT64 = 10,
};

const char* tensorTypeName(TensorType type);
// Bytes per element; 0 for STRING and unknown types.
size_t tensorTypeSize(TensorType type);

struct Quantization {
  std::vector<float> scales;
  std::vector<int64_t> zeroPoints;
  int32_t dimension = 0;
  bool empty() const { return scales.empty(); }
  bool perChannel() const { return scales.size() > 1; }
};

struct TensorView {
  int index = 0;
  std::string name;
  TensorType type = TensorType::FLOAT32;
  std::vector<int32_t> shape;      // all >= 0
  std::vector<int32_t> signature;  // shape_signature (-1: unknown), or `shape`
  std::span<const uint8_t> data;   // constant bytes; empty when not constant
  Quantization quantization;
  const fb::SparsityParameters* sparsity = nullptr;  // verified, when present
  bool isVariable = false;

  bool isConstant() const { return !data.empty(); }
  size_t elementCount() const;
};

struct OperatorView {
  int index = 0;
  int32_t builtinCode = 0;  // BuiltinOperator
  std::string customCode;   // for CUSTOM (32)
  int32_t version = 1;
  std::vector<int32_t> inputs;  // -1 for an omitted optional input
  std::vector<int32_t> outputs;
  std::span<const uint8_t> customOptions;
  const fb::Operator* raw = nullptr;  // for builtin options (verified)
};

struct SubgraphView {
  std::string name;
  std::vector<TensorView> tensors;
  std::vector<OperatorView> operators;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
};

inline constexpr int32_t kBuiltinCustom = 32;

class ModelReader {
 public:
  // `bytes` must outlive the reader and everything read from it.
  static Result<ModelReader> open(std::span<const uint8_t> bytes);

  const std::vector<SubgraphView>& subgraphs() const { return subgraphs_; }
  size_t fileSize() const { return bytes_.size(); }

 private:
  Result<void> readBuffers(const fb::Model& model);
  Result<void> readSubgraph(const fb::Model& model, const fb::SubGraph& subgraph, int index);
  Result<TensorView> readTensor(const fb::Tensor& tensor, int index) const;
  Result<OperatorView> readOperator(const fb::Model& model, const fb::Operator& op, int index,
                                    size_t tensorCount) const;

  std::span<const uint8_t> bytes_;
  std::vector<std::span<const uint8_t>> buffers_;
  std::vector<SubgraphView> subgraphs_;
};

}  // namespace annrt::tflite
