// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/lowering_context.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace annrt::cpu {
namespace {

// The XNNPACK subgraph API of Debian's 2022-02 build handles at most 6 dims.
constexpr uint32_t kMaxRank = 6;

bool isConstant(const Operand& operand) {
  return operand.lifetime == Lifetime::CONSTANT_COPY ||
         operand.lifetime == Lifetime::CONSTANT_REFERENCE;
}

std::vector<size_t> toSizes(const std::vector<uint32_t>& dims) {
  return {dims.begin(), dims.end()};
}

Quantization quantizationOf(const Shape& shape) {
  return {.scale = shape.scale, .zeroPoint = shape.zeroPoint};
}

// XNNPACK rejects scales that are not positive normal numbers.
bool usableScale(float scale) {
  return std::isnormal(scale) && scale > 0.0f;
}

// The scales of a per-channel bias: the filter's, times the input's.
std::vector<float> biasScales(const ChannelQuant& filter, float inputScale) {
  std::vector<float> scales = filter.scales;
  for (float& scale : scales) scale *= inputScale;
  return scales;
}

}  // namespace

bool isQuantized8(OperandType type) {
  return type == OperandType::TENSOR_QUANT8_ASYMM ||
         type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

xnn_datatype activationDatatype(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_FLOAT32: return xnn_datatype_fp32;
    case OperandType::TENSOR_QUANT8_ASYMM: return xnn_datatype_quint8;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return xnn_datatype_qint8;
    default: return xnn_datatype_invalid;
  }
}

std::vector<float> dequantize(const Shape& shape, const uint8_t* data) {
  const size_t count = elementCount(shape);
  std::vector<float> values(count);
  if (shape.type == OperandType::TENSOR_FLOAT32) {
    std::memcpy(values.data(), data, count * sizeof(float));
    return values;
  }
  // Elements between consecutive channels of a per-channel tensor.
  size_t inner = 1;
  if (shape.channelQuant) {
    for (size_t d = shape.channelQuant->channelDim + 1; d < shape.dims.size(); ++d) {
      inner *= shape.dims[d];
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const int32_t q = shape.type == OperandType::TENSOR_QUANT8_ASYMM
                          ? static_cast<int32_t>(data[i])
                          : static_cast<int32_t>(static_cast<int8_t>(data[i]));
    if (shape.channelQuant) {
      const size_t channel = (i / inner) % shape.dims[shape.channelQuant->channelDim];
      values[i] = static_cast<float>(q) * shape.channelQuant->scales[channel];
    } else {
      values[i] = static_cast<float>(q - shape.zeroPoint) * shape.scale;
    }
  }
  return values;
}

QuantizedRange quantizedRange(const OutputRange& range, const Shape& output) {
  const bool isSigned = output.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const float lowest = isSigned ? -128.0f : 0.0f, highest = isSigned ? 127.0f : 255.0f;
  auto quantize = [&](float real) {
    const float q = real / output.scale + static_cast<float>(output.zeroPoint);
    return static_cast<int32_t>(std::lrint(std::clamp(q, lowest, highest)));
  };
  return {.min = quantize(range.min), .max = quantize(range.max)};
}

Result<void> checkQuantizedRange(const OutputRange& range, const Shape& output) {
  const QuantizedRange q = quantizedRange(range, output);
  ANNRT_CPU_REQUIRE(q.min < q.max,
                    "the fused activation leaves the output range [{}, {}] (zero point {}, "
                    "scale {}) empty, which XNNPACK refuses",
                    q.min, q.max, output.zeroPoint, output.scale);
  return {};
}

Result<void> checkXnn(xnn_status status, const char* call) {
  ANNRT_CPU_REQUIRE(status == xnn_status_success, "XNNPACK {} failed with status {}", call,
                    static_cast<int>(status));
  return {};
}

bool isFoldableHalfCast(const Model& model, const Operation& op) {
  if (op.type != OperationType::CAST || op.inputs.size() != 1 || op.outputs.size() != 1) {
    return false;
  }
  const Operand& from = model.main.operands[op.inputs[0]];
  const Operand& to = model.main.operands[op.outputs[0]];
  return isConstant(from) && from.shape.type == OperandType::TENSOR_FLOAT16 &&
         to.shape.type == OperandType::TENSOR_FLOAT32 && from.shape.dims == to.shape.dims;
}

LoweringContext::LoweringContext(const Model& model, xnn_subgraph_t subgraph)
    : model_(model), subgraph_(subgraph) {
  for (const Operation& op : model.main.operations) {
    if (isFoldableHalfCast(model, op)) halfCasts_[op.outputs[0]] = op.inputs[0];
  }
}

bool LoweringContext::isConstantTensor(uint32_t operandIndex) const {
  return isConstant(operand(operandIndex)) || halfCasts_.count(operandIndex) != 0;
}

const uint8_t* LoweringContext::tensorData(uint32_t operandIndex) {
  auto half = halfCasts_.find(operandIndex);
  if (half == halfCasts_.end()) return model_.constantData(operand(operandIndex));
  auto converted = halfWeights_.find(operandIndex);
  if (converted == halfWeights_.end()) {
    const Operand& source = operand(half->second);
    const uint8_t* bytes = model_.constantData(source);
    if (bytes == nullptr) return nullptr;
    if (weights_ != nullptr) {
      const float* cached = weights_->convertedHalf(bytes, elementCount(source.shape));
      if (cached != nullptr) return reinterpret_cast<const uint8_t*>(cached);
    }
    converted =
        halfWeights_.emplace(operandIndex, halfToFloat(bytes, elementCount(source.shape))).first;
  }
  return reinterpret_cast<const uint8_t*>(converted->second.data());
}

Result<WeightBuffer> LoweringContext::packedWeights(const Operation& op, uint32_t slot,
                                                    size_t floats,
                                                    const std::function<void(float*)>& fill) {
  if (decideOnly_) return WeightBuffer{};
  if (weights_ == nullptr) return packWeights(floats, fill);
  const auto operation = static_cast<uint32_t>(&op - model_.main.operations.data());
  ANNRT_CHECK(operation < model_.main.operations.size(),
              "annrt-cpu: weights of an operation of another model");
  return weights_->packed({stage_, operation, slot}, floats, fill);
}

Result<const uint8_t*> LoweringContext::constantBytes(const Operation& op, uint32_t i,
                                                      OperandType type) const {
  ANNRT_CPU_REQUIRE(i < op.inputs.size(), "missing input {}", i);
  const Operand& operand = input(op, i);
  ANNRT_CPU_REQUIRE(operand.shape.type == type, "input {} is {}, expected {}", i,
                    operandTypeName(operand.shape.type), operandTypeName(type));
  ANNRT_CPU_REQUIRE(isConstant(operand), "input {} is not a constant", i);
  const uint8_t* data = model_.constantData(operand);
  ANNRT_CPU_REQUIRE(data != nullptr, "input {} has no data", i);
  return data;
}

Result<int32_t> LoweringContext::intScalar(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::INT32));
  int32_t value;
  std::memcpy(&value, data, sizeof(value));
  return value;
}

Result<float> LoweringContext::floatScalar(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::FLOAT32));
  float value;
  std::memcpy(&value, data, sizeof(value));
  return value;
}

Result<bool> LoweringContext::boolScalar(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::BOOL));
  return *data != 0;
}

Result<std::vector<int32_t>> LoweringContext::intTensor(const Operation& op, uint32_t i) const {
  ANNRT_ASSIGN_OR_RETURN(const uint8_t* data, constantBytes(op, i, OperandType::TENSOR_INT32));
  std::vector<int32_t> values(elementCount(input(op, i).shape));
  std::memcpy(values.data(), data, values.size() * sizeof(int32_t));
  return values;
}

Result<void> LoweringContext::checkTensor(uint32_t operandIndex) const {
  const Shape& shape = operand(operandIndex).shape;
  ANNRT_CPU_REQUIRE(activationDatatype(shape.type) != xnn_datatype_invalid,
                    "operand {} is {}, not float32 or quant8 asymm (signed)", operandIndex,
                    operandTypeName(shape.type));
  ANNRT_CPU_REQUIRE(!hasUnknownDims(shape), "operand {} has unknown or zero dimensions {}",
                    operandIndex, toString(shape.dims));
  ANNRT_CPU_REQUIRE(rank(shape) <= kMaxRank, "operand {} has rank {} > {}", operandIndex,
                    rank(shape), kMaxRank);
  if (isQuantized8(shape.type)) {
    const bool isSigned = shape.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
    ANNRT_CPU_REQUIRE(usableScale(shape.scale), "operand {} has scale {}", operandIndex,
                      shape.scale);
    ANNRT_CPU_REQUIRE(
        shape.zeroPoint >= (isSigned ? -128 : 0) && shape.zeroPoint <= (isSigned ? 127 : 255),
        "operand {} has zero point {}", operandIndex, shape.zeroPoint);
  }
  return {};
}

Result<void> LoweringContext::checkTensors(const Operation& op,
                                           std::initializer_list<uint32_t> inputs) const {
  ANNRT_CPU_REQUIRE(!op.inputs.empty(), "no inputs");
  const OperandType type = inputType(op, 0);
  for (uint32_t i : inputs) {
    ANNRT_CPU_REQUIRE(i < op.inputs.size(), "missing input {}", i);
    ANNRT_RETURN_IF_ERROR(checkTensor(op.inputs[i]));
    ANNRT_CPU_REQUIRE(inputType(op, i) == type, "input {} is {}, input 0 {}", i,
                      operandTypeName(inputType(op, i)), operandTypeName(type));
  }
  for (uint32_t index : op.outputs) {
    ANNRT_RETURN_IF_ERROR(checkTensor(index));
    ANNRT_CPU_REQUIRE(operand(index).shape.type == type, "output is {}, input 0 {}",
                      operandTypeName(operand(index).shape.type), operandTypeName(type));
  }
  return {};
}

Result<void> LoweringContext::checkFloatTensors(const Operation& op,
                                                std::initializer_list<uint32_t> inputs) const {
  ANNRT_CPU_REQUIRE(!op.inputs.empty() && inputType(op, 0) == OperandType::TENSOR_FLOAT32,
                    "{} is only lowered for float32", operationTypeName(op.type));
  return checkTensors(op, inputs);
}

Result<void> LoweringContext::checkSameQuantization(const Operation& op,
                                                    std::initializer_list<uint32_t> inputs) const {
  const Shape& out = output(op, 0).shape;
  if (!isQuantized8(out.type)) return {};
  for (uint32_t i : inputs) {
    const Shape& in = input(op, i).shape;
    ANNRT_CPU_REQUIRE(in.scale == out.scale && in.zeroPoint == out.zeroPoint,
                      "input {} quantization ({}, {}) differs from the output's ({}, {})", i,
                      in.scale, in.zeroPoint, out.scale, out.zeroPoint);
  }
  return {};
}

Result<void> LoweringContext::checkConstant(const Operation& op, uint32_t i) const {
  ANNRT_CPU_REQUIRE(isConstantTensor(op.inputs[i]), "input {} must be a constant", i);
  return {};
}

bool LoweringContext::isOmitted(const Operation& op, uint32_t i) const {
  return i >= op.inputs.size() || input(op, i).lifetime == Lifetime::NO_VALUE;
}

uint32_t LoweringContext::externalValueCount() const {
  return static_cast<uint32_t>(model_.main.inputIndexes.size() + model_.main.outputIndexes.size());
}

const void* LoweringContext::packedSource(const uint8_t* data, size_t bytes) {
  // Filters and biases are read only while XNNPACK packs them, when the
  // runtime is created, and exactly (no over-read): the model's own bytes
  // serve, which the compiled graph keeps alive, and a copy of every weight
  // would cost its size in memory and page faults. Misaligned data (small
  // values packed by the model builder) is copied so the loads are aligned.
  if (reinterpret_cast<uintptr_t>(data) % alignof(float) == 0) return data;
  return ownedCopy(data, bytes);
}

const void* LoweringContext::ownedCopy(const void* data, size_t bytes) {
  // XNNPACK's kernels may read XNN_EXTRA_BYTES past static data.
  const size_t size = bytes + XNN_EXTRA_BYTES;
  auto copy = std::make_unique<uint8_t[]>(size);
  std::fill_n(copy.get(), size, uint8_t{0});
  std::memcpy(copy.get(), data, bytes);
  constants_.bytes.push_back(std::move(copy));
  return constants_.bytes.back().get();
}

Result<uint32_t> LoweringContext::defineTensor(xnn_datatype datatype,
                                               const Quantization& quantization,
                                               const std::vector<uint32_t>& dims, const void* data,
                                               uint32_t externalId, uint32_t flags) {
  const std::vector<size_t> sizes = toSizes(dims);
  uint32_t id = XNN_INVALID_VALUE_ID;
  if (datatype == xnn_datatype_fp32) {
    ANNRT_RETURN_IF_ERROR(
        checkXnn(xnn_define_tensor_value(subgraph_, datatype, sizes.size(), sizes.data(), data,
                                         externalId, flags, &id),
                 "xnn_define_tensor_value"));
  } else {
    ANNRT_RETURN_IF_ERROR(
        checkXnn(xnn_define_quantized_tensor_value(subgraph_, datatype, quantization.zeroPoint,
                                                   quantization.scale, sizes.size(), sizes.data(),
                                                   data, externalId, flags, &id),
                 "xnn_define_quantized_tensor_value"));
  }
  return id;
}

Result<uint32_t> LoweringContext::defineChannelwise(xnn_datatype datatype,
                                                    std::vector<float> scales, uint32_t channelDim,
                                                    const std::vector<uint32_t>& dims,
                                                    const void* data) {
  // XNNPACK keeps the scale pointer, not a copy.
  constants_.scales.push_back(std::move(scales));
  const std::vector<size_t> sizes = toSizes(dims);
  uint32_t id = XNN_INVALID_VALUE_ID;
  ANNRT_RETURN_IF_ERROR(
      checkXnn(xnn_define_channelwise_quantized_tensor_value(
                   subgraph_, datatype, constants_.scales.back().data(), sizes.size(), channelDim,
                   sizes.data(), data, XNN_INVALID_VALUE_ID, 0, &id),
               "xnn_define_channelwise_quantized_tensor_value"));
  return id;
}

Result<uint32_t> LoweringContext::value(uint32_t operandIndex) {
  if (auto found = values_.find(operandIndex); found != values_.end()) return found->second;
  ANNRT_RETURN_IF_ERROR(checkTensor(operandIndex));
  const Operand& operand = this->operand(operandIndex);
  const auto& inputs = model_.main.inputIndexes;
  const auto& outputs = model_.main.outputIndexes;
  const auto inputAt = std::find(inputs.begin(), inputs.end(), operandIndex);
  const auto outputAt = std::find(outputs.begin(), outputs.end(), operandIndex);
  ANNRT_CPU_REQUIRE(inputAt == inputs.end() || outputAt == outputs.end(),
                    "operand {} is both a model input and output", operandIndex);
  const void* data = nullptr;
  uint32_t externalId = XNN_INVALID_VALUE_ID;
  uint32_t flags = 0;
  if (inputAt != inputs.end()) {
    externalId = static_cast<uint32_t>(inputAt - inputs.begin());
    flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
  } else if (outputAt != outputs.end()) {
    externalId = static_cast<uint32_t>(inputs.size() + (outputAt - outputs.begin()));
    flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
  } else if (isConstantTensor(operandIndex)) {
    const uint8_t* bytes = tensorData(operandIndex);
    ANNRT_CPU_REQUIRE(bytes != nullptr, "constant operand {} has no data", operandIndex);
    data = ownedCopy(bytes, byteSize(operand.shape));
  } else {
    ANNRT_CPU_REQUIRE(operand.lifetime == Lifetime::TEMPORARY_VARIABLE,
                      "operand {} has unsupported lifetime {}", operandIndex,
                      static_cast<int>(operand.lifetime));
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t id, defineTensor(activationDatatype(operand.shape.type),
                                                   quantizationOf(operand.shape),
                                                   operand.shape.dims, data, externalId, flags));
  values_[operandIndex] = id;
  return id;
}

Result<uint32_t> LoweringContext::filterValue(const Operation& op, uint32_t i) {
  const Shape& shape = input(op, i).shape;
  ANNRT_RETURN_IF_ERROR(checkConstant(op, i));
  const uint8_t* bytes = tensorData(op.inputs[i]);
  ANNRT_CPU_REQUIRE(bytes != nullptr, "input {} has no data", i);
  if (shape.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    ANNRT_RETURN_IF_ERROR(checkTensor(op.inputs[i]));
    return defineTensor(activationDatatype(shape.type), quantizationOf(shape), shape.dims,
                        packedSource(bytes, byteSize(shape)), XNN_INVALID_VALUE_ID, 0);
  }
  ANNRT_CPU_REQUIRE(shape.channelQuant.has_value(), "input {} has no channel scales", i);
  return defineChannelwise(xnn_datatype_qcint8, shape.channelQuant->scales,
                           shape.channelQuant->channelDim, shape.dims,
                           packedSource(bytes, byteSize(shape)));
}

Result<uint32_t> LoweringContext::biasValue(const Operation& op, uint32_t i, uint32_t inputIndex,
                                            uint32_t filterIndex) {
  const Shape& bias = input(op, i).shape;
  if (bias.type != OperandType::TENSOR_INT32) return filterValue(op, i);
  ANNRT_RETURN_IF_ERROR(checkConstant(op, i));
  const uint8_t* bytes = tensorData(op.inputs[i]);
  ANNRT_CPU_REQUIRE(bytes != nullptr, "input {} has no data", i);
  const void* data = packedSource(bytes, byteSize(bias));
  const float inputScale = input(op, inputIndex).shape.scale;
  const Shape& filter = input(op, filterIndex).shape;
  if (filter.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    return defineTensor(xnn_datatype_qint32, {.scale = inputScale * filter.scale}, bias.dims, data,
                        XNN_INVALID_VALUE_ID, 0);
  }
  if (!filter.channelQuant) {
    return makeError(ErrorCode::OP_FAILED, "input {} has no channel scales", filterIndex);
  }
  std::vector<float> scales = biasScales(*filter.channelQuant, inputScale);
  return defineChannelwise(xnn_datatype_qcint32, std::move(scales), 0, bias.dims, data);
}

Result<uint32_t> LoweringContext::reshapedConstant(const Operation& op, uint32_t i,
                                                   const std::vector<uint32_t>& dims) {
  ANNRT_RETURN_IF_ERROR(checkConstant(op, i));
  ANNRT_RETURN_IF_ERROR(checkTensor(op.inputs[i]));
  const Shape& shape = input(op, i).shape;
  ANNRT_CPU_REQUIRE(elementCount(dims) == elementCount(shape), "cannot view {} as {}",
                    toString(shape.dims), toString(dims));
  const uint8_t* bytes = tensorData(op.inputs[i]);
  ANNRT_CPU_REQUIRE(bytes != nullptr, "input {} has no data", i);
  return defineTensor(activationDatatype(shape.type), quantizationOf(shape), dims,
                      ownedCopy(bytes, byteSize(shape)), XNN_INVALID_VALUE_ID, 0);
}

Result<uint32_t> LoweringContext::dequantizedConstant(
    const Operation& op, uint32_t i, const std::optional<std::vector<uint32_t>>& dims) {
  ANNRT_RETURN_IF_ERROR(checkConstant(op, i));
  const uint8_t* bytes = tensorData(op.inputs[i]);
  ANNRT_CPU_REQUIRE(bytes != nullptr, "input {} has no data", i);
  return staticValue(dims.value_or(input(op, i).shape.dims), dequantize(input(op, i).shape, bytes));
}

Result<uint32_t> LoweringContext::floatBias(const Operation& op, uint32_t i, uint32_t inputIndex,
                                            uint32_t filterIndex) {
  const Shape& bias = input(op, i).shape;
  if (bias.type != OperandType::TENSOR_INT32) return inputValue(op, i);
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, intTensor(op, i));
  const float inputScale = input(op, inputIndex).shape.scale;
  const Shape& filter = input(op, filterIndex).shape;
  std::vector<float> real(values.size());
  for (size_t c = 0; c < values.size(); ++c) {
    const float filterScale = filter.channelQuant ? filter.channelQuant->scales[c] : filter.scale;
    real[c] = static_cast<float>(values[c]) * (inputScale * filterScale);
  }
  return staticValue(bias.dims, std::move(real));
}

Result<uint32_t> LoweringContext::floatValue(uint32_t operandIndex) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t id, value(operandIndex));
  if (!isQuantized8(operand(operandIndex).shape.type)) return id;
  if (auto found = floatValues_.find(operandIndex); found != floatValues_.end()) {
    return found->second;
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t real, internalValue(operand(operandIndex).shape.dims));
  ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_convert(subgraph_, id, real, 0), "xnn_define_convert"));
  floatValues_[operandIndex] = real;
  return real;
}

Result<void> LoweringContext::withFloatOutput(const Operation& op, uint32_t i,
                                              const std::function<Result<void>(uint32_t)>& define) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, outputValue(op, i));
  const Shape& shape = output(op, i).shape;
  if (!isQuantized8(shape.type)) return define(out);
  ANNRT_ASSIGN_OR_RETURN(uint32_t real, internalValue(shape.dims));
  ANNRT_RETURN_IF_ERROR(define(real));
  return checkXnn(xnn_define_convert(subgraph_, real, out, 0), "xnn_define_convert");
}

Result<uint32_t> LoweringContext::internalValue(const std::vector<uint32_t>& dims) {
  return defineTensor(xnn_datatype_fp32, {}, dims, nullptr, XNN_INVALID_VALUE_ID, 0);
}

Result<uint32_t> LoweringContext::internalValueLike(const std::vector<uint32_t>& dims,
                                                    uint32_t likeOperand) {
  const Shape& like = operand(likeOperand).shape;
  return defineTensor(activationDatatype(like.type), quantizationOf(like), dims, nullptr,
                      XNN_INVALID_VALUE_ID, 0);
}

Result<uint32_t> LoweringContext::internalQuantizedValue(const std::vector<uint32_t>& dims,
                                                         OperandType type,
                                                         Quantization quantization) {
  return defineTensor(activationDatatype(type), quantization, dims, nullptr, XNN_INVALID_VALUE_ID,
                      0);
}

Result<uint32_t> LoweringContext::staticValue(const std::vector<uint32_t>& dims,
                                              std::vector<float> data) {
  const void* copy = ownedCopy(data.data(), data.size() * sizeof(float));
  return defineTensor(xnn_datatype_fp32, {}, dims, copy, XNN_INVALID_VALUE_ID, 0);
}

}  // namespace annrt::cpu
