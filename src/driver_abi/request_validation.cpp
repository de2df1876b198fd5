// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/request_validation.h"

#include "common/dims.h"
#include "common/model_limits.h"

namespace annrt::abi {
namespace {

// The argument's dims (the model's when it gives none), checked against the
// model's: same rank, and known dimensions kept.
Result<std::vector<uint32_t>> argumentDims(const Operand& operand, const RequestArgument& argument,
                                           const char* what, size_t i) {
  const Shape& shape = operand.shape;
  ANNRT_CHECK(argument.dims.size() <= limits::kMaxRank, "{} {} has rank {}, over annrt's limit",
              what, i, argument.dims.size());
  // Extension types' dims are their vendors'.
  if (argument.dims.empty() || isExtensionCode(static_cast<int32_t>(shape.type))) {
    return argument.dims.empty() ? shape.dims : argument.dims;
  }
  ANNRT_CHECK(isTensorType(shape.type), "{} {} gives dimensions {} for a scalar {}", what, i,
              toString(argument.dims), operandTypeName(shape.type));
  auto combined = combineDims(shape.dims, argument.dims);
  ANNRT_CHECK(combined.ok() && argument.dims.size() == combined->size(),
              "{} {} has dimensions {}, the model's operand {}", what, i, toString(argument.dims),
              toString(shape));
  return argument.dims;
}

Result<void> checkInput(const Operand& operand, const RequestArgument& argument, size_t i) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> dims, argumentDims(operand, argument, "input", i));
  if (argument.omitted) return {};
  Shape shape = operand.shape;
  shape.dims = std::move(dims);
  // Sizes of OEM scalars and extension types are their vendors'.
  const auto code = static_cast<int32_t>(shape.type);
  if (shape.type == OperandType::OEM_SCALAR || isExtensionCode(code)) return {};
  // A 0 in an input's dims is a zero-sized tensor (one a partition of the
  // runtime's plan gets from another): the runtime has every input's dims
  // fully specified before it executes.
  const size_t needed = byteSize(shape);
  ANNRT_CHECK(needed > 0 || elementCount(shape) == 0, "input {} of {} is over 2^64 bytes", i,
              toString(shape));
  ANNRT_CHECK(argument.length >= needed && (needed == 0 || argument.data != nullptr),
              "input {} of {} needs {} bytes, the request gives {}", i, toString(shape), needed,
              argument.data ? argument.length : 0);
  return {};
}

}  // namespace

Result<void> validateRequest(const Model& model, const Request& request) {
  const Subgraph& main = model.main;
  ANNRT_CHECK(request.inputs.size() == main.inputIndexes.size() &&
                  request.outputs.size() == main.outputIndexes.size(),
              "the request has {} inputs and {} outputs, the model {} and {}",
              request.inputs.size(), request.outputs.size(), main.inputIndexes.size(),
              main.outputIndexes.size());
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(checkInput(main.operands[main.inputIndexes[i]], request.inputs[i], i));
  }
  // Output buffers too small for the result are OUTPUT_INSUFFICIENT_SIZE
  // from the execution, not an invalid request.
  for (size_t i = 0; i < request.outputs.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(
        argumentDims(main.operands[main.outputIndexes[i]], request.outputs[i], "output", i));
  }
  return {};
}

}  // namespace annrt::abi
