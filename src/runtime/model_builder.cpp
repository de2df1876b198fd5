// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/model_builder.h"

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "common/align.h"
#include "common/log.h"
#include "common/model_limits.h"
#include "ops/model_validation.h"
#include "ops/operand_validation.h"
#include "runtime/memory.h"
#include "runtime/trace.h"

namespace annrt::runtime {
namespace {

constexpr size_t kLargeValueAlignment = 64;

// Owns the bytes of large constants copied at finish.
class HostPool final : public MemoryPool {
 public:
  explicit HostPool(size_t size) : bytes_(new uint8_t[std::max<size_t>(size, 1)]), size_(size) {}
  uint8_t* data() const override { return bytes_.get(); }
  size_t size() const override { return size_; }

 private:
  std::unique_ptr<uint8_t[]> bytes_;
  size_t size_;
};

}  // namespace

Result<void> ModelBuilder::checkModifiable() const {
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, !finished_, "the model is already finished");
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, !invalid_,
                   "the model is invalid: an earlier ANeuralNetworksModel_finish failed");
  return {};
}

void ModelBuilder::forgetValue(uint32_t index) {
  std::erase_if(largeValues_, [&](const LargeValue& v) { return v.operand == index; });
  std::erase_if(referencedModels_, [&](const auto& r) { return r.first == index; });
}

Result<Operand*> ModelBuilder::operandAt(int32_t index) {
  ANNRT_CHECK(index >= 0 && static_cast<size_t>(index) < subgraph_.operands.size(),
              "operand index {} out of range (model has {} operands)", index,
              subgraph_.operands.size());
  return &subgraph_.operands[index];
}

Result<void> ModelBuilder::addOperand(const ANeuralNetworksOperandType& type) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  const bool extensionKnown = ops::isKnownExtensionCode(extensions_, type.type);
  ANNRT_ASSIGN_OR_RETURN(Shape shape, ops::validateOperandType(type, extensionKnown));
  ANNRT_CHECK(subgraph_.operands.size() < limits::kMaxOperands,
              "the model already has {} operands, annrt's limit", limits::kMaxOperands);
  Operand operand;
  operand.shape = std::move(shape);
  subgraph_.operands.push_back(std::move(operand));
  return {};
}

// As AOSP, the operand's lifetime is not checked here: giving a value to a
// model input or output is accepted, and finish rejects the model.
Result<void> ModelBuilder::setOperandValue(int32_t index, const void* buffer, size_t length) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index));
  if (buffer == nullptr) {
    ANNRT_CHECK(length == 0, "null buffer with length {} for operand {}", length, index);
    forgetValue(index);
    operand->lifetime = Lifetime::NO_VALUE;
    operand->location = {};
    return {};
  }
  ANNRT_CHECK(!hasUnknownDims(operand->shape),
              "operand {} has unspecified dimensions {} and cannot be a constant", index,
              toString(operand->shape.dims));
  ANNRT_CHECK(length <= UINT32_MAX, "a value of {} bytes exceeds 2^32 - 1", length);
  // OEM scalars take any length (AOSP); extension sizes are the vendor's.
  const OperandType type = operand->shape.type;
  const size_t expected = byteSize(operand->shape);
  ANNRT_CHECK(type == OperandType::OEM_SCALAR || isExtensionCode(static_cast<int32_t>(type)) ||
                  length == expected,
              "operand {} of {} needs {} bytes, given {}", index, toString(operand->shape),
              expected, length);
  forgetValue(index);
  if (length <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
    const size_t offset = alignUp(smallValues_.size(), kOperandValueAlignment);
    smallValues_.resize(offset + length);
    if (length > 0) std::memcpy(smallValues_.data() + offset, buffer, length);
    operand->lifetime = Lifetime::CONSTANT_COPY;
    operand->location = {0, offset, length};
  } else {
    largeValues_.push_back({static_cast<uint32_t>(index), buffer, length});
    operand->lifetime = Lifetime::CONSTANT_REFERENCE;
    operand->location = {UINT32_MAX, 0, length};  // pool assigned at finish
  }
  return {};
}

Result<void> ModelBuilder::setOperandValueFromMemory(int32_t index,
                                                     const std::shared_ptr<const Memory>& memory,
                                                     size_t offset, size_t length) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index));
  ANNRT_CHECK(!hasUnknownDims(operand->shape),
              "operand {} has unspecified dimensions and cannot be a constant", index);
  // AOSP sizes an OEM scalar at 0 bytes here (setOperandValue takes any length).
  const OperandType type = operand->shape.type;
  const size_t expected = type == OperandType::OEM_SCALAR ? 0 : byteSize(operand->shape);
  ANNRT_CHECK(isExtensionCode(static_cast<int32_t>(type)) || length == expected,
              "operand {} needs {} bytes, given {}", index, expected, length);
  ANNRT_RETURN_IF_ERROR(memory->checkConstantRange(offset, length));
  forgetValue(index);
  auto found = std::find(pools_.begin(), pools_.end(), memory);
  const auto pool = static_cast<uint32_t>(found - pools_.begin());
  if (found == pools_.end()) pools_.push_back(memory);
  operand->lifetime = Lifetime::CONSTANT_REFERENCE;
  operand->location = {pool, offset, length};
  return {};
}

// As AOSP, the operand's type is checked at finish: a model set on an operand
// that is not of type ANEURALNETWORKS_MODEL makes finish fail.
Result<void> ModelBuilder::setOperandValueFromModel(int32_t index, const ModelBuilder& value) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, !value.invalid_,
                   "the referenced model is invalid (its finish failed)");
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, value.isFinished(),
                   "the referenced model must be finished");
  ANNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index));
  const uint32_t depth = value.model()->nestingDepth(limits::kMaxSubgraphDepth);
  ANNRT_CHECK(depth < limits::kMaxSubgraphDepth,
              "the referenced model nests {} levels of subgraphs; with this model that is over "
              "annrt's limit of {}",
              depth, limits::kMaxSubgraphDepth);
  forgetValue(index);
  referencedModels_.emplace_back(index, value.model());
  operand->lifetime = Lifetime::SUBGRAPH;
  operand->location = {};
  return {};
}

Result<void> ModelBuilder::setOperandSymmPerChannelQuantParams(
    int32_t index, const ANeuralNetworksSymmPerChannelQuantParams& params) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index));
  ANNRT_CHECK(params.scaleCount == 0 || params.scales != nullptr, "scaleCount {} with null scales",
              params.scaleCount);
  ChannelQuant quant{params.channelDim,
                     std::vector<float>(params.scales, params.scales + params.scaleCount)};
  ANNRT_RETURN_IF_ERROR(ops::validateChannelQuant(operand->shape, quant));
  operand->shape.channelQuant = std::move(quant);
  return {};
}

Result<void> ModelBuilder::setOperandExtensionData(int32_t index, const void* data, size_t length) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index));
  ANNRT_CHECK(data != nullptr || length == 0, "null data with length {}", length);
  ANNRT_CHECK(data == nullptr || length != 0, "data given with a length of 0");
  ANNRT_CHECK(isExtensionCode(static_cast<int32_t>(operand->shape.type)),
              "operand {} is not of an extension type", index);
  const auto* bytes = static_cast<const uint8_t*>(data);
  operand->extensionData.assign(bytes, bytes + length);
  return {};
}

// Operations are checked as they are added, against the model as it is then
// (finish checks them again, in the finished model).
Result<void> ModelBuilder::checkOperation(const Operation& operation) const {
  const ops::OperationEnvironment env{
      subgraph_, extensions_, relaxed_,
      [this](uint32_t index) -> const void* {
        const Operand& operand = subgraph_.operands[index];
        if (operand.lifetime == Lifetime::CONSTANT_COPY) {
          return smallValues_.data() + operand.location.offset;
        }
        for (const LargeValue& value : largeValues_) {
          if (value.operand == index) return value.buffer;
        }
        if (operand.lifetime == Lifetime::CONSTANT_REFERENCE &&
            operand.location.pool < pools_.size()) {
          return pools_[operand.location.pool]->data() + operand.location.offset;
        }
        return nullptr;
      },
      [this](uint32_t index) -> Result<const Subgraph*> {
        auto found = std::find_if(referencedModels_.begin(), referencedModels_.end(),
                                  [&](const auto& r) { return r.first == index; });
        ANNRT_CHECK(found != referencedModels_.end(), "operand {} holds no model", index);
        return &found->second->main;
      }};
  return ops::validateOperation(operation, env);
}

Result<void> ModelBuilder::addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs,
                                        uint32_t outputCount, const uint32_t* outputs) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(ops::isKnownOperationCode(extensions_, type), "unknown operation type {}", type);
  ANNRT_CHECK((inputCount == 0 || inputs != nullptr) && (outputCount == 0 || outputs != nullptr),
              "null operand index list");
  ANNRT_CHECK(inputCount <= limits::kMaxArity && outputCount <= limits::kMaxArity,
              "{} inputs and {} outputs: over annrt's limit of {} per operation", inputCount,
              outputCount, limits::kMaxArity);
  ANNRT_CHECK(subgraph_.operations.size() < limits::kMaxOperations,
              "the model already has {} operations, annrt's limit", limits::kMaxOperations);
  Operation operation;
  operation.type = static_cast<OperationType>(type);
  operation.inputs.assign(inputs, inputs + inputCount);
  operation.outputs.assign(outputs, outputs + outputCount);
  for (uint32_t index : operation.inputs) {
    ANNRT_CHECK(index < subgraph_.operands.size(), "input operand index {} out of range", index);
  }
  for (uint32_t index : operation.outputs) {
    ANNRT_CHECK(index < subgraph_.operands.size(), "output operand index {} out of range", index);
  }
  ANNRT_RETURN_IF_ERROR(checkOperation(operation));
  subgraph_.operations.push_back(std::move(operation));
  return {};
}

// As AOSP: the operands become inputs and outputs one by one, and a rejected
// operand leaves those before it marked (so a failed call usually dooms the
// model's finish, and a second call cannot re-mark an input or output).
Result<void> ModelBuilder::markIo(std::vector<uint32_t>& list, uint32_t count,
                                  const uint32_t* indexes, Lifetime lifetime) {
  list.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    list[i] = indexes[i];
    Operand& operand = subgraph_.operands[indexes[i]];
    ANNRT_CHECK(operand.lifetime == Lifetime::TEMPORARY_VARIABLE,
                "operand {} cannot be a model input or output: it is a constant, an omitted "
                "value, a model, or already an input or output",
                indexes[i]);
    operand.lifetime = lifetime;
  }
  return {};
}

Result<void> ModelBuilder::identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs,
                                                    uint32_t outputCount, const uint32_t* outputs) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(inputCount <= limits::kMaxArity && outputCount <= limits::kMaxArity,
              "{} inputs and {} outputs: over annrt's limit of {} per model", inputCount,
              outputCount, limits::kMaxArity);
  const size_t operands = subgraph_.operands.size();
  for (uint32_t i = 0; i < inputCount; ++i) {
    ANNRT_CHECK(inputs[i] < operands, "input {} is operand {}, out of range ({} operands)", i,
                inputs[i], operands);
  }
  for (uint32_t i = 0; i < outputCount; ++i) {
    ANNRT_CHECK(outputs[i] < operands, "output {} is operand {}, out of range ({} operands)", i,
                outputs[i], operands);
  }
  ANNRT_RETURN_IF_ERROR(
      markIo(subgraph_.inputIndexes, inputCount, inputs, Lifetime::SUBGRAPH_INPUT));
  return markIo(subgraph_.outputIndexes, outputCount, outputs, Lifetime::SUBGRAPH_OUTPUT);
}

Result<void> ModelBuilder::relaxComputationFloat32toFloat16(bool allow) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  relaxed_ = allow;
  return {};
}

// As AOSP, neither the model's state nor the name is checked: the code of an
// extension type can be asked for at any time.
Result<int32_t> ModelBuilder::getExtensionType(const char* extensionName,
                                               uint16_t typeWithinExtension) {
  std::string name(extensionName);
  auto found = std::find_if(extensions_.begin(), extensions_.end(),
                            [&](const ExtensionPrefix& e) { return e.name == name; });
  uint16_t prefix = 0;
  if (found != extensions_.end()) {
    prefix = found->prefix;
  } else {
    ANNRT_CHECK(extensions_.size() < 0x7fff, "too many extensions");
    prefix = static_cast<uint16_t>(extensions_.size() + 1);
    extensions_.push_back({name, prefix});
  }
  return static_cast<int32_t>((static_cast<uint32_t>(prefix) << kExtensionTypeBits) |
                              typeWithinExtension);
}

// finish copies every distinct referenced model with all it references, so
// models that reference the same one through distinct models grow
// exponentially with nesting: count before copying.
Result<void> ModelBuilder::checkReferencedCount() const {
  std::set<const Model*> distinct;
  size_t count = 0;
  for (const auto& [operandIndex, value] : referencedModels_) {
    if (distinct.insert(value.get()).second) count += 1 + value->referenced.size();
    ANNRT_CHECK(count <= limits::kMaxReferencedSubgraphs,
                "the model references over {} subgraphs (with those its models reference), "
                "annrt's limit",
                limits::kMaxReferencedSubgraphs);
  }
  return {};
}

Result<void> ModelBuilder::sortOperations() {
  // Kahn's algorithm, keeping the given order among ready operations.
  const size_t count = subgraph_.operations.size();
  std::vector<bool> ready(subgraph_.operands.size(), true);
  for (const Operation& operation : subgraph_.operations) {
    for (uint32_t index : operation.outputs) ready[index] = false;
  }
  std::vector<Operation> sorted;
  std::vector<bool> done(count, false);
  while (sorted.size() < count) {
    bool progressed = false;
    for (size_t i = 0; i < count; ++i) {
      if (done[i]) continue;
      const Operation& operation = subgraph_.operations[i];
      if (!std::all_of(operation.inputs.begin(), operation.inputs.end(),
                       [&](uint32_t index) { return bool(ready[index]); })) {
        continue;
      }
      for (uint32_t index : operation.outputs) ready[index] = true;
      sorted.push_back(operation);
      done[i] = true;
      progressed = true;
    }
    ANNRT_CHECK(progressed, "the operations form a cycle");
  }
  subgraph_.operations = std::move(sorted);
  return {};
}

uint32_t ModelBuilder::addReferencedModel(const Model& value, Model& into) const {
  const auto base = static_cast<uint32_t>(into.referenced.size());
  const size_t valueOffset = alignUp(into.operandValues.size(), kOperandValueAlignment);
  into.operandValues.resize(valueOffset);
  into.operandValues.insert(into.operandValues.end(), value.operandValues.begin(),
                            value.operandValues.end());
  const auto poolOffset = static_cast<uint32_t>(into.pools.size());
  into.pools.insert(into.pools.end(), value.pools.begin(), value.pools.end());
  // Extension codes of the referenced model use its own prefixes.
  auto remap = [&](int32_t code) {
    if (!isExtensionCode(code)) return code;
    const auto prefix = static_cast<uint32_t>(code) >> kExtensionTypeBits;
    std::string name;
    for (const ExtensionPrefix& e : value.extensions) {
      if (e.prefix == prefix) name = e.name;
    }
    auto found = std::find_if(into.extensions.begin(), into.extensions.end(),
                              [&](const ExtensionPrefix& e) { return e.name == name; });
    if (found == into.extensions.end()) {
      into.extensions.push_back({name, static_cast<uint16_t>(into.extensions.size() + 1)});
      found = into.extensions.end() - 1;
    }
    return static_cast<int32_t>((static_cast<uint32_t>(found->prefix) << kExtensionTypeBits) |
                                (static_cast<uint32_t>(code) & 0xffff));
  };
  auto rebase = [&](Subgraph subgraph) {
    for (Operation& operation : subgraph.operations) {
      operation.type = static_cast<OperationType>(remap(static_cast<int32_t>(operation.type)));
    }
    for (Operand& operand : subgraph.operands) {
      const auto type = static_cast<int32_t>(operand.shape.type);
      operand.shape.type = static_cast<OperandType>(remap(type));
      if (operand.lifetime == Lifetime::CONSTANT_COPY) operand.location.offset += valueOffset;
      if (operand.lifetime == Lifetime::CONSTANT_REFERENCE) operand.location.pool += poolOffset;
      if (operand.lifetime == Lifetime::SUBGRAPH) operand.location.offset += base + 1;
    }
    return subgraph;
  };
  into.referenced.push_back(rebase(value.main));
  for (const Subgraph& subgraph : value.referenced) into.referenced.push_back(rebase(subgraph));
  return base;
}

void ModelBuilder::copyLargeValues(Model& model) {
  if (largeValues_.empty()) return;
  size_t total = 0;
  for (const LargeValue& value : largeValues_) {
    total = alignUp(total, kLargeValueAlignment) + value.length;
  }
  auto pool = std::make_shared<HostPool>(total);
  const auto poolIndex = static_cast<uint32_t>(model.pools.size());
  size_t offset = 0;
  for (const LargeValue& value : largeValues_) {
    offset = alignUp(offset, kLargeValueAlignment);
    std::memcpy(pool->data() + offset, value.buffer, value.length);
    model.main.operands[value.operand].location = {poolIndex, offset, value.length};
    offset += value.length;
  }
  model.pools.push_back(std::move(pool));
}

Result<void> ModelBuilder::finish() {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::PREPARATION, "finish model");
  // As AOSP: a model that fails validation is invalid for good; every later
  // call on it is BAD_STATE.
  if (Result<void> counted = checkReferencedCount(); !counted.ok()) {
    invalid_ = true;
    return counted;
  }
  if (Result<void> sorted = sortOperations(); !sorted.ok()) {
    invalid_ = true;
    return sorted;
  }
  // The builder takes no more calls once finish has run, whatever its
  // result, so the model takes its operands and values instead of copies.
  auto model = std::make_shared<Model>();
  model->main = std::move(subgraph_);
  model->operandValues = std::move(smallValues_);
  model->pools = pools_;
  model->relaxComputationFloat32toFloat16 = relaxed_;
  model->extensions = extensions_;
  copyLargeValues(*model);
  std::map<const Model*, uint32_t> added;
  for (const auto& [operandIndex, value] : referencedModels_) {
    auto [it, inserted] = added.emplace(value.get(), 0);
    if (inserted) it->second = addReferencedModel(*value, *model);
    model->main.operands[operandIndex].location = {0, it->second, 0};
  }
  // As AOSP, operations are validated again: referenced models and
  // per-channel parameters may have been set since an operation was added.
  if (Result<void> valid = ops::validateModel(*model); !valid.ok()) {
    invalid_ = true;
    return valid;
  }
  for (const Operation& operation : model->main.operations) {
    for (uint32_t index : operation.inputs) ++model->main.operands[index].consumers;
  }
  model_ = std::move(model);
  facts_ = std::make_shared<ModelFacts>();
  finished_ = true;
  largeValues_.clear();
  ANNRT_VLOG(MODEL, "finished model: {} operands, {} operations, {} referenced subgraphs",
             model_->main.operands.size(), model_->main.operations.size(),
             model_->referenced.size());
  return {};
}

}  // namespace annrt::runtime
