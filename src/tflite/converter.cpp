// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/converter.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "tflite/builtin_names.h"
#include "tflite/op_table.h"
#include "tflite/shape_inference.h"
#include "tflite/sparsity.h"

namespace annrt::tflite {
namespace {

// NNAPI dims of a tensor's stored shape (ModelReader checked they are >= 0).
std::vector<uint32_t> nnapiDims(const std::vector<int32_t>& dims) {
  return {dims.begin(), dims.end()};
}

Result<Shape> quantizedShape(const TensorView& tensor, OperandType type) {
  const Quantization& q = tensor.quantization;
  ANNRT_CHECK(!q.empty() && q.scales[0] > 0, "tensor {} '{}' of type {} has no quantization",
              tensor.index, tensor.name, tensorTypeName(tensor.type));
  Shape shape = makeShape(type);
  if (!q.perChannel()) {
    shape.scale = q.scales[0];
    shape.zeroPoint = q.zeroPoints.empty() ? 0 : static_cast<int32_t>(q.zeroPoints[0]);
    return shape;
  }
  ANNRT_CHECK(type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
              "tensor {} '{}': per-channel quantization of {} is not supported", tensor.index,
              tensor.name, tensorTypeName(tensor.type));
  for (int64_t zeroPoint : q.zeroPoints) {
    ANNRT_CHECK(zeroPoint == 0, "tensor {} '{}': per-channel zero points must be 0", tensor.index,
                tensor.name);
  }
  shape.type = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
  shape.channelQuant = ChannelQuant{static_cast<uint32_t>(q.dimension), q.scales};
  return shape;
}

// The NNAPI operand type (without dims) of a TFLite tensor.
Result<Shape> operandTypeOf(const TensorView& tensor) {
  switch (tensor.type) {
    case TensorType::FLOAT32: return makeShape(OperandType::TENSOR_FLOAT32);
    case TensorType::FLOAT16: return makeShape(OperandType::TENSOR_FLOAT16);
    case TensorType::BOOL: return makeShape(OperandType::TENSOR_BOOL8);
    case TensorType::INT64:  // constants are narrowed to int32
    case TensorType::INT32: {
      Shape shape = makeShape(OperandType::TENSOR_INT32);
      // Biases of quantized operations carry a scale (0 when per-channel).
      const Quantization& q = tensor.quantization;
      if (!q.empty() && !q.perChannel()) shape.scale = q.scales[0];
      return shape;
    }
    case TensorType::UINT8: return quantizedShape(tensor, OperandType::TENSOR_QUANT8_ASYMM);
    case TensorType::INT8: return quantizedShape(tensor, OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
    case TensorType::INT16: return quantizedShape(tensor, OperandType::TENSOR_QUANT16_SYMM);
    default: break;
  }
  return makeError(ErrorCode::BAD_DATA, "tensor {} '{}' has type {}, which NNAPI cannot represent",
                   tensor.index, tensor.name, tensorTypeName(tensor.type));
}

// INT64 constants (shapes, axes, paddings) become INT32 when every value
// fits; `narrow` has half the bytes of `data`.
Result<void> narrowInt64(const TensorView& tensor, std::span<const uint8_t> data,
                         std::span<uint8_t> narrow) {
  for (size_t i = 0; i < data.size() / 8; ++i) {
    int64_t value;
    std::memcpy(&value, data.data() + i * 8, 8);
    ANNRT_CHECK(value >= std::numeric_limits<int32_t>::min() &&
                    value <= std::numeric_limits<int32_t>::max(),
                "INT64 constant tensor {} '{}' has value {} beyond the int32 range", tensor.index,
                tensor.name, value);
    const auto narrowed = static_cast<int32_t>(value);
    std::memcpy(narrow.data() + i * 4, &narrowed, 4);
  }
  return {};
}

// Zeroed room for a constant, in bytes the value owns.
NewConstant ownedConstant(TensorType type, std::vector<int32_t> shape, size_t size) {
  auto owned = std::make_shared<std::vector<uint8_t>>(size);
  const std::span<uint8_t> bytes = *owned;
  return {{type, std::move(shape), bytes, std::move(owned)}, bytes};
}

std::string customOrBuiltinName(const OperatorView& op) {
  return op.builtinCode == kBuiltinCustom ? op.customCode : builtinName(op.builtinCode);
}

}  // namespace

Converter::Converter(ImportState& state, int subgraphIndex)
    : state_(state),
      subgraphIndex_(subgraphIndex),
      subgraph_(state.reader->subgraphs()[subgraphIndex]),
      operands_(subgraph_.tensors.size()) {}

std::string Converter::opName() const {
  return op_ ? customOrBuiltinName(*op_) : "?";
}

namespace {

// What inputTensor/outputTensor give for an omitted input or an index past
// the operator's list: no shape, no data. Mappers read views (a filter's
// dims, say) before c.input(i) or c.output(i) report the tensor missing;
// indexing the list there read past it (fuzz_tflite_import: a CONV_2D with
// one input).
const TensorView& absentTensor() {
  static const TensorView absent = [] {
    TensorView view;
    view.index = -1;
    return view;
  }();
  return absent;
}

}  // namespace

const TensorView& Converter::inputTensor(size_t i) const {
  return hasInput(i) ? subgraph_.tensors[op_->inputs[i]] : absentTensor();
}

const TensorView& Converter::outputTensor(size_t i) const {
  return i < op_->outputs.size() ? subgraph_.tensors[op_->outputs[i]] : absentTensor();
}

Result<Shape> Converter::operandShape(const TensorView& tensor) const {
  ANNRT_ASSIGN_OR_RETURN(Shape shape, operandTypeOf(tensor));
  if (tensor.isConstant() || folded_.count(tensor.index)) {
    shape.dims = nnapiDims(tensor.shape);
    if (shape.dims.empty()) shape.dims = {1};  // NNAPI constants need a known rank
    return shape;
  }
  // The stored shapes were computed for the declared input shapes; for
  // others they start unknown (of the same rank) and shape inference fills
  // them (shape_inference.h).
  shape.dims = nnapiDims(tensor.shape);
  if (!state_.declaredShapes) std::fill(shape.dims.begin(), shape.dims.end(), 0);
  return shape;
}

Result<void> Converter::run() {
  ANNRT_RETURN_IF_ERROR(writer_.create());
  writer_.referenceFile(state_.file, state_.fileMemory);
  writer_.referencePool(state_.pool);
  if (subgraphIndex_ == 0) writer_.overrideDims(state_.inferredDims);
  state_.inProgress.push_back(subgraphIndex_);
  ANNRT_RETURN_IF_ERROR(createInputs());
  for (const OperatorView& op : subgraph_.operators) {
    op_ = &op;
    ANNRT_RETURN_IF_ERROR(convertOperator(op));
  }
  op_ = nullptr;
  ANNRT_RETURN_IF_ERROR(addInputsAndOutputs());
  state_.inProgress.pop_back();
  if (subgraphIndex_ == 0 && state_.inferShapes) {  // before finish drops constants it owns
    ANNRT_ASSIGN_OR_RETURN(
        state_.inferredDims,
        inferShapes(writer_, state_.options->relaxFloat32toFloat16, state_.operations));
  }
  return writer_.finish(state_.options->relaxFloat32toFloat16);
}

Result<void> Converter::convertOperator(const OperatorView& op) {
  const OpMapping* mapping = findMapping(op.builtinCode, op.customCode);
  if (mapping == nullptr) {
    return opError("operator not supported by the annrt TFLite importer");
  }
  ANNRT_CHECK(op.version >= 1 && op.version <= mapping->maxVersion,
              "{} (tflite op #{}): unknown operator version {} (annrt knows versions 1..{})",
              opName(), op.index, op.version, mapping->maxVersion);
  for (int32_t tensor : op.outputs) {
    const TensorView& view = subgraph_.tensors[tensor];
    ANNRT_CHECK(!view.isConstant() && !operands_[tensor] && !folded_.count(tensor),
                "{} (tflite op #{}): output tensor {} '{}' is a constant or written twice",
                opName(), op.index, tensor, view.name);
  }
  return mapping->map(*this, *mapping);
}

// Model inputs of subgraph 0 get the dims of ImportState::inputDims.
Result<void> Converter::createInputs() {
  if (subgraphIndex_ != 0) return {};
  for (size_t i = 0; i < subgraph_.inputs.size() && i < state_.inputDims.size(); ++i) {
    const TensorView& tensor = subgraph_.tensors[subgraph_.inputs[i]];
    if (operands_[tensor.index]) continue;  // listed twice
    ANNRT_ASSIGN_OR_RETURN(Shape shape, operandShape(tensor));
    shape.dims = state_.inputDims[i];
    ANNRT_ASSIGN_OR_RETURN(operands_[tensor.index], writer_.addOperand(shape));
  }
  return {};
}

Result<void> Converter::addInputsAndOutputs() {
  for (int32_t tensor : subgraph_.inputs) {
    ANNRT_CHECK(!subgraph_.tensors[tensor].isConstant() && !folded_.count(tensor),
                "subgraph {} input tensor {} is a constant", subgraphIndex_, tensor);
    ANNRT_ASSIGN_OR_RETURN(uint32_t operand, operandFor(tensor));
    inputOperands_.push_back(operand);
  }
  for (int32_t tensor : subgraph_.outputs) {
    ANNRT_CHECK(!subgraph_.tensors[tensor].isConstant() && !folded_.count(tensor),
                "subgraph {} output tensor {} is a constant", subgraphIndex_, tensor);
    const std::optional<uint32_t>& operand = operands_[tensor];
    ANNRT_CHECK(operand.has_value(), "subgraph {} output tensor {} '{}' is never computed",
                subgraphIndex_, tensor, subgraph_.tensors[tensor].name);
    outputOperands_.push_back(*operand);
  }
  return writer_.identifyInputsAndOutputs(inputOperands_, outputOperands_);
}

Result<uint32_t> Converter::operandFor(int32_t tensorIndex) {
  if (const std::optional<uint32_t>& operand = operands_[tensorIndex]) return *operand;
  const TensorView& tensor = subgraph_.tensors[tensorIndex];
  ANNRT_CHECK(!tensor.isVariable, "variable tensor {} '{}' is not supported", tensorIndex,
              tensor.name);
  uint32_t operand;
  if (halfConstants_.count(tensorIndex) && !folded_.count(tensorIndex)) {
    ANNRT_ASSIGN_OR_RETURN(operand, halfCastOperand(tensorIndex));
  } else if (tensor.isConstant() || folded_.count(tensorIndex)) {
    ANNRT_ASSIGN_OR_RETURN(operand, constantOperand(tensor));
  } else {
    ANNRT_ASSIGN_OR_RETURN(Shape shape, operandShape(tensor));
    ANNRT_ASSIGN_OR_RETURN(operand, writer_.addOperand(shape));
  }
  operands_[tensorIndex] = operand;
  return operand;
}

Result<uint32_t> Converter::constantOperand(const TensorView& tensor) {
  ANNRT_ASSIGN_OR_RETURN(Shape shape, operandShape(tensor));
  auto found = folded_.find(tensor.index);
  if (found == folded_.end() && tensor.sparsity == nullptr && tensor.type != TensorType::INT64) {
    return writer_.addConstant(shape, tensor.data);
  }
  if (found == folded_.end()) {
    ANNRT_ASSIGN_OR_RETURN(FoldedConstant value, constantOf(tensor.index));
    found = folded_.emplace(tensor.index, std::move(value)).first;
  }
  return writer_.addConstant(shape, found->second.data);
}

Result<uint32_t> Converter::halfCastOperand(int32_t tensorIndex) {
  const HalfConstant half = halfConstants_.at(tensorIndex);
  ANNRT_ASSIGN_OR_RETURN(uint32_t source, operandFor(half.source));
  ANNRT_ASSIGN_OR_RETURN(Shape shape, operandShape(subgraph_.tensors[half.source]));
  shape.type = OperandType::TENSOR_FLOAT32;
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, writer_.addOperand(shape));
  // Emitted (and listed) as the DEQUANTIZE it stands for.
  const OperatorView* consumer = op_;
  op_ = half.dequantize;
  Result<void> emitted = emit(OperationType::CAST, {source}, {output});
  op_ = consumer;
  ANNRT_RETURN_IF_ERROR(emitted);
  return output;
}

void Converter::deferHalfDequantize() {
  halfConstants_[op_->outputs[0]] = {op_->inputs[0], op_};
}

Result<FoldedConstant> Converter::constantOf(int32_t tensorIndex) const {
  if (auto found = folded_.find(tensorIndex); found != folded_.end()) return found->second;
  if (auto half = halfConstants_.find(tensorIndex); half != halfConstants_.end()) {
    ANNRT_ASSIGN_OR_RETURN(FoldedConstant value, constantOf(half->second.source));
    // Values a mapper reads (the model itself gets the float16 constant
    // behind a CAST), so owned rather than taking room in the pool.
    const std::vector<float> values =
        annrt::halfToFloat(value.data.data(), value.data.size() / sizeof(Float16));
    NewConstant result =
        ownedConstant(TensorType::FLOAT32, subgraph_.tensors[half->second.source].shape,
                      values.size() * sizeof(float));
    if (!values.empty()) std::memcpy(result.bytes.data(), values.data(), result.bytes.size());
    return result.value;
  }
  const TensorView& tensor = subgraph_.tensors[tensorIndex];
  ANNRT_CHECK(tensor.isConstant(), "tensor {} '{}' is not a constant", tensorIndex, tensor.name);
  if (tensor.sparsity != nullptr) {
    ANNRT_ASSIGN_OR_RETURN(size_t size, denseByteSize(tensor));
    NewConstant dense = newConstant(tensor.type, tensor.shape, size);
    ANNRT_RETURN_IF_ERROR(densifyTensor(tensor, dense.bytes));
    return dense.value;
  }
  if (tensor.type == TensorType::INT64) {
    NewConstant narrow = newConstant(TensorType::INT32, tensor.shape, tensor.data.size() / 2);
    ANNRT_RETURN_IF_ERROR(narrowInt64(tensor, tensor.data, narrow.bytes));
    return narrow.value;
  }
  return FoldedConstant{tensor.type, tensor.shape, tensor.data, nullptr};
}

NewConstant Converter::newConstant(TensorType type, std::vector<int32_t> shape, size_t size) const {
  if (state_.pool != nullptr && size > ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
    if (Result<std::span<uint8_t>> pooled = state_.pool->allocate(size); pooled.ok()) {
      return {{type, std::move(shape), *pooled, nullptr}, *pooled};
    }
  }
  return ownedConstant(type, std::move(shape), size);
}

bool Converter::isConstantInput(size_t i) const {
  return hasInput(i) && (inputTensor(i).isConstant() || folded_.count(op_->inputs[i]) ||
                         halfConstants_.count(op_->inputs[i]));
}

Result<FoldedConstant> Converter::constantInput(size_t i) const {
  if (!isConstantInput(i)) {
    return opError("input {} must be a constant tensor", i);
  }
  return constantOf(op_->inputs[i]);
}

Result<std::vector<int32_t>> Converter::constantInts(size_t i) const {
  ANNRT_ASSIGN_OR_RETURN(FoldedConstant value, constantInput(i));
  if (value.type != TensorType::INT32) {
    return opError("input {} must be an INT32 or INT64 constant, it is {}", i,
                   tensorTypeName(value.type));
  }
  std::vector<int32_t> result(value.data.size() / 4);
  if (!result.empty()) std::memcpy(result.data(), value.data.data(), value.data.size());
  return result;
}

Result<uint32_t> Converter::input(size_t i) {
  if (!hasInput(i)) return opError("input {} is missing", i);
  return operandFor(op_->inputs[i]);
}

Result<uint32_t> Converter::output(size_t i) {
  if (i >= op_->outputs.size()) return opError("output {} is missing", i);
  return operandFor(op_->outputs[i]);
}

void Converter::foldOutput(size_t i, FoldedConstant value) {
  folded_[op_->outputs[i]] = std::move(value);
}

void Converter::record(std::string nnapiName) {
  if (subgraphIndex_ != 0) return;
  state_.operations.push_back({opName(), op_->index, std::move(nnapiName)});
}

Result<void> Converter::emit(OperationType type, const std::vector<uint32_t>& inputs,
                             const std::vector<uint32_t>& outputs) {
  if (auto added = writer_.addOperation(static_cast<int32_t>(type), inputs, outputs); !added.ok()) {
    return opError("NNAPI rejected {}: {}", operationTypeName(type), added.error().message);
  }
  record(operationTypeName(type));
  return {};
}

Result<void> Converter::emitExtension(uint16_t code, const char* name,
                                      const std::vector<uint32_t>& inputs,
                                      const std::vector<uint32_t>& outputs) {
  ANNRT_ASSIGN_OR_RETURN(int32_t type, writer_.extensionOperationType(kExtensionName, code));
  if (auto added = writer_.addOperation(type, inputs, outputs); !added.ok()) {
    return opError("NNAPI rejected {}:{}: {}", kExtensionName, name, added.error().message);
  }
  record(fmt::format("{}:{}", kExtensionName, name));
  return {};
}

Result<uint32_t> Converter::subgraphOperand(int32_t index) {
  const auto count = static_cast<int32_t>(state_.reader->subgraphs().size());
  if (index <= 0 || index >= count) {
    return opError("refers to subgraph {}, but the model has subgraphs 1..{}", index, count - 1);
  }
  if (std::find(state_.inProgress.begin(), state_.inProgress.end(), index) !=
      state_.inProgress.end()) {
    return opError("subgraph {} refers to itself (recursion is not supported)", index);
  }
  auto found = state_.converted.find(index);
  if (found == state_.converted.end()) {
    Converter inner(state_, index);
    if (auto ran = inner.run(); !ran.ok()) {
      Error error = ran.takeError();
      error.message = fmt::format("{} (tflite op #{}): in subgraph {}: {}", opName(), op_->index,
                                  index, error.message);
      return error;
    }
    ANeuralNetworksModel* model = inner.writer().release();
    state_.referencedModels.push_back(model);
    found = state_.converted.emplace(index, model).first;
  }
  return writer_.addModel(found->second);
}

}  // namespace annrt::tflite
