// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/nnapi_writer.h"

#include <cstring>

#include "client/graph_builder.h"
#include "client/result_codes.h"

namespace annrt::tflite {

using client::checkNnapi;

Shape makeShape(OperandType type, std::vector<uint32_t> dims) {
  Shape shape;
  shape.type = type;
  shape.dims = std::move(dims);
  return shape;
}

NnapiWriter::~NnapiWriter() {
  ANeuralNetworksModel_free(model_);
}

Result<void> NnapiWriter::create() {
  return checkNnapi(ANeuralNetworksModel_create(&model_), "ANeuralNetworksModel_create");
}

ANeuralNetworksModel* NnapiWriter::release() {
  ANeuralNetworksModel* model = model_;
  model_ = nullptr;
  return model;
}

Result<uint32_t> NnapiWriter::addOperand(const Shape& given) {
  Shape shape = given;
  const size_t next = operands_.size();
  if (next < dimsOverride_.size() && !dimsOverride_[next].empty()) {
    shape.dims = dimsOverride_[next];
  }
  ANeuralNetworksOperandType type{};
  type.type = static_cast<int32_t>(shape.type);
  type.dimensionCount = static_cast<uint32_t>(shape.dims.size());
  type.dimensions = shape.dims.empty() ? nullptr : shape.dims.data();
  type.scale = shape.scale;
  type.zeroPoint = shape.zeroPoint;
  ANNRT_RETURN_IF_ERROR(checkNnapi(ANeuralNetworksModel_addOperand(model_, &type), [&] {
    return fmt::format("adding a {} operand", toString(shape));
  }));
  const auto index = static_cast<uint32_t>(next);
  WrittenOperand written;
  written.shape = shape;
  operands_.push_back(std::move(written));
  if (shape.channelQuant) {
    ANeuralNetworksSymmPerChannelQuantParams params{};
    params.channelDim = shape.channelQuant->channelDim;
    params.scaleCount = static_cast<uint32_t>(shape.channelQuant->scales.size());
    params.scales = shape.channelQuant->scales.data();
    ANNRT_RETURN_IF_ERROR(
        checkNnapi(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model_, index, &params),
                   "setting per-channel quantization"));
  }
  return index;
}

Result<void> NnapiWriter::setValue(uint32_t index, const void* data, size_t length) {
  WrittenOperand& operand = operands_[index];
  operand.constant = true;
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (length <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
    operand.copied.assign(bytes, bytes + length);
    operand.value = operand.copied;
  } else {
    operand.value = {bytes, length};  // valid until finish, as NNAPI needs it to be
  }
  return checkNnapi(
      ANeuralNetworksModel_setOperandValue(model_, static_cast<int32_t>(index), data, length),
      [&] { return fmt::format("setting the value of operand {} ({} bytes)", index, length); });
}

// The NNAPI memory and offset holding `bytes`: the mapped model file or the
// import's constant pool.
std::optional<ConstantPool::Place> NnapiWriter::placeOf(std::span<const uint8_t> bytes) const {
  if (fileMemory_ != nullptr && !bytes.empty() && bytes.data() >= file_.data() &&
      bytes.data() + bytes.size() <= file_.data() + file_.size()) {
    return ConstantPool::Place{fileMemory_, static_cast<size_t>(bytes.data() - file_.data())};
  }
  if (pool_ != nullptr) return pool_->find(bytes);
  return std::nullopt;
}

Result<uint32_t> NnapiWriter::addConstant(const Shape& shape, std::span<const uint8_t> bytes) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t index, addOperand(shape));
  if (bytes.size() <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
    ANNRT_RETURN_IF_ERROR(setValue(index, bytes.data(), bytes.size()));
    return index;
  }
  operands_[index].constant = true;
  operands_[index].value = bytes;
  if (std::optional<ConstantPool::Place> place = placeOf(bytes)) {
    ANNRT_RETURN_IF_ERROR(
        checkNnapi(ANeuralNetworksModel_setOperandValueFromMemory(model_, index, place->memory,
                                                                  place->offset, bytes.size()),
                   [&] {
                     return fmt::format(
                         "setting operand {} to {} bytes of {}", index, bytes.size(),
                         place->memory == fileMemory_ ? "the model file" : "computed constants");
                   }));
    return index;
  }
  ANNRT_RETURN_IF_ERROR(setValue(index, bytes.data(), bytes.size()));
  return index;
}

Result<uint32_t> NnapiWriter::addOwnedConstant(const Shape& shape, std::vector<uint8_t> bytes) {
  owned_.push_back(std::move(bytes));
  return addConstant(shape, owned_.back());
}

// Each value of each scalar type is one operand, however many operations
// read it: one per use made the scalars half of a model's operands (202 of
// face_detection_short_range's 456, for 3 values), each of them added,
// validated, hashed and copied by the runtime.
Result<uint32_t> NnapiWriter::addScalar(OperandType type, uint32_t bits, size_t length) {
  const uint64_t key = (uint64_t{static_cast<uint32_t>(type)} << 32) | bits;
  if (auto found = scalars_.find(key); found != scalars_.end()) return found->second;
  ANNRT_ASSIGN_OR_RETURN(uint32_t index, addOperand(makeShape(type)));
  ANNRT_RETURN_IF_ERROR(setValue(index, &bits, length));
  scalars_.emplace(key, index);
  return index;
}

Result<uint32_t> NnapiWriter::addInt32(int32_t value) {
  return addScalar(OperandType::INT32, static_cast<uint32_t>(value), sizeof(value));
}

Result<uint32_t> NnapiWriter::addFloat32(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof(value));
  return addScalar(OperandType::FLOAT32, bits, sizeof(value));
}

Result<uint32_t> NnapiWriter::addBool(bool value) {
  return addScalar(OperandType::BOOL, value ? 1 : 0, 1);
}

Result<uint32_t> NnapiWriter::addInt32Tensor(const std::vector<int32_t>& values) {
  Shape shape = makeShape(OperandType::TENSOR_INT32, {static_cast<uint32_t>(values.size())});
  std::vector<uint8_t> bytes(values.size() * sizeof(int32_t));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return addOwnedConstant(shape, std::move(bytes));
}

Result<uint32_t> NnapiWriter::addModel(const ANeuralNetworksModel* referenced) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t index, addOperand(makeShape(OperandType::SUBGRAPH)));
  operands_[index].constant = true;
  operands_[index].subgraph = true;
  ANNRT_RETURN_IF_ERROR(
      checkNnapi(ANeuralNetworksModel_setOperandValueFromModel(model_, index, referenced),
                 "ANeuralNetworksModel_setOperandValueFromModel"));
  return index;
}

Result<int32_t> NnapiWriter::extensionOperationType(const char* extension, uint16_t code) {
  int32_t type = 0;
  ANNRT_RETURN_IF_ERROR(checkNnapi(
      ANeuralNetworksModel_getExtensionOperationType(model_, extension, code, &type),
      fmt::format("ANeuralNetworksModel_getExtensionOperationType({}, {})", extension, code)));
  WrittenOperation handedOut;
  handedOut.type = type;
  handedOut.extension = extension;
  handedOut.extensionCode = code;
  extensionTypes_.push_back(std::move(handedOut));
  return type;
}

Result<void> NnapiWriter::addOperation(int32_t type, const std::vector<uint32_t>& inputs,
                                       const std::vector<uint32_t>& outputs) {
  ANNRT_RETURN_IF_ERROR(
      checkNnapi(ANeuralNetworksModel_addOperation(
                     model_, type, static_cast<uint32_t>(inputs.size()), client::indexArray(inputs),
                     static_cast<uint32_t>(outputs.size()), client::indexArray(outputs)),
                 "ANeuralNetworksModel_addOperation"));
  WrittenOperation operation{type, nullptr, 0, inputs, outputs};
  for (const WrittenOperation& extension : extensionTypes_) {
    if (extension.type != type) continue;
    operation.extension = extension.extension;
    operation.extensionCode = extension.extensionCode;
  }
  operations_.push_back(std::move(operation));
  return {};
}

Result<void> NnapiWriter::identifyInputsAndOutputs(const std::vector<uint32_t>& inputs,
                                                   const std::vector<uint32_t>& outputs) {
  return checkNnapi(ANeuralNetworksModel_identifyInputsAndOutputs(
                        model_, static_cast<uint32_t>(inputs.size()), client::indexArray(inputs),
                        static_cast<uint32_t>(outputs.size()), client::indexArray(outputs)),
                    "ANeuralNetworksModel_identifyInputsAndOutputs");
}

Result<void> NnapiWriter::finish(bool relaxFloat32toFloat16) {
  if (relaxFloat32toFloat16) {
    ANNRT_RETURN_IF_ERROR(
        checkNnapi(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model_, true),
                   "ANeuralNetworksModel_relaxComputationFloat32toFloat16"));
  }
  ANNRT_RETURN_IF_ERROR(
      checkNnapi(ANeuralNetworksModel_finish(model_), "ANeuralNetworksModel_finish"));
  owned_.clear();  // finish copied every value
  return {};
}

}  // namespace annrt::tflite
