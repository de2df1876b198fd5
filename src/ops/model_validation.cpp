// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/model_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "common/dims.h"
#include "common/model_limits.h"
#include "ops/operand_validation.h"
#include "ops/operation.h"

namespace annrt::ops {
namespace {

constexpr int32_t kMaxOperationCode = static_cast<int32_t>(OperationType::REVERSE);

// An operation's operands as its validator sees them.
class EnvironmentContext final : public ValidationContext {
 public:
  EnvironmentContext(const Operation& operation, const OperationEnvironment& env)
      : operation_(operation), env_(env) {}

  uint32_t inputCount() const override { return operation_.inputs.size(); }
  uint32_t outputCount() const override { return operation_.outputs.size(); }
  const Shape& inputShape(uint32_t i) const override { return in(i).shape; }
  const Shape& outputShape(uint32_t i) const override {
    return env_.subgraph.operands[operation_.outputs[i]].shape;
  }
  bool isOmittedInput(uint32_t i) const override { return in(i).lifetime == Lifetime::NO_VALUE; }
  const void* constantInput(uint32_t i) const override {
    return env_.constant(operation_.inputs[i]);
  }
  bool isRelaxed() const override { return env_.relaxed; }

 private:
  const Operand& in(uint32_t i) const { return env_.subgraph.operands[operation_.inputs[i]]; }

  const Operation& operation_;
  const OperationEnvironment& env_;
};

// AOSP's rule for operands passed into or out of a referenced model: same
// type and quantization, and dims that agree where both are known.
Result<void> checkCompatible(const Shape& outer, const Shape& inner, const char* what, size_t i) {
  const bool same = outer.type == inner.type && outer.scale == inner.scale &&
                    outer.zeroPoint == inner.zeroPoint && outer.channelQuant == inner.channelQuant;
  ANNRT_CHECK(same && combineDims(outer.dims, inner.dims).ok(),
              "{} {} is {}, incompatible with the referenced model's {}", what, i, toString(outer),
              toString(inner));
  return {};
}

Result<void> checkCondition(const Shape& shape, const char* what) {
  ANNRT_CHECK(shape.type == OperandType::TENSOR_BOOL8 && shape.dims == std::vector<uint32_t>{1},
              "{} must be a TENSOR_BOOL8 of dimensions [1], got {}", what, toString(shape));
  return {};
}

const Shape& ioShape(const Subgraph& subgraph, const std::vector<uint32_t>& list, size_t i) {
  return subgraph.operands[list[i]].shape;
}

Result<const Subgraph*> referencedSubgraph(const OperationEnvironment& env, uint32_t index) {
  const Operand& operand = env.subgraph.operands[index];
  ANNRT_CHECK(operand.shape.type == OperandType::SUBGRAPH && operand.lifetime == Lifetime::SUBGRAPH,
              "operand {} must be a model (set with setOperandValueFromModel)", index);
  return env.referenced(index);
}

// The operation's data inputs (from `first` on) feed the referenced model's inputs.
Result<void> checkModelInputs(const Operation& operation, size_t first, const Subgraph& outer,
                              const Subgraph& model) {
  const size_t count = operation.inputs.size() - first;
  ANNRT_CHECK(model.inputIndexes.size() == count, "{} passes {} inputs to a model taking {}",
              operationTypeName(operation.type), count, model.inputIndexes.size());
  for (size_t j = 0; j < count; ++j) {
    ANNRT_RETURN_IF_ERROR(checkCompatible(outer.operands[operation.inputs[first + j]].shape,
                                          ioShape(model, model.inputIndexes, j), "input",
                                          first + j));
  }
  return {};
}

// The operation's outputs take the first outputs of the referenced model.
Result<void> checkModelOutputs(const Operation& operation, const Subgraph& outer,
                               const Subgraph& model) {
  for (size_t j = 0; j < operation.outputs.size(); ++j) {
    ANNRT_RETURN_IF_ERROR(checkCompatible(outer.operands[operation.outputs[j]].shape,
                                          ioShape(model, model.outputIndexes, j), "output", j));
  }
  return {};
}

// A WHILE body's outputs feed its first inputs on the next iteration.
Result<void> checkWhileBody(const Subgraph& body) {
  const size_t outputs = body.outputIndexes.size();
  ANNRT_CHECK(body.inputIndexes.size() >= outputs,
              "the WHILE body model has {} inputs for {} outputs", body.inputIndexes.size(),
              outputs);
  for (size_t j = 0; j < outputs; ++j) {
    ANNRT_RETURN_IF_ERROR(checkCompatible(ioShape(body, body.outputIndexes, j),
                                          ioShape(body, body.inputIndexes, j), "WHILE body output",
                                          j));
  }
  return {};
}

// IF(condition, then, else, inputs...) and WHILE(condition, body, inputs...),
// with AOSP's rules on the referenced models' inputs and outputs.
Result<void> validateControlFlow(const Operation& operation, const OperationEnvironment& env) {
  const bool isIf = operation.type == OperationType::IF;
  const char* name = operationTypeName(operation.type);
  const Subgraph& outer = env.subgraph;
  ANNRT_CHECK(operation.inputs.size() >= 3 && !operation.outputs.empty(),
              "{} has {} inputs and {} outputs, needs at least 3 and 1", name,
              operation.inputs.size(), operation.outputs.size());
  const size_t first = isIf ? 3 : 2;
  if (isIf) {
    ANNRT_RETURN_IF_ERROR(
        checkCondition(outer.operands[operation.inputs[0]].shape, "the IF condition"));
  }
  for (size_t i = isIf ? 1 : 0; i < first; ++i) {
    ANNRT_ASSIGN_OR_RETURN(const Subgraph* model, referencedSubgraph(env, operation.inputs[i]));
    ANNRT_RETURN_IF_ERROR(checkModelInputs(operation, first, outer, *model));
    const size_t outputs = model->outputIndexes.size();
    if (!isIf && i == 0) {
      ANNRT_CHECK(outputs == 1, "the WHILE condition model has {} outputs, needs 1", outputs);
      ANNRT_RETURN_IF_ERROR(checkCondition(ioShape(*model, model->outputIndexes, 0),
                                           "the WHILE condition model's output"));
      continue;
    }
    ANNRT_CHECK(isIf ? outputs == operation.outputs.size() : outputs >= operation.outputs.size(),
                "{} model has {} outputs for {} operation outputs", name, outputs,
                operation.outputs.size());
    ANNRT_RETURN_IF_ERROR(checkModelOutputs(operation, outer, *model));
    if (!isIf) ANNRT_RETURN_IF_ERROR(checkWhileBody(*model));
  }
  return {};
}

Result<void> validateSignature(const Operation& operation, const OperationEnvironment& env) {
  if (operation.type == OperationType::IF || operation.type == OperationType::WHILE) {
    return validateControlFlow(operation, env);
  }
  const OperationRegistration* registration = findModelOperation(env.extensions, operation.type);
  if (registration == nullptr) return {};
  return registration->validate(EnvironmentContext(operation, env));
}

// Adds which subgraph an error is in.
Result<void> inSubgraph(Result<void> result, const std::string& where) {
  if (result.ok()) return result;
  Error error = result.takeError();
  error.message = fmt::format("{}: {}", where, error.message);
  return error;
}

struct SubgraphCheck {
  const Model& model;
  const Subgraph& subgraph;

  Result<void> constantBytes(uint32_t index, const Operand& operand) const {
    const DataLocation& at = operand.location;
    size_t available = 0;
    if (operand.lifetime == Lifetime::CONSTANT_COPY) {
      available = model.operandValues.size();
    } else {
      ANNRT_CHECK(at.pool < model.pools.size() && model.pools[at.pool] != nullptr,
                  "constant operand {} is in memory pool {}, the model has {}", index, at.pool,
                  model.pools.size());
      available = model.pools[at.pool]->size();
    }
    ANNRT_CHECK(at.offset <= available && at.length <= available - at.offset,
                "constant operand {} takes bytes [{}, {}) of a block of {}", index, at.offset,
                at.offset + at.length, available);
    ANNRT_CHECK(!hasUnknownDims(operand.shape),
                "operand {} has unspecified dimensions {} and cannot be a constant", index,
                toString(operand.shape.dims));
    // OEM scalars take any length (AOSP); extension sizes are the vendor's.
    const OperandType type = operand.shape.type;
    const size_t expected = byteSize(operand.shape);
    ANNRT_CHECK(type == OperandType::OEM_SCALAR || isExtensionCode(static_cast<int32_t>(type)) ||
                    at.length == expected,
                "constant operand {} of {} needs {} bytes, has {}", index, toString(operand.shape),
                expected, at.length);
    return {};
  }

  Result<void> operand(uint32_t index) const {
    const Operand& operand = subgraph.operands[index];
    const Shape& shape = operand.shape;
    const bool extension = isKnownExtensionCode(model.extensions, static_cast<int32_t>(shape.type));
    if (auto valid = validateOperandShape(shape, extension); !valid.ok()) {
      Error error = valid.takeError();
      error.message = fmt::format("operand {}: {}", index, error.message);
      return error;
    }
    if (shape.channelQuant) ANNRT_RETURN_IF_ERROR(validateChannelQuant(shape, *shape.channelQuant));
    ANNRT_CHECK(shape.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL || shape.channelQuant,
                "operand {} needs per-channel quantization parameters "
                "(setOperandSymmPerChannelQuantParams)",
                index);
    ANNRT_CHECK(shape.type != OperandType::TENSOR_INT32 || !(shape.scale < 0.0f),
                "TENSOR_INT32 operand {} has negative scale {}", index, shape.scale);
    const bool isModel = shape.type == OperandType::SUBGRAPH;
    const bool holdsModel = operand.lifetime == Lifetime::SUBGRAPH;
    ANNRT_CHECK(!isModel || holdsModel, "operand {} of type MODEL has no model set", index);
    ANNRT_CHECK(isModel || !holdsModel, "operand {} was given a model but is not of type MODEL",
                index);
    if (holdsModel) {
      ANNRT_CHECK(operand.location.offset < model.referenced.size(),
                  "operand {} references subgraph {}, the model has {}", index,
                  operand.location.offset, model.referenced.size());
    }
    if (operand.lifetime == Lifetime::CONSTANT_COPY ||
        operand.lifetime == Lifetime::CONSTANT_REFERENCE) {
      return constantBytes(index, operand);
    }
    return {};
  }

  // The listed operands, and only they, have `lifetime`, each listed once.
  Result<void> ioList(const std::vector<uint32_t>& list, Lifetime lifetime,
                      const char* what) const {
    std::vector<uint32_t> count(subgraph.operands.size(), 0);
    for (uint32_t index : list) {
      ANNRT_CHECK(index < count.size(), "{} operand {} out of range ({} operands)", what, index,
                  count.size());
      ANNRT_CHECK(subgraph.operands[index].lifetime == lifetime,
                  "{} operand {} is a constant, an omitted value, a model, a temporary or "
                  "another role's operand",
                  what, index);
      ANNRT_CHECK(++count[index] == 1, "operand {} is listed twice as a {}", index, what);
    }
    for (size_t i = 0; i < count.size(); ++i) {
      ANNRT_CHECK(count[i] == 1 || subgraph.operands[i].lifetime != lifetime,
                  "operand {} has the lifetime of a {} but is not in the {} list", i, what, what);
    }
    return {};
  }

  OperationEnvironment environment() const {
    return {subgraph, model.extensions, model.relaxComputationFloat32toFloat16,
            [this](uint32_t index) -> const void* {
              return model.constantData(subgraph.operands[index]);
            },
            [this](uint32_t index) -> Result<const Subgraph*> {
              const size_t at = subgraph.operands[index].location.offset;
              ANNRT_CHECK(at < model.referenced.size(), "operand {} references subgraph {} of {}",
                          index, at, model.referenced.size());
              return &model.referenced[at];
            }};
  }

  // Operations in execution order, each computed operand written once,
  // before any operation reads it.
  Result<void> operations() const {
    const OperationEnvironment env = environment();
    std::vector<uint32_t> writers(subgraph.operands.size(), 0);
    auto computed = [&](uint32_t index) {
      const Lifetime lifetime = subgraph.operands[index].lifetime;
      return lifetime == Lifetime::TEMPORARY_VARIABLE || lifetime == Lifetime::SUBGRAPH_OUTPUT;
    };
    for (size_t i = 0; i < subgraph.operations.size(); ++i) {
      const Operation& operation = subgraph.operations[i];
      const auto code = static_cast<int32_t>(operation.type);
      ANNRT_CHECK(isKnownOperationCode(model.extensions, code), "operation {}: unknown type {}", i,
                  code);
      ANNRT_CHECK(operation.inputs.size() <= limits::kMaxArity &&
                      operation.outputs.size() <= limits::kMaxArity,
                  "operation {} has {} inputs and {} outputs, over annrt's limit of {}", i,
                  operation.inputs.size(), operation.outputs.size(), limits::kMaxArity);
      for (uint32_t index : operation.inputs) {
        ANNRT_CHECK(index < writers.size(), "operation {} reads operand {} of {}", i, index,
                    writers.size());
        ANNRT_CHECK(!computed(index) || writers[index] == 1,
                    "operation {} ({}) reads operand {} before any operation writes it (the "
                    "operations must be in execution order)",
                    i, operationTypeName(operation.type), index);
      }
      for (uint32_t index : operation.outputs) {
        ANNRT_CHECK(index < writers.size(), "operation {} writes operand {} of {}", i, index,
                    writers.size());
        ANNRT_CHECK(computed(index),
                    "operation {} ({}) writes operand {}, which is a constant, an omitted value, "
                    "a model or a model input",
                    i, operationTypeName(operation.type), index);
        ANNRT_CHECK(++writers[index] == 1, "operand {} is written by more than one operation",
                    index);
      }
      ANNRT_RETURN_IF_ERROR(validateOperation(operation, env));
    }
    // Every value must be known: a temporary or an output no operation writes
    // is rejected even if nothing reads it (AOSP: "operand is never written").
    for (uint32_t i = 0; i < subgraph.operands.size(); ++i) {
      ANNRT_CHECK(!computed(i) || writers[i] == 1, "operand {} is never written by an operation",
                  i);
    }
    return {};
  }

  Result<void> all() const {
    ANNRT_CHECK(!subgraph.operands.empty() && !subgraph.operations.empty(),
                "the model is empty: it needs operands and operations");
    ANNRT_CHECK(subgraph.operands.size() <= limits::kMaxOperands &&
                    subgraph.operations.size() <= limits::kMaxOperations,
                "{} operands and {} operations, over annrt's limits", subgraph.operands.size(),
                subgraph.operations.size());
    for (uint32_t i = 0; i < subgraph.operands.size(); ++i) ANNRT_RETURN_IF_ERROR(operand(i));
    ANNRT_RETURN_IF_ERROR(ioList(subgraph.inputIndexes, Lifetime::SUBGRAPH_INPUT, "model input"));
    ANNRT_RETURN_IF_ERROR(
        ioList(subgraph.outputIndexes, Lifetime::SUBGRAPH_OUTPUT, "model output"));
    return operations();
  }
};

// Depth-first over subgraph references; `state`: 0 unseen, 1 on the path, 2 done.
Result<void> checkNoCycle(const Model& model, const Subgraph& subgraph,
                          std::vector<uint8_t>& state) {
  for (const Operand& operand : subgraph.operands) {
    if (operand.lifetime != Lifetime::SUBGRAPH) continue;
    const size_t next = operand.location.offset;
    if (next >= state.size()) continue;  // reported with the operand
    ANNRT_CHECK(state[next] != 1,
                "referenced model {} is reached again through the models it references: control "
                "flow cannot recurse",
                next);
    if (state[next] == 2) continue;
    state[next] = 1;
    ANNRT_RETURN_IF_ERROR(checkNoCycle(model, model.referenced[next], state));
    state[next] = 2;
  }
  return {};
}

Result<void> checkReferences(const Model& model) {
  std::vector<uint8_t> state(model.referenced.size(), 0);
  ANNRT_RETURN_IF_ERROR(checkNoCycle(model, model.main, state));
  for (size_t i = 0; i < model.referenced.size(); ++i) {
    if (state[i] != 0) continue;
    state[i] = 1;
    ANNRT_RETURN_IF_ERROR(checkNoCycle(model, model.referenced[i], state));
    state[i] = 2;
  }
  const uint32_t depth = model.nestingDepth(limits::kMaxSubgraphDepth);
  ANNRT_CHECK(depth <= limits::kMaxSubgraphDepth,
              "the model nests subgraphs over {} levels deep, annrt's limit",
              limits::kMaxSubgraphDepth);
  return {};
}

}  // namespace

bool isKnownExtensionCode(std::span<const ExtensionPrefix> extensions, int32_t code) {
  return isExtensionCode(code) &&
         std::any_of(extensions.begin(), extensions.end(), [&](const ExtensionPrefix& e) {
           return e.prefix == static_cast<uint32_t>(code) >> kExtensionTypeBits;
         });
}

bool isKnownOperationCode(std::span<const ExtensionPrefix> extensions, int32_t code) {
  return (code >= 0 && code <= kMaxOperationCode) ||
         code == static_cast<int32_t>(OperationType::DENSIFY) ||
         code == static_cast<int32_t>(OperationType::OEM_OPERATION) ||
         isKnownExtensionCode(extensions, code);
}

Result<void> validateOperation(const Operation& operation, const OperationEnvironment& env) {
  if (auto valid = validateSignature(operation, env); !valid.ok()) {
    const OperationRegistration* known = findModelOperation(env.extensions, operation.type);
    Error error = valid.takeError();
    error.message =
        fmt::format("invalid {} operation: {}",
                    known ? known->name : operationTypeName(operation.type), error.message);
    return error;
  }
  return {};
}

Result<void> validateModel(const Model& model) {
  ANNRT_CHECK(model.referenced.size() <= limits::kMaxReferencedSubgraphs,
              "the model references {} subgraphs, over annrt's limit of {}",
              model.referenced.size(), limits::kMaxReferencedSubgraphs);
  ANNRT_RETURN_IF_ERROR(checkReferences(model));
  ANNRT_RETURN_IF_ERROR(inSubgraph(SubgraphCheck{model, model.main}.all(), "main model"));
  for (size_t i = 0; i < model.referenced.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(inSubgraph(SubgraphCheck{model, model.referenced[i]}.all(),
                                     fmt::format("referenced model {}", i)));
  }
  return {};
}

}  // namespace annrt::ops
