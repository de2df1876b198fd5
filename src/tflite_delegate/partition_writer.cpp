// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/partition_writer.h"

#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "schema_generated.h"
#include "tflite/builtin_names.h"
#include "tflite_delegate/node_options.h"

namespace annrt::tflite::delegate {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// TfLiteType -> the schema's TensorType.
std::optional<int8_t> tensorType(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32: return 0;
    case kTfLiteFloat16: return 1;
    case kTfLiteInt32: return 2;
    case kTfLiteUInt8: return 3;
    case kTfLiteInt64: return 4;
    case kTfLiteBool: return 6;
    case kTfLiteInt16: return 7;
    case kTfLiteInt8: return 9;
    default: return std::nullopt;
  }
}

std::vector<int> toVector(const TfLiteIntArray* array) {
  if (array == nullptr) return {};
  return std::vector<int>(array->data, array->data + array->size);
}

struct Node {
  TfLiteNode* node = nullptr;
  TfLiteRegistration* registration = nullptr;
};

class Writer {
 public:
  explicit Writer(TfLiteContext* context) : context_(context) {
    buffers_.push_back(fb::CreateBuffer(b_));  // buffer 0: the empty sentinel
  }

  Result<WrittenPartition> write(std::span<const int> partitionNodes, std::span<const int> outputs,
                                 const WeightProducers& weights) {
    ANNRT_ASSIGN_OR_RETURN(const std::vector<int> nodeIndices,
                           withWeights(partitionNodes, weights));
    result_.weightNodes = nodeIndices.size() - partitionNodes.size();
    std::vector<Node> nodes;
    std::set<int> produced;
    for (const int index : nodeIndices) {
      Node node;
      if (context_->GetNodeAndRegistration(context_, index, &node.node, &node.registration) !=
          kTfLiteOk) {
        return makeError(ErrorCode::BAD_DATA, "TFLite has no node {}", index);
      }
      for (const int output : toVector(node.node->outputs)) produced.insert(output);
      nodes.push_back(node);
    }
    for (const Node& node : nodes) {
      for (const int input : toVector(node.node->inputs)) {
        if (input < 0 || produced.count(input) != 0 || isConstant(input)) continue;
        if (std::find(result_.inputs.begin(), result_.inputs.end(), input) ==
            result_.inputs.end()) {
          result_.inputs.push_back(input);
        }
      }
    }
    result_.outputs.assign(outputs.begin(), outputs.end());
    std::vector<Offset<fb::Operator>> operators;
    for (const Node& node : nodes) {
      ANNRT_ASSIGN_OR_RETURN(Offset<fb::Operator> op, writeOperator(node));
      operators.push_back(op);
    }
    std::vector<int32_t> inputs, outputsLocal;
    for (const int input : result_.inputs) {
      ANNRT_ASSIGN_OR_RETURN(int32_t local, localTensor(input));
      inputs.push_back(local);
    }
    for (const int output : result_.outputs) {
      ANNRT_ASSIGN_OR_RETURN(int32_t local, localTensor(output));
      outputsLocal.push_back(local);
    }
    finish(operators, inputs, outputsLocal);
    return std::move(result_);
  }

 private:
  // The partition's nodes after the weight nodes they read (transitively).
  Result<std::vector<int>> withWeights(std::span<const int> nodes, const WeightProducers& weights) {
    std::vector<int> added;
    std::vector<int> pending(nodes.begin(), nodes.end());
    while (!pending.empty()) {
      const int index = pending.back();
      pending.pop_back();
      TfLiteNode* node = nullptr;
      TfLiteRegistration* registration = nullptr;
      ANNRT_CHECK(
          context_->GetNodeAndRegistration(context_, index, &node, &registration) == kTfLiteOk,
          "TFLite has no node {}", index);
      for (const int input : toVector(node->inputs)) {
        const auto found = weights.find(input);
        if (found == weights.end()) continue;
        const int producer = found->second;
        if (std::find(nodes.begin(), nodes.end(), producer) != nodes.end()) continue;
        if (std::find(added.begin(), added.end(), producer) != added.end()) continue;
        added.push_back(producer);
        pending.push_back(producer);
      }
    }
    // Node indices follow TFLite's execution order: producers first.
    std::sort(added.begin(), added.end());
    added.insert(added.end(), nodes.begin(), nodes.end());
    return added;
  }

  bool isConstant(int index) const {
    return context_->tensors[index].allocation_type == kTfLiteMmapRo;
  }

  Result<Offset<fb::Operator>> writeOperator(const Node& node) {
    const TfLiteRegistration& reg = *node.registration;
    const std::string custom = reg.custom_name == nullptr ? "" : reg.custom_name;
    const std::optional<NodeOptions> options =
        writeNodeOptions(b_, reg.builtin_code, reg.version, *node.node);
    if (!options) {
      return makeError(ErrorCode::BAD_DATA, "the parameters of {} version {} are not converted",
                       builtinName(reg.builtin_code), reg.version);
    }
    result_.operatorNames.push_back(custom.empty() ? builtinName(reg.builtin_code) : custom);
    std::vector<int32_t> inputs, outputs;
    for (const int input : toVector(node.node->inputs)) {
      if (input < 0) {
        inputs.push_back(-1);
        continue;
      }
      ANNRT_ASSIGN_OR_RETURN(int32_t local, localTensor(input));
      inputs.push_back(local);
    }
    for (const int output : toVector(node.node->outputs)) {
      ANNRT_ASSIGN_OR_RETURN(int32_t local, localTensor(output));
      outputs.push_back(local);
    }
    Offset<flatbuffers::Vector<uint8_t>> customOptions = 0;
    if (!custom.empty() && node.node->custom_initial_data_size > 0) {
      customOptions = b_.CreateVector(static_cast<const uint8_t*>(node.node->custom_initial_data),
                                      static_cast<size_t>(node.node->custom_initial_data_size));
    }
    const uint32_t opcode = opcodeIndex(reg.builtin_code, custom, reg.version);
    return fb::CreateOperator(b_, opcode, b_.CreateVector(inputs), b_.CreateVector(outputs),
                              options->type, options->table, customOptions);
  }

  uint32_t opcodeIndex(int32_t builtin, const std::string& custom, int version) {
    const auto key = std::make_tuple(builtin, custom, version);
    auto [entry, added] = opcodes_.emplace(key, static_cast<uint32_t>(opcodes_.size()));
    if (added) {
      opcodeTables_.push_back(
          fb::CreateOperatorCode(b_, static_cast<int8_t>(std::min(builtin, 127)),
                                 custom.empty() ? 0 : b_.CreateString(custom), version, builtin));
    }
    return entry->second;
  }

  Result<int32_t> localTensor(int index) {
    if (auto found = local_.find(index); found != local_.end()) return found->second;
    const TfLiteTensor& tensor = context_->tensors[index];
    const std::optional<int8_t> type = tensorType(tensor.type);
    if (!type) {
      return makeError(ErrorCode::BAD_DATA, "tensor {} has type {}, which is not converted", index,
                       static_cast<int>(tensor.type));
    }
    uint32_t buffer = 0;
    if (isConstant(index)) {
      const auto* data = reinterpret_cast<const uint8_t*>(tensor.data.raw_const);
      b_.ForceVectorAlignment(tensor.bytes, 1, 16);  // the schema's force_align
      buffers_.push_back(fb::CreateBuffer(b_, b_.CreateVector(data, tensor.bytes)));
      buffer = static_cast<uint32_t>(buffers_.size() - 1);
    }
    const std::vector<int> shape = toVector(tensor.dims);
    const std::string name = tensor.name == nullptr ? fmt::format("t{}", index) : tensor.name;
    const auto quantized = quantization(tensor);
    const auto sparse = sparsity(tensor);
    tensors_.push_back(fb::CreateTensor(b_, b_.CreateVector(shape), *type, buffer,
                                        b_.CreateString(name), quantized, false, sparse));
    const auto local = static_cast<int32_t>(tensors_.size() - 1);
    local_.emplace(index, local);
    return local;
  }

  Offset<fb::QuantizationParameters> quantization(const TfLiteTensor& tensor) {
    if (tensor.quantization.type != kTfLiteAffineQuantization ||
        tensor.quantization.params == nullptr) {
      return 0;
    }
    const auto* affine = static_cast<const TfLiteAffineQuantization*>(tensor.quantization.params);
    std::vector<float> scales;
    std::vector<int64_t> zeroPoints;
    if (affine->scale != nullptr) {
      scales.assign(affine->scale->data, affine->scale->data + affine->scale->size);
    }
    for (const int zero : toVector(affine->zero_point)) zeroPoints.push_back(zero);
    return fb::CreateQuantizationParameters(
        b_, 0, 0, b_.CreateVector(scales), b_.CreateVector(zeroPoints),
        fb::QuantizationDetails::NONE, 0, affine->quantized_dimension);
  }

  // TFLite has read the file's index vectors into int arrays.
  Offset<fb::SparsityParameters> sparsity(const TfLiteTensor& tensor) {
    if (tensor.sparsity == nullptr) return 0;
    const TfLiteSparsity& sparse = *tensor.sparsity;
    std::vector<Offset<fb::DimensionMetadata>> dimensions;
    for (int d = 0; d < sparse.dim_metadata_size; ++d) {
      const TfLiteDimensionMetadata& dim = sparse.dim_metadata[d];
      if (dim.format == kTfLiteDimDense) {
        dimensions.push_back(
            fb::CreateDimensionMetadata(b_, fb::DimensionType::DENSE, dim.dense_size));
        continue;
      }
      const auto segments =
          fb::CreateInt32Vector(b_, b_.CreateVector(toVector(dim.array_segments))).Union();
      const auto indices =
          fb::CreateInt32Vector(b_, b_.CreateVector(toVector(dim.array_indices))).Union();
      dimensions.push_back(fb::CreateDimensionMetadata(
          b_, fb::DimensionType::SPARSE_CSR, dim.dense_size, fb::SparseIndexVector::Int32Vector,
          segments, fb::SparseIndexVector::Int32Vector, indices));
    }
    return fb::CreateSparsityParameters(b_, b_.CreateVector(toVector(sparse.traversal_order)),
                                        b_.CreateVector(toVector(sparse.block_map)),
                                        b_.CreateVector(dimensions));
  }

  void finish(const std::vector<Offset<fb::Operator>>& operators,
              const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs) {
    const auto subgraph = fb::CreateSubGraph(b_, b_.CreateVector(tensors_), b_.CreateVector(inputs),
                                             b_.CreateVector(outputs), b_.CreateVector(operators));
    const std::vector<Offset<fb::SubGraph>> subgraphs{subgraph};
    b_.Finish(fb::CreateModel(b_, 3, b_.CreateVector(opcodeTables_), b_.CreateVector(subgraphs),
                              b_.CreateString("annrt TFLite delegate partition"),
                              b_.CreateVector(buffers_)),
              fb::ModelIdentifier());
    result_.file.assign(b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize());
  }

  TfLiteContext* context_;
  FlatBufferBuilder b_;
  WrittenPartition result_;
  std::map<int, int32_t> local_;
  std::vector<Offset<fb::Tensor>> tensors_;
  std::vector<Offset<fb::Buffer>> buffers_;
  std::map<std::tuple<int32_t, std::string, int>, uint32_t> opcodes_;
  std::vector<Offset<fb::OperatorCode>> opcodeTables_;
};

}  // namespace

Result<WrittenPartition> writePartition(TfLiteContext* context, std::span<const int> nodes,
                                        std::span<const int> outputs,
                                        const WeightProducers& weights) {
  return Writer(context).write(nodes, outputs, weights);
}

}  // namespace annrt::tflite::delegate
