// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/submodel.h"

#include <unordered_map>

namespace annrt {
namespace {

class SubmodelBuilder {
 public:
  SubmodelBuilder(const Model& model, const std::vector<bool>& readOutside)
      : model_(model), readOutside_(readOutside), produced_(model.main.operands.size(), false) {}

  Submodel build(const std::vector<uint32_t>& operations) {
    for (uint32_t index : operations) {
      for (uint32_t output : model_.main.operations[index].outputs) produced_[output] = true;
    }
    auto result = std::make_shared<Model>();
    result->referenced = model_.referenced;
    result->operandValues = model_.operandValues;
    // Referenced subgraphs name pools by index too, so with control flow the
    // submodel keeps them all; otherwise only those its constants use (a
    // model from the plug-in ABI has a pool per constant, and annrt-cpu cuts
    // one into a submodel per stage: copying every pool into each was most
    // of a warm start's stage cutting).
    if (!compactPools_) result->pools = model_.pools;
    result->relaxComputationFloat32toFloat16 = model_.relaxComputationFloat32toFloat16;
    result->extensions = model_.extensions;
    Submodel submodel;
    for (uint32_t index : operations) {
      const Operation& source = model_.main.operations[index];
      Operation operation{source.type, {}, {}};
      for (uint32_t input : source.inputs)
        operation.inputs.push_back(map(input, *result, submodel));
      for (uint32_t output : source.outputs) {
        operation.outputs.push_back(map(output, *result, submodel));
      }
      result->main.operations.push_back(std::move(operation));
    }
    for (const Operation& operation : result->main.operations) {
      for (uint32_t input : operation.inputs) ++result->main.operands[input].consumers;
    }
    submodel.model = std::move(result);
    return submodel;
  }

 private:
  // The submodel operand for main operand `index`, added on first use.
  uint32_t map(uint32_t index, Model& result, Submodel& submodel) {
    auto [it, inserted] = mapping_.emplace(index, 0);
    if (!inserted) return it->second;
    const Operand& source = model_.main.operands[index];
    Operand operand = source;
    operand.consumers = 0;
    const auto newIndex = static_cast<uint32_t>(result.main.operands.size());
    it->second = newIndex;
    if (source.lifetime == Lifetime::CONSTANT_REFERENCE && compactPools_) {
      operand.location.pool = poolFor(source.location.pool, result);
    }
    const bool isValue = source.lifetime == Lifetime::CONSTANT_COPY ||
                         source.lifetime == Lifetime::CONSTANT_REFERENCE ||
                         source.lifetime == Lifetime::NO_VALUE ||
                         source.lifetime == Lifetime::SUBGRAPH;
    if (!isValue) {
      if (!produced_[index]) {
        operand.lifetime = Lifetime::SUBGRAPH_INPUT;
        result.main.inputIndexes.push_back(newIndex);
        submodel.inputs.push_back(index);
      } else if (source.lifetime == Lifetime::SUBGRAPH_OUTPUT || readOutside_[index] ||
                 source.consumers == 0) {
        // Unread results too: the step's device writes them where the plan says.
        operand.lifetime = Lifetime::SUBGRAPH_OUTPUT;
        result.main.outputIndexes.push_back(newIndex);
        submodel.outputs.push_back(index);
      } else {
        operand.lifetime = Lifetime::TEMPORARY_VARIABLE;
      }
    }
    result.main.operands.push_back(std::move(operand));
    return newIndex;
  }

  // The submodel's index of main-model pool `pool`, added on first use.
  uint32_t poolFor(uint32_t pool, Model& result) {
    auto [it, inserted] = poolMapping_.emplace(pool, static_cast<uint32_t>(result.pools.size()));
    if (inserted) result.pools.push_back(pool < model_.pools.size() ? model_.pools[pool] : nullptr);
    return it->second;
  }

  const Model& model_;
  const std::vector<bool>& readOutside_;
  const bool compactPools_ = model_.referenced.empty();
  std::unordered_map<uint32_t, uint32_t> poolMapping_;
  std::vector<bool> produced_;
  std::unordered_map<uint32_t, uint32_t> mapping_;
};

}  // namespace

Submodel extractSubmodel(const Model& model, const std::vector<uint32_t>& operations,
                         const std::vector<bool>& readOutside) {
  return SubmodelBuilder(model, readOutside).build(operations);
}

}  // namespace annrt
