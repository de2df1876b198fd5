// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/model.h"

#include <algorithm>

namespace annrt {
namespace {

// Depth of `subgraph` (1: it references nothing), reached at `level` from
// main; `known` memoizes referenced subgraphs' depths (0: not yet known).
// Sets `tooDeep` and stops once a level passes `cap` (also ends cycles).
uint32_t depthOf(const Model& model, const Subgraph& subgraph, uint32_t level, uint32_t cap,
                 std::vector<uint32_t>& known, bool& tooDeep) {
  if (level > cap) {
    tooDeep = true;
    return 1;
  }
  uint32_t deepest = 1;
  for (const Operand& operand : subgraph.operands) {
    if (operand.lifetime != Lifetime::SUBGRAPH) continue;
    const size_t index = operand.location.offset;
    if (index >= model.referenced.size()) continue;
    if (known[index] == 0) {
      const uint32_t below =
          depthOf(model, model.referenced[index], level + 1, cap, known, tooDeep);
      if (tooDeep) return deepest;
      known[index] = below;
    }
    deepest = std::max(deepest, known[index] + 1);
  }
  return deepest;
}

}  // namespace

const uint8_t* Model::constantData(const Operand& operand) const {
  switch (operand.lifetime) {
    case Lifetime::CONSTANT_COPY: return operandValues.data() + operand.location.offset;
    case Lifetime::CONSTANT_REFERENCE:
      return pools[operand.location.pool]->data() + operand.location.offset;
    default: return nullptr;
  }
}

uint32_t Model::nestingDepth(uint32_t cap) const {
  std::vector<uint32_t> known(referenced.size(), 0);
  bool tooDeep = false;
  const uint32_t depth = depthOf(*this, main, 1, cap, known, tooDeep);
  return tooDeep ? cap + 1 : depth;
}

}  // namespace annrt
