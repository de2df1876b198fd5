// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/shape_inference.h"

#include <fmt/format.h>

#include "ops/operation.h"
#include "ops/shape_inference.h"

namespace annrt::tflite {
namespace {

const ops::OperationRegistration* registrationOf(const WrittenOperation& operation) {
  if (operation.extension != nullptr) {
    return ops::findExtensionOperation(operation.extension, operation.extensionCode);
  }
  return ops::findOperation(static_cast<OperationType>(operation.type));
}

}  // namespace

Result<std::vector<std::vector<uint32_t>>> inferShapes(const NnapiWriter& writer, bool relaxed,
                                                       std::span<const OperationInfo> operations) {
  const std::vector<WrittenOperand>& operands = writer.operands();
  const std::vector<WrittenOperation>& written = writer.operations();
  std::vector<Shape> shapes;
  std::vector<ops::InferenceOperand> seen;
  for (const WrittenOperand& operand : operands) {
    shapes.push_back(operand.shape);
    seen.push_back({operand.constant, operand.value.empty() ? nullptr : operand.value.data(),
                    operand.subgraph});
  }
  // Computed operands start unknown: what the file says is for its own input
  // shapes. Model inputs (never an operation's output) keep their dims.
  std::vector<ops::InferenceOperation> graph;
  for (const WrittenOperation& operation : written) {
    for (uint32_t output : operation.outputs) {
      std::fill(shapes[output].dims.begin(), shapes[output].dims.end(), 0);
    }
    graph.push_back({registrationOf(operation), operation.inputs, operation.outputs});
  }
  auto describe = [&](size_t k) {
    const std::string where =
        k < operations.size()
            ? fmt::format("{} (tflite op #{})", operations[k].tfliteName, operations[k].tfliteIndex)
            : std::string(graph[k].registration->name);
    return where + " cannot take the resized input shapes";
  };
  ANNRT_RETURN_IF_ERROR(ops::inferShapes(graph, seen, shapes, relaxed, describe));
  std::vector<std::vector<uint32_t>> dims(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].constant && !hasUnknownDims(shapes[i])) dims[i] = shapes[i].dims;
  }
  return dims;
}

}  // namespace annrt::tflite
