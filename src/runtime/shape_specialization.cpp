// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/shape_specialization.h"

#include <fmt/format.h>

#include <cstring>

#include "ops/shape_inference.h"
#include "ops/util/fingerprint64.h"

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

std::array<uint8_t, kCacheTokenSize> specializedToken(
    const std::array<uint8_t, kCacheTokenSize>& token,
    std::span<const std::vector<uint32_t>> inputDims) {
  // The token, then each input's rank and dims, so that no two dims lists
  // give the same bytes.
  std::vector<uint8_t> bytes(token.begin(), token.end());
  auto append = [&](uint32_t value) {
    const size_t at = bytes.size();
    bytes.resize(at + sizeof(value));
    std::memcpy(bytes.data() + at, &value, sizeof(value));
  };
  for (const std::vector<uint32_t>& dims : inputDims) {
    append(static_cast<uint32_t>(dims.size()));
    for (uint32_t dim : dims) append(dim);
  }
  // Four 64-bit fingerprints fill the 32 bytes; each adds a different salt.
  std::array<uint8_t, kCacheTokenSize> result{};
  for (size_t part = 0; part < kCacheTokenSize / sizeof(uint64_t); ++part) {
    bytes.push_back(static_cast<uint8_t>(part));
    const uint64_t hash = ops::fingerprint64(bytes);
    std::memcpy(result.data() + part * sizeof(hash), &hash, sizeof(hash));
  }
  return result;
}

}  // namespace annrt::runtime
