// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/model_reader.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/model_limits.h"

namespace annrt::tflite {
namespace {

// Largest tensor the importer accepts: NNAPI dimensions are uint32 and byte
// sizes must fit comfortably in memory.
constexpr uint64_t kMaxElements = uint64_t{1} << 31;
constexpr uint32_t kSchemaVersion = 3;

template <typename T>
std::vector<T> toVector(const flatbuffers::Vector<T>* values) {
  return values ? std::vector<T>(values->begin(), values->end()) : std::vector<T>{};
}

// Element count of `shape`, or an error for a negative or overflowing shape.
Result<uint64_t> checkedElementCount(const std::vector<int32_t>& shape, int tensor) {
  uint64_t count = 1;
  for (int32_t extent : shape) {
    ANNRT_CHECK(extent >= 0, "tensor {} has a negative dimension {}", tensor, extent);
    count *= static_cast<uint64_t>(extent);
    ANNRT_CHECK(count <= kMaxElements, "tensor {} is too large: shape has over {} elements", tensor,
                kMaxElements);
  }
  return count;
}

Result<Quantization> readQuantization(const fb::QuantizationParameters* params,
                                      const std::vector<int32_t>& shape, int tensor) {
  Quantization quantization;
  if (params == nullptr || params->scale() == nullptr || params->scale()->size() == 0) {
    return quantization;
  }
  quantization.scales = toVector(params->scale());
  quantization.zeroPoints = toVector(params->zero_point());
  quantization.dimension = params->quantized_dimension();
  ANNRT_CHECK(quantization.zeroPoints.empty() ||
                  quantization.zeroPoints.size() == quantization.scales.size(),
              "tensor {} has {} quantization scales but {} zero points", tensor,
              quantization.scales.size(), quantization.zeroPoints.size());
  for (float scale : quantization.scales) {
    ANNRT_CHECK(std::isfinite(scale) && scale >= 0, "tensor {} has quantization scale {}", tensor,
                scale);
  }
  if (quantization.perChannel()) {
    const int32_t dimension = quantization.dimension;
    ANNRT_CHECK(dimension >= 0 && dimension < static_cast<int32_t>(shape.size()),
                "tensor {} quantized along dimension {} but has rank {}", tensor, dimension,
                shape.size());
    ANNRT_CHECK(static_cast<size_t>(shape[dimension]) == quantization.scales.size(),
                "tensor {} has {} per-channel scales for dimension {} of size {}", tensor,
                quantization.scales.size(), dimension, shape[dimension]);
  }
  return quantization;
}

}  // namespace

const char* tensorTypeName(TensorType type) {
  switch (type) {
    case TensorType::FLOAT32: return "FLOAT32";
    case TensorType::FLOAT16: return "FLOAT16";
    case TensorType::INT32: return "INT32";
    case TensorType::UINT8: return "UINT8";
    case TensorType::INT64: return "INT64";
    case TensorType::STRING: return "STRING";
    case TensorType::BOOL: return "BOOL";
    case TensorType::INT16: return "INT16";
    case TensorType::COMPLEX64: return "COMPLEX64";
    case TensorType::INT8: return "INT8";
    case TensorType::FLOAT64: return "FLOAT64";
  }
  return "UNKNOWN";
}

size_t tensorTypeSize(TensorType type) {
  switch (type) {
    case TensorType::FLOAT32:
    case TensorType::INT32: return 4;
    case TensorType::FLOAT16:
    case TensorType::INT16: return 2;
    case TensorType::UINT8:
    case TensorType::INT8:
    case TensorType::BOOL: return 1;
    case TensorType::INT64:
    case TensorType::FLOAT64:
    case TensorType::COMPLEX64: return 8;
    case TensorType::STRING: return 0;
  }
  return 0;
}

size_t TensorView::elementCount() const {
  size_t count = 1;
  for (int32_t extent : shape) count *= static_cast<size_t>(extent);
  return count;
}

Result<ModelReader> ModelReader::open(std::span<const uint8_t> bytes) {
  ANNRT_CHECK(bytes.size() >= 8, "not a TFLite model: the file has only {} bytes", bytes.size());
  ANNRT_CHECK(flatbuffers::BufferHasIdentifier(bytes.data(), fb::ModelIdentifier()),
              "not a TFLite model: no \"TFL3\" file identifier");
  ANNRT_CHECK(bytes.size() < FLATBUFFERS_MAX_BUFFER_SIZE,
              "models of 2 GiB or more are not supported");
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  ANNRT_CHECK(fb::VerifyModelBuffer(verifier),
              "corrupt TFLite model: the flatbuffer does not verify (truncated or damaged file)");
  const fb::Model& model = *fb::GetModel(bytes.data());
  ANNRT_CHECK(model.version() == kSchemaVersion, "unsupported TFLite schema version {}",
              model.version());
  ANNRT_CHECK(model.subgraphs() && model.subgraphs()->size() > 0, "the model has no subgraphs");
  ANNRT_CHECK(model.subgraphs()->size() <= limits::kMaxReferencedSubgraphs,
              "the model has {} subgraphs, over annrt's limit of {}", model.subgraphs()->size(),
              limits::kMaxReferencedSubgraphs);
  ModelReader reader;
  reader.bytes_ = bytes;
  ANNRT_RETURN_IF_ERROR(reader.readBuffers(model));
  for (uint32_t i = 0; i < model.subgraphs()->size(); ++i) {
    ANNRT_RETURN_IF_ERROR(reader.readSubgraph(model, *model.subgraphs()->Get(i), i));
  }
  return reader;
}

Result<void> ModelReader::readBuffers(const fb::Model& model) {
  if (model.buffers() == nullptr) return {};
  for (uint32_t i = 0; i < model.buffers()->size(); ++i) {
    const fb::Buffer& buffer = *model.buffers()->Get(i);
    if (buffer.offset() > 1) {
      // Data stored after the flatbuffer (models over 2 GiB): offset from the file start.
      const uint64_t offset = buffer.offset();
      const uint64_t size = buffer.size();
      ANNRT_CHECK(offset <= bytes_.size() && size <= bytes_.size() - offset,
                  "buffer {} (offset {}, size {}) lies outside the {}-byte file", i, offset, size,
                  bytes_.size());
      buffers_.push_back(bytes_.subspan(offset, size));
    } else if (buffer.data() != nullptr) {
      buffers_.emplace_back(buffer.data()->data(), buffer.data()->size());
    } else {
      buffers_.emplace_back();
    }
  }
  return {};
}

Result<void> ModelReader::readSubgraph(const fb::Model& model, const fb::SubGraph& subgraph,
                                       int index) {
  SubgraphView view;
  view.name = subgraph.name() ? subgraph.name()->str() : "";
  const size_t tensorCount = subgraph.tensors() ? subgraph.tensors()->size() : 0;
  const size_t operatorCount = subgraph.operators() ? subgraph.operators()->size() : 0;
  ANNRT_CHECK(tensorCount <= limits::kMaxOperands && operatorCount <= limits::kMaxOperations,
              "subgraph {} has {} tensors and {} operators, over annrt's limit of {} each", index,
              tensorCount, operatorCount, limits::kMaxOperands);
  // Sized once: a vector doubling its way up leaves each old copy behind on
  // pages a fresh process faults in one by one.
  view.tensors.reserve(tensorCount);
  view.operators.reserve(operatorCount);
  for (size_t i = 0; i < tensorCount; ++i) {
    auto tensor = readTensor(*subgraph.tensors()->Get(i), static_cast<int>(i));
    if (!tensor.ok()) {
      Error error = tensor.takeError();
      error.message = fmt::format("subgraph {}: {}", index, error.message);
      return error;
    }
    view.tensors.push_back(std::move(tensor).value());
  }
  view.inputs = toVector(subgraph.inputs());
  view.outputs = toVector(subgraph.outputs());
  for (int32_t tensor : view.inputs) {
    ANNRT_CHECK(tensor >= 0 && static_cast<size_t>(tensor) < tensorCount,
                "subgraph {} input tensor index {} out of range (it has {} tensors)", index, tensor,
                tensorCount);
  }
  for (int32_t tensor : view.outputs) {
    ANNRT_CHECK(tensor >= 0 && static_cast<size_t>(tensor) < tensorCount,
                "subgraph {} output tensor index {} out of range (it has {} tensors)", index,
                tensor, tensorCount);
  }
  for (size_t i = 0; i < operatorCount; ++i) {
    ANNRT_ASSIGN_OR_RETURN(OperatorView op, readOperator(model, *subgraph.operators()->Get(i),
                                                         static_cast<int>(i), tensorCount));
    view.operators.push_back(std::move(op));
  }
  subgraphs_.push_back(std::move(view));
  return {};
}

Result<TensorView> ModelReader::readTensor(const fb::Tensor& tensor, int index) const {
  TensorView view;
  view.index = index;
  view.name = tensor.name() ? tensor.name()->str() : "";
  view.type = static_cast<TensorType>(tensor.type());
  ANNRT_CHECK(tensor.type() >= 0 && tensor.type() <= static_cast<int8_t>(TensorType::FLOAT64),
              "tensor {} '{}' has unknown type {}", index, view.name, tensor.type());
  ANNRT_CHECK(tensor.shape() == nullptr || tensor.shape()->size() <= limits::kMaxRank,
              "tensor {} '{}' has rank {}, over annrt's limit of {}", index, view.name,
              tensor.shape()->size(), limits::kMaxRank);
  view.shape = toVector(tensor.shape());
  ANNRT_ASSIGN_OR_RETURN(uint64_t count, checkedElementCount(view.shape, index));
  ANNRT_CHECK(count * std::max<size_t>(tensorTypeSize(view.type), 1) <= limits::kMaxTensorBytes,
              "tensor {} '{}' is too large", index, view.name);
  view.signature = tensor.shape_signature() ? toVector(tensor.shape_signature()) : view.shape;
  ANNRT_CHECK(view.signature.size() == view.shape.size(),
              "tensor {} '{}': shape_signature has rank {}, shape has rank {}", index, view.name,
              view.signature.size(), view.shape.size());
  ANNRT_CHECK(tensor.buffer() < buffers_.size() || (tensor.buffer() == 0 && buffers_.empty()),
              "tensor {} '{}' refers to buffer {}, but the model has {} buffers", index, view.name,
              tensor.buffer(), buffers_.size());
  if (!buffers_.empty()) view.data = buffers_[tensor.buffer()];
  view.sparsity = tensor.sparsity();
  view.isVariable = tensor.is_variable();
  ANNRT_ASSIGN_OR_RETURN(view.quantization,
                         readQuantization(tensor.quantization(), view.shape, index));
  if (view.isConstant() && view.sparsity == nullptr) {
    const size_t elementSize = tensorTypeSize(view.type);
    ANNRT_CHECK(elementSize != 0, "constant tensor {} '{}' has unsupported type {}", index,
                view.name, tensorTypeName(view.type));
    ANNRT_CHECK(view.data.size() == count * elementSize,
                "constant tensor {} '{}' of shape [{}] and type {} needs {} bytes, its buffer "
                "has {}",
                index, view.name, fmt::join(view.shape, ","), tensorTypeName(view.type),
                count * elementSize, view.data.size());
  }
  return view;
}

Result<OperatorView> ModelReader::readOperator(const fb::Model& model, const fb::Operator& op,
                                               int index, size_t tensorCount) const {
  OperatorView view;
  view.index = index;
  view.raw = &op;
  const size_t codeCount = model.operator_codes() ? model.operator_codes()->size() : 0;
  ANNRT_CHECK(op.opcode_index() < codeCount,
              "operator {} has opcode index {}, but the model has {} operator codes", index,
              op.opcode_index(), codeCount);
  const fb::OperatorCode& code = *model.operator_codes()->Get(op.opcode_index());
  // As TFLite reads it: the larger of the legacy byte field and the int32 field.
  view.builtinCode = std::max<int32_t>(code.deprecated_builtin_code(), code.builtin_code());
  view.customCode = code.custom_code() ? code.custom_code()->str() : "";
  view.version = code.version();
  view.inputs = toVector(op.inputs());
  view.outputs = toVector(op.outputs());
  for (int32_t tensor : view.inputs) {
    ANNRT_CHECK(tensor >= -1 && tensor < static_cast<int64_t>(tensorCount),
                "operator {} input tensor index {} out of range (the subgraph has {} tensors)",
                index, tensor, tensorCount);
  }
  for (int32_t tensor : view.outputs) {
    ANNRT_CHECK(tensor >= 0 && tensor < static_cast<int64_t>(tensorCount),
                "operator {} output tensor index {} out of range (the subgraph has {} tensors)",
                index, tensor, tensorCount);
  }
  if (op.large_custom_options_offset() > 1) {
    const uint64_t offset = op.large_custom_options_offset();
    const uint64_t size = op.large_custom_options_size();
    ANNRT_CHECK(offset <= bytes_.size() && size <= bytes_.size() - offset,
                "operator {} custom options lie outside the file", index);
    view.customOptions = bytes_.subspan(offset, size);
  } else if (op.custom_options() != nullptr) {
    view.customOptions = {op.custom_options()->data(), op.custom_options()->size()};
  }
  return view;
}

}  // namespace annrt::tflite
