// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the mapping functions: fused activations, padding codes,
// option tables, default biases and axes.
#pragma once

#include <optional>
#include <vector>

#include "tflite/converter.h"
#include "tflite/op_table.h"

namespace annrt::tflite {

// How a TFLite fused activation is expressed in NNAPI: as the FuseCode input
// of the operation, or (TANH, or operations without a FuseCode) as one more
// operation after it.
struct ActivationPlan {
  uint32_t fuse = 0;                   // FuseCode operand to pass (when the operation takes one)
  uint32_t result = 0;                 // operand the main operation writes
  uint32_t output = 0;                 // operand of the TFLite output
  std::optional<OperationType> after;  // operation from result to output
};

Result<ActivationPlan> planActivation(Converter& c, fb::ActivationFunctionType activation,
                                      bool takesFuseCode = true);
Result<void> finishActivation(Converter& c, const ActivationPlan& plan);

// NNAPI PaddingCode of a TFLite padding.
int32_t paddingCode(fb::Padding padding);

// The builtin options table, or an error when the operator has none.
template <typename T>
Result<const T*> requireOptions(const Converter& c, const T* options) {
  if (options == nullptr) return c.opError("builtin options are missing or of the wrong type");
  return options;
}

// Bias input `index`, or a zero bias of `units` elements typed for the
// operation's input and filter (inputs `inputIndex`, `filterIndex`).
Result<uint32_t> biasOrZeros(Converter& c, size_t index, size_t inputIndex, size_t filterIndex,
                             uint32_t units);

// Operands of all inputs from `first` on (all must be present).
Result<std::vector<uint32_t>> allInputs(Converter& c, size_t first = 0);
Result<std::vector<uint32_t>> allOutputs(Converter& c);

// `axis` in [-rank, rank) made non-negative, or an error.
Result<int32_t> normalizeAxis(const Converter& c, int32_t axis, size_t rank);

}  // namespace annrt::tflite
