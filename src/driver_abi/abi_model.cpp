// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/abi_model.h"

#include "ops/model_validation.h"

namespace annrt::abi {
namespace {

// Constant bytes owned by someone else (the ABI model's producer).
class BorrowedPool final : public MemoryPool {
 public:
  BorrowedPool(const void* data, size_t size)
      : data_(static_cast<uint8_t*>(const_cast<void*>(data))), size_(size) {}
  uint8_t* data() const override { return data_; }
  size_t size() const override { return size_; }

 private:
  uint8_t* data_;
  size_t size_;
};

Result<void> checkOperand(const AnnrtOperand& in, uint32_t index, uint32_t referencedCount) {
  ANNRT_CHECK(knownLifetime(in.lifetime), "operand {}: unknown lifetime {}", index, in.lifetime);
  ANNRT_CHECK(in.rank == 0 || in.dimensions != nullptr, "operand {}: null dimensions", index);
  ANNRT_CHECK(in.scaleCount == 0 || in.scales != nullptr, "operand {}: null scales", index);
  ANNRT_CHECK(in.extensionDataLength == 0 || in.extensionData != nullptr,
              "operand {}: null extension data", index);
  if (in.lifetime == ANNRT_LIFETIME_CONSTANT) {
    ANNRT_CHECK(in.length == 0 || in.data != nullptr, "operand {}: null constant data", index);
  }
  if (in.lifetime == ANNRT_LIFETIME_SUBGRAPH) {
    ANNRT_CHECK(in.subgraph < referencedCount, "operand {}: subgraph {} of {}", index, in.subgraph,
                referencedCount);
  }
  return {};
}

Result<void> checkIndexes(const uint32_t* indexes, uint32_t count, uint32_t operandCount,
                          const char* what) {
  ANNRT_CHECK(count == 0 || indexes != nullptr, "null {} list", what);
  for (uint32_t i = 0; i < count; ++i) {
    ANNRT_CHECK(indexes[i] < operandCount, "{} {} is operand {} of {}", what, i, indexes[i],
                operandCount);
  }
  return {};
}

// What every conversion below relies on: the runtime only sends models it
// has validated, but a driver must not crash on a malformed one (another
// runtime, a bug) either.
Result<void> checkSubgraph(const AnnrtSubgraph& s, uint32_t referencedCount) {
  ANNRT_CHECK(s.operandCount == 0 || s.operands != nullptr, "null operand array");
  ANNRT_CHECK(s.operationCount == 0 || s.operations != nullptr, "null operation array");
  for (uint32_t i = 0; i < s.operandCount; ++i) {
    ANNRT_RETURN_IF_ERROR(checkOperand(s.operands[i], i, referencedCount));
  }
  for (uint32_t i = 0; i < s.operationCount; ++i) {
    const AnnrtOperation& operation = s.operations[i];
    ANNRT_RETURN_IF_ERROR(
        checkIndexes(operation.inputs, operation.inputCount, s.operandCount, "operation input"));
    ANNRT_RETURN_IF_ERROR(
        checkIndexes(operation.outputs, operation.outputCount, s.operandCount, "operation output"));
  }
  ANNRT_RETURN_IF_ERROR(checkIndexes(s.inputs, s.inputCount, s.operandCount, "subgraph input"));
  return checkIndexes(s.outputs, s.outputCount, s.operandCount, "subgraph output");
}

Subgraph subgraphFromAbi(const AnnrtSubgraph& source, Model& model) {
  Subgraph subgraph;
  subgraph.operands.reserve(source.operandCount);
  subgraph.operations.reserve(source.operationCount);
  // One allocation holds every constant's pool (a model has hundreds); each
  // pool pointer shares ownership of the whole array.
  size_t constants = 0;
  for (uint32_t i = 0; i < source.operandCount; ++i) {
    constants += source.operands[i].lifetime == ANNRT_LIFETIME_CONSTANT;
  }
  auto borrowed = std::make_shared<std::vector<BorrowedPool>>();
  borrowed->reserve(constants);
  model.pools.reserve(model.pools.size() + constants);
  for (uint32_t i = 0; i < source.operandCount; ++i) {
    const AnnrtOperand& in = source.operands[i];
    Operand operand;
    operand.shape.type = static_cast<OperandType>(in.type);
    operand.shape.dims.assign(in.dimensions, in.dimensions + in.rank);
    operand.shape.scale = in.scale;
    operand.shape.zeroPoint = in.zeroPoint;
    if (in.scaleCount > 0) {
      operand.shape.channelQuant =
          ChannelQuant{in.channelDim, std::vector<float>(in.scales, in.scales + in.scaleCount)};
    }
    if (in.lifetime == ANNRT_LIFETIME_CONSTANT) {
      operand.lifetime = Lifetime::CONSTANT_REFERENCE;
      operand.location = {static_cast<uint32_t>(model.pools.size()), 0, in.length};
      const BorrowedPool& pool = borrowed->emplace_back(in.data, in.length);
      model.pools.push_back(std::shared_ptr<const MemoryPool>(borrowed, &pool));
    } else {
      operand.lifetime = static_cast<Lifetime>(in.lifetime);
      if (operand.lifetime == Lifetime::SUBGRAPH) operand.location.offset = in.subgraph;
    }
    const auto* extension = static_cast<const uint8_t*>(in.extensionData);
    if (extension) operand.extensionData.assign(extension, extension + in.extensionDataLength);
    subgraph.operands.push_back(std::move(operand));
  }
  for (uint32_t i = 0; i < source.operationCount; ++i) {
    const AnnrtOperation& in = source.operations[i];
    Operation operation;
    operation.type = static_cast<OperationType>(in.type);
    operation.inputs.assign(in.inputs, in.inputs + in.inputCount);
    operation.outputs.assign(in.outputs, in.outputs + in.outputCount);
    for (uint32_t index : operation.inputs) ++subgraph.operands[index].consumers;
    subgraph.operations.push_back(std::move(operation));
  }
  subgraph.inputIndexes.assign(source.inputs, source.inputs + source.inputCount);
  subgraph.outputIndexes.assign(source.outputs, source.outputs + source.outputCount);
  return subgraph;
}

}  // namespace

int32_t abiLifetime(Lifetime lifetime) {
  switch (lifetime) {
    case Lifetime::CONSTANT_COPY:
    case Lifetime::CONSTANT_REFERENCE: return ANNRT_LIFETIME_CONSTANT;
    default: return static_cast<int32_t>(lifetime);
  }
}

bool knownLifetime(int32_t lifetime) {
  switch (lifetime) {
    case ANNRT_LIFETIME_TEMPORARY_VARIABLE:
    case ANNRT_LIFETIME_SUBGRAPH_INPUT:
    case ANNRT_LIFETIME_SUBGRAPH_OUTPUT:
    case ANNRT_LIFETIME_CONSTANT:
    case ANNRT_LIFETIME_NO_VALUE:
    case ANNRT_LIFETIME_SUBGRAPH: return true;
    default: return false;
  }
}

AbiModelView::AbiModelView(const Model& model) {
  for (const Subgraph& subgraph : model.referenced) {
    storage_.push_back(std::make_unique<SubgraphStorage>());
    referenced_.push_back(convert(model, subgraph, *storage_.back()));
  }
  storage_.push_back(std::make_unique<SubgraphStorage>());
  model_.size = sizeof(AnnrtModel);
  model_.main = convert(model, model.main, *storage_.back());
  model_.referencedCount = static_cast<uint32_t>(referenced_.size());
  model_.referenced = referenced_.data();
  model_.relaxComputationFloat32toFloat16 = model.relaxComputationFloat32toFloat16;
  for (const ExtensionPrefix& extension : model.extensions) {
    extensions_.push_back({extension.name.c_str(), extension.prefix});
  }
  model_.extensionCount = static_cast<uint32_t>(extensions_.size());
  model_.extensions = extensions_.data();
}

AnnrtSubgraph AbiModelView::convert(const Model& model, const Subgraph& subgraph,
                                    SubgraphStorage& storage) {
  for (const Operand& operand : subgraph.operands) {
    AnnrtOperand out{};
    out.type = static_cast<int32_t>(operand.shape.type);
    out.rank = static_cast<uint32_t>(operand.shape.dims.size());
    out.dimensions = operand.shape.dims.data();
    out.scale = operand.shape.scale;
    out.zeroPoint = operand.shape.zeroPoint;
    out.lifetime = abiLifetime(operand.lifetime);
    if (operand.shape.channelQuant) {
      out.channelDim = operand.shape.channelQuant->channelDim;
      out.scaleCount = static_cast<uint32_t>(operand.shape.channelQuant->scales.size());
      out.scales = operand.shape.channelQuant->scales.data();
    }
    out.data = model.constantData(operand);
    out.length = operand.location.length;
    out.subgraph = static_cast<uint32_t>(operand.location.offset);
    out.extensionData = operand.extensionData.data();
    out.extensionDataLength = operand.extensionData.size();
    storage.operands.push_back(out);
  }
  for (const Operation& operation : subgraph.operations) {
    storage.operations.push_back(
        {static_cast<int32_t>(operation.type), static_cast<uint32_t>(operation.inputs.size()),
         operation.inputs.data(), static_cast<uint32_t>(operation.outputs.size()),
         operation.outputs.data()});
  }
  return {static_cast<uint32_t>(storage.operands.size()),       storage.operands.data(),
          static_cast<uint32_t>(storage.operations.size()),     storage.operations.data(),
          static_cast<uint32_t>(subgraph.inputIndexes.size()),  subgraph.inputIndexes.data(),
          static_cast<uint32_t>(subgraph.outputIndexes.size()), subgraph.outputIndexes.data()};
}

Result<std::shared_ptr<Model>> modelFromAbi(const AnnrtModel& source) {
  ANNRT_CHECK(source.referencedCount == 0 || source.referenced != nullptr,
              "null referenced subgraph array");
  ANNRT_CHECK(source.extensionCount == 0 || source.extensions != nullptr, "null extension array");
  for (uint32_t i = 0; i < source.extensionCount; ++i) {
    ANNRT_CHECK(source.extensions[i].name != nullptr, "extension {} has no name", i);
  }
  ANNRT_RETURN_IF_ERROR(checkSubgraph(source.main, source.referencedCount));
  for (uint32_t i = 0; i < source.referencedCount; ++i) {
    ANNRT_RETURN_IF_ERROR(checkSubgraph(source.referenced[i], source.referencedCount));
  }
  auto model = std::make_shared<Model>();
  model->main = subgraphFromAbi(source.main, *model);
  for (uint32_t i = 0; i < source.referencedCount; ++i) {
    model->referenced.push_back(subgraphFromAbi(source.referenced[i], *model));
  }
  model->relaxComputationFloat32toFloat16 = source.relaxComputationFloat32toFloat16;
  for (uint32_t i = 0; i < source.extensionCount; ++i) {
    model->extensions.push_back({source.extensions[i].name, source.extensions[i].prefix});
  }
  // Devices run the model trusting it is a valid NNAPI model, as AOSP's
  // drivers validate every model they are given.
  ANNRT_RETURN_IF_ERROR(ops::validateModel(*model));
  return model;
}

}  // namespace annrt::abi
