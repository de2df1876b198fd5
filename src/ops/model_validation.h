// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The one check of a complete model (as AOSP's validate(const Model&)): what
// every device may rely on when it runs a model, whether the runtime built
// it (ModelBuilder::finish) or it arrived through the driver plug-in ABI.
// ModelBuilder's per-call checks of single operations use the same
// validateOperation, with the model as it is being built.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "common/model.h"
#include "common/result.h"

namespace annrt::ops {

// What an operation of `subgraph` refers to, looked up in a Model or in a
// model still being built.
struct OperationEnvironment {
  const Subgraph& subgraph;
  std::span<const ExtensionPrefix> extensions;
  bool relaxed = false;
  // Bytes of constant operand `index` of `subgraph`, or nullptr.
  std::function<const void*(uint32_t index)> constant;
  // The subgraph held by operand `index` of `subgraph`, whose type and
  // lifetime are SUBGRAPH (checked before the call).
  std::function<Result<const Subgraph*>(uint32_t index)> referenced;
};

// The model registered the extension prefix of `code` (an extension type or
// operation code).
bool isKnownExtensionCode(std::span<const ExtensionPrefix> extensions, int32_t code);
// An NNAPI operation code, or an extension operation of a registered prefix.
bool isKnownOperationCode(std::span<const ExtensionPrefix> extensions, int32_t code);

// The operation's signature (operand counts, types, constant values, and for
// IF and WHILE the referenced subgraphs), the error naming the operation.
// Operations annrt does not implement are accepted: no device claims them.
Result<void> validateOperation(const Operation& operation, const OperationEnvironment& env);

// Every subgraph of `model`: operand types and constants, operation
// signatures, inputs and outputs, each computed operand written exactly once
// before it is read (operations in execution order: rejected, not sorted),
// and referenced subgraphs without cycles, within annrt's nesting limit.
Result<void> validateModel(const Model& model);

}  // namespace annrt::ops
