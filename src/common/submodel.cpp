// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/submodel.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "common/align.h"

namespace annrt {
namespace {

enum class OperandRole { VALUE, INPUT, OUTPUT, INTERNAL };

// What main operand `index`, used by a set of operations that produces the
// operands `produced` (sorted), is to that set.
OperandRole roleIn(const Model& model, uint32_t index, const std::vector<uint32_t>& produced,
                   const std::function<bool(uint32_t)>& isReadOutside) {
  const Operand& source = model.main.operands[index];
  const bool isValue = source.lifetime == Lifetime::CONSTANT_COPY ||
                       source.lifetime == Lifetime::CONSTANT_REFERENCE ||
                       source.lifetime == Lifetime::NO_VALUE ||
                       source.lifetime == Lifetime::SUBGRAPH;
  if (isValue) return OperandRole::VALUE;
  if (!std::binary_search(produced.begin(), produced.end(), index)) return OperandRole::INPUT;
  // Unread results too: the step's device writes them where the plan says.
  if (source.lifetime == Lifetime::SUBGRAPH_OUTPUT || isReadOutside(index) ||
      source.consumers == 0) {
    return OperandRole::OUTPUT;
  }
  return OperandRole::INTERNAL;
}

std::vector<uint32_t> producedBy(const Model& model, const std::vector<uint32_t>& operations) {
  std::vector<uint32_t> produced;
  for (uint32_t index : operations) {
    const Operation& operation = model.main.operations[index];
    produced.insert(produced.end(), operation.outputs.begin(), operation.outputs.end());
  }
  std::sort(produced.begin(), produced.end());
  return produced;
}

class SubmodelBuilder {
 public:
  SubmodelBuilder(const Model& model, const std::function<bool(uint32_t)>& isReadOutside)
      : model_(model), isReadOutside_(isReadOutside) {}

  // Only what the operations touch is visited: annrt-cpu cuts a model into
  // a submodel per stage (pose_landmark_full: 132), so anything sized by
  // the whole model here would make a warm start quadratic.
  Submodel build(const std::vector<uint32_t>& operations) {
    size_t operandUses = 0;
    for (uint32_t index : operations) {
      const Operation& operation = model_.main.operations[index];
      operandUses += operation.inputs.size() + operation.outputs.size();
    }
    produced_ = producedBy(model_, operations);
    mapping_.reserve(operandUses);
    auto result = std::make_shared<Model>();
    result->main.operands.reserve(operandUses);
    result->main.operations.reserve(operations.size());
    result->referenced = model_.referenced;
    // Referenced subgraphs name pools and small values by place too, so
    // with control flow the submodel keeps them all; otherwise only those
    // its constants use (a model from the plug-in ABI has a pool per
    // constant: copying every pool into each stage was most of a warm
    // start's stage cutting).
    if (!compact_) {
      result->pools = model_.pools;
      result->operandValues = model_.operandValues;
    }
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
    if (source.lifetime == Lifetime::CONSTANT_REFERENCE && compact_) {
      operand.location.pool = poolFor(source.location.pool, result);
    }
    if (source.lifetime == Lifetime::CONSTANT_COPY && compact_) {
      operand.location.offset = copyValue(source, result);
    }
    switch (roleIn(model_, index, produced_, isReadOutside_)) {
      case OperandRole::VALUE: break;
      case OperandRole::INPUT:
        operand.lifetime = Lifetime::SUBGRAPH_INPUT;
        result.main.inputIndexes.push_back(newIndex);
        submodel.inputs.push_back(index);
        break;
      case OperandRole::OUTPUT:
        operand.lifetime = Lifetime::SUBGRAPH_OUTPUT;
        result.main.outputIndexes.push_back(newIndex);
        submodel.outputs.push_back(index);
        break;
      case OperandRole::INTERNAL: operand.lifetime = Lifetime::TEMPORARY_VARIABLE; break;
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

  // Where `source`'s small value goes in the submodel's operandValues,
  // aligned as ModelBuilder aligns them.
  size_t copyValue(const Operand& source, Model& result) const {
    const size_t offset = alignUp(result.operandValues.size(), kOperandValueAlignment);
    result.operandValues.resize(offset + source.location.length);
    if (source.location.length > 0) {
      std::memcpy(result.operandValues.data() + offset, model_.constantData(source),
                  source.location.length);
    }
    return offset;
  }

  const Model& model_;
  const std::function<bool(uint32_t)>& isReadOutside_;
  const bool compact_ = model_.referenced.empty();
  std::unordered_map<uint32_t, uint32_t> poolMapping_;
  std::vector<uint32_t> produced_;  // sorted
  std::unordered_map<uint32_t, uint32_t> mapping_;
};

}  // namespace

Submodel extractSubmodel(const Model& model, const std::vector<uint32_t>& operations,
                         const std::function<bool(uint32_t)>& isReadOutside) {
  return SubmodelBuilder(model, isReadOutside).build(operations);
}

SubmodelBoundary submodelBoundary(const Model& model, const std::vector<uint32_t>& operations,
                                  const std::function<bool(uint32_t)>& isReadOutside) {
  const std::vector<uint32_t> produced = producedBy(model, operations);
  SubmodelBoundary boundary;
  std::vector<uint32_t> seen;  // sorted
  auto visit = [&](uint32_t index) {
    const auto at = std::lower_bound(seen.begin(), seen.end(), index);
    if (at != seen.end() && *at == index) return;
    seen.insert(at, index);
    switch (roleIn(model, index, produced, isReadOutside)) {
      case OperandRole::INPUT: boundary.inputs.push_back(index); break;
      case OperandRole::OUTPUT: boundary.outputs.push_back(index); break;
      case OperandRole::VALUE:
      case OperandRole::INTERNAL: break;
    }
  };
  for (uint32_t index : operations) {
    const Operation& operation = model.main.operations[index];
    for (uint32_t input : operation.inputs) visit(input);
    for (uint32_t output : operation.outputs) visit(output);
  }
  return boundary;
}

}  // namespace annrt
