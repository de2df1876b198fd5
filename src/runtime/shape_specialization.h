// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A model whose inputs have unknown dims, specialized for the concrete dims
// an execution brings: the dims of its inputs fixed, and every operand's dims
// that follow from them filled in (ops/shape_inference.h), so that devices
// which need known shapes (annrt-cpu) can claim its operations.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "common/model.h"
#include "common/result.h"

namespace annrt::runtime {

// True when a tensor input of `model`'s main graph has unknown dims.
bool hasUnknownInputDims(const Model& model);

// A copy of `model` whose main inputs have `inputDims` (one list per input;
// an empty list for an omitted input keeps its declared shape) and whose
// other operands have the dims inferred from them where they can be. BAD_DATA
// when the dims contradict the model's or an operation rejects them.
Result<std::shared_ptr<const Model>> specializeModel(
    const Model& model, std::span<const std::vector<uint32_t>> inputDims);

}  // namespace annrt::runtime
