// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/shape_specialization.h"

#include <fmt/format.h>

#include "ops/shape_inference.h"

namespace annrt::runtime {
namespace {

Result<void> fixInputDims(Subgraph& graph, std::span<const std::vector<uint32_t>> inputDims) {
  ANNRT_CHECK(inputDims.size() == graph.inputIndexes.size(),
              "{} input dims given for a model of {} inputs", inputDims.size(),
              graph.inputIndexes.size());
  for (size_t i = 0; i < inputDims.size(); ++i) {
    if (inputDims[i].empty()) continue;
    Shape& shape = graph.operands[graph.inputIndexes[i]].shape;
    Shape given = shape;
    given.dims = inputDims[i];
    ANNRT_CHECK(!hasUnknownDims(given), "input {} has unknown dims {}", i, toString(given.dims));
    bool agrees = shape.dims.empty() || shape.dims.size() == given.dims.size();
    for (size_t axis = 0; agrees && axis < shape.dims.size(); ++axis) {
      agrees = shape.dims[axis] == 0 || shape.dims[axis] == given.dims[axis];
    }
    ANNRT_CHECK(agrees, "input {} dims {} contradict the model's {}", i, toString(given.dims),
                toString(shape.dims));
    shape.dims = given.dims;
  }
  return {};
}

}  // namespace

bool hasUnknownInputDims(const Model& model) {
  for (uint32_t index : model.main.inputIndexes) {
    const Shape& shape = model.main.operands[index].shape;
    if (isTensorType(shape.type) && hasUnknownDims(shape)) return true;
  }
  return false;
}

Result<std::shared_ptr<const Model>> specializeModel(
    const Model& model, std::span<const std::vector<uint32_t>> inputDims) {
  auto specialized = std::make_shared<Model>(model);
  Subgraph& graph = specialized->main;
  ANNRT_RETURN_IF_ERROR(fixInputDims(graph, inputDims));
  std::vector<Shape> shapes;
  std::vector<ops::InferenceOperand> operands;
  shapes.reserve(graph.operands.size());
  operands.reserve(graph.operands.size());
  for (const Operand& operand : graph.operands) {
    shapes.push_back(operand.shape);
    const bool constant = operand.lifetime == Lifetime::CONSTANT_COPY ||
                          operand.lifetime == Lifetime::CONSTANT_REFERENCE ||
                          operand.lifetime == Lifetime::NO_VALUE ||
                          operand.lifetime == Lifetime::SUBGRAPH;
    operands.push_back(
        {constant, model.constantData(operand), operand.lifetime == Lifetime::SUBGRAPH});
  }
  std::vector<ops::InferenceOperation> operations;
  operations.reserve(graph.operations.size());
  for (const Operation& operation : graph.operations) {
    operations.push_back({ops::findModelOperation(model.extensions, operation.type),
                          operation.inputs, operation.outputs});
  }
  auto describe = [&](size_t k) {
    return fmt::format("operation {} ({})", k, operationTypeName(graph.operations[k].type));
  };
  ANNRT_RETURN_IF_ERROR(ops::inferShapes(operations, operands, shapes,
                                         model.relaxComputationFloat32toFloat16, describe));
  for (size_t i = 0; i < shapes.size(); ++i) graph.operands[i].shape.dims = shapes[i].dims;
  return std::shared_ptr<const Model>(std::move(specialized));
}

}  // namespace annrt::runtime
