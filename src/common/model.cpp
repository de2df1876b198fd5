// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/model.h"

namespace annrt {

const uint8_t* Model::constantData(const Operand& operand) const {
  switch (operand.lifetime) {
    case Lifetime::CONSTANT_COPY: return operandValues.data() + operand.location.offset;
    case Lifetime::CONSTANT_REFERENCE:
      return pools[operand.location.pool]->data() + operand.location.offset;
    default: return nullptr;
  }
}

}  // namespace annrt
