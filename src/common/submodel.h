// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Cuts a set of operations of a model's main subgraph out as a model of its
// own, so a device can prepare one partition exactly as it prepares a whole
// model. Referenced subgraphs and pools are shared, not copied; without
// referenced subgraphs the submodel lists only the pools its constants use
// (renumbered) and holds only its own small values (operandValues).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/model.h"

namespace annrt {

struct Submodel {
  std::shared_ptr<const Model> model;
  // Main-model operand index of each submodel input / output, in order.
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

// `operations` are indexes into model.main.operations, in execution order.
// An operand becomes a submodel input if an operation reads it and it is a
// model input or produced outside the set; an output if the set produces it
// and it is a model output, `isReadOutside(operand)` says later steps need it,
// or no operation reads it (the plan gives it a buffer).
Submodel extractSubmodel(const Model& model, const std::vector<uint32_t>& operations,
                         const std::function<bool(uint32_t)>& isReadOutside);

// The inputs and outputs extractSubmodel would give, in its order, without
// making the submodel (annrt-cpu's native stages run on the whole model).
struct SubmodelBoundary {
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};
SubmodelBoundary submodelBoundary(const Model& model, const std::vector<uint32_t>& operations,
                                  const std::function<bool(uint32_t)>& isReadOutside);

}  // namespace annrt
