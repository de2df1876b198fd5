// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Static shape inference: the output dims of every operation of a graph,
// given its inputs' dims and its constants, from each operation's `prepare`
// (the same function the reference kernels size their outputs with). Used by
// the .tflite importer for resized inputs and by the runtime to specialize a
// model with unknown input dims for the dims an execution brings; both only
// describe their graph in the terms below.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "common/types.h"
#include "ops/operation.h"

namespace annrt::ops {

// One operand as shape inference sees it. An omitted optional operand is
// constant with no value.
struct InferenceOperand {
  bool constant = false;
  const void* value = nullptr;  // a constant's bytes (nullptr: omitted)
  bool subgraph = false;        // a reference to a subgraph (IF/WHILE bodies)
};

struct InferenceOperation {
  const OperationRegistration* registration = nullptr;  // nullptr: unknown operation
  std::span<const uint32_t> inputs;
  std::span<const uint32_t> outputs;
};

// Fills the dims of the operations' outputs in `shapes` (one shape per
// operand, dims as declared: 0 or an empty list where unknown), visiting the
// operations in order. Operations whose output shapes depend on values only
// known at execution time (a non-constant INT32 or BOOL operand,
// BOX_WITH_NMS_LIMIT, IF/WHILE) and unknown operations keep their outputs as
// declared, and so does everything computed from them. An operation that
// rejects its input shapes, or computes dims that contradict declared ones,
// is an error: `describe(index of the operation)`, then why.
Result<void> inferShapes(std::span<const InferenceOperation> operations,
                         std::span<const InferenceOperand> operands, std::vector<Shape>& shapes,
                         bool relaxed, const std::function<std::string(size_t)>& describe);

}  // namespace annrt::ops
