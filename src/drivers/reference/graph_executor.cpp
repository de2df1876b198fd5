// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/reference/graph_executor.h"

#include <cstring>
#include <memory>
#include <utility>

#include "common/log.h"
#include "common/model_limits.h"
#include "ops/operation.h"

namespace annrt::reference {
namespace {

// The run-time state of one operand of the subgraph being interpreted.
struct RunOperand {
  Shape shape;                     // dims resolved at run time
  std::vector<uint32_t> declared;  // dims as the model declares them
  uint8_t* data = nullptr;
  size_t capacity = 0;  // bytes usable at `data` when `external`
  std::unique_ptr<uint8_t[]> storage;
  bool external = false;  // `data` is a caller's buffer (model output)
  bool omitted = false;
  bool insufficient = false;
  bool written = false;
  uint32_t remainingReads = 0;
};

using RunOperands = std::vector<RunOperand>;

Result<void> checkCompatible(const std::vector<uint32_t>& declared,
                             const std::vector<uint32_t>& actual) {
  if (declared.empty()) return {};  // unknown rank
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, declared.size() == actual.size(),
                   "computed shape {} has a different rank than the declared {}", toString(actual),
                   toString(declared));
  for (size_t i = 0; i < declared.size(); ++i) {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, declared[i] == 0 || declared[i] == actual[i],
                     "computed shape {} does not match the declared {}", toString(actual),
                     toString(declared));
  }
  return {};
}

// Gives an operand its run-time dims and memory to write them into.
Result<void> setRunShape(RunOperand& operand, const std::vector<uint32_t>& dims) {
  ANNRT_RETURN_IF_ERROR(checkCompatible(operand.declared, dims));
  operand.shape.dims = dims;
  const size_t count = elementCount(dims);
  const size_t bytes = byteSize(operand.shape);
  ANNRT_CHECK_CODE(
      ErrorCode::OP_FAILED, (count == 0 || bytes != 0) && bytes <= limits::kMaxTensorBytes,
      "shape {} is too large: a tensor may have at most 2^32 - 1 bytes", toString(dims));
  operand.written = true;
  if (operand.external) {
    if (bytes > operand.capacity) {
      operand.insufficient = true;
      return makeError(ErrorCode::OUTPUT_INSUFFICIENT_SIZE,
                       "output of shape {} needs {} bytes, the buffer has {}", toString(dims),
                       bytes, operand.capacity);
    }
    return {};
  }
  operand.storage.reset(new (std::nothrow) uint8_t[std::max<size_t>(bytes, 1)]);
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, operand.storage != nullptr,
                   "cannot allocate {} bytes for shape {}", bytes, toString(dims));
  operand.data = operand.storage.get();
  operand.capacity = bytes;
  return {};
}

class OperationContext final : public ops::ExecutionContext {
 public:
  OperationContext(const Operation& operation, RunOperands& operands, bool relaxed)
      : operation_(operation), operands_(operands), relaxed_(relaxed) {}

  uint32_t inputCount() const override { return operation_.inputs.size(); }
  uint32_t outputCount() const override { return operation_.outputs.size(); }
  const Shape& inputShape(uint32_t i) const override { return in(i).shape; }
  bool isOmittedInput(uint32_t i) const override { return in(i).omitted; }
  const void* inputData(uint32_t i) const override { return in(i).omitted ? nullptr : in(i).data; }
  const Shape& outputShape(uint32_t i) const override { return out(i).shape; }
  Result<void> setOutputShape(uint32_t i, const Shape& shape) override {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, i < outputCount(), "no output {}", i);
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, shape.type == out(i).shape.type,
                     "output {} computed as {}, declared {}", i, operandTypeName(shape.type),
                     operandTypeName(out(i).shape.type));
    return setRunShape(out(i), shape.dims);
  }
  void* outputData(uint32_t i) override { return out(i).data; }
  bool isRelaxed() const override { return relaxed_; }

 private:
  const RunOperand& in(uint32_t i) const { return operands_[operation_.inputs[i]]; }
  RunOperand& out(uint32_t i) const { return operands_[operation_.outputs[i]]; }

  const Operation& operation_;
  RunOperands& operands_;
  bool relaxed_;
};

class Interpreter {
 public:
  Interpreter(const Model& model, const ExecutionOptions& options, OperationTimer* timer)
      : model_(model), options_(options), timer_(timer) {}

  RunOperands initOperands(const Subgraph& subgraph) const {
    RunOperands operands(subgraph.operands.size());
    for (size_t i = 0; i < operands.size(); ++i) {
      const Operand& source = subgraph.operands[i];
      RunOperand& operand = operands[i];
      operand.shape = source.shape;
      operand.declared = source.shape.dims;
      operand.remainingReads = source.consumers;
      if (const uint8_t* constant = model_.constantData(source)) {
        operand.data = const_cast<uint8_t*>(constant);  // kernels never write inputs
        operand.capacity = source.location.length;
        operand.written = true;
      } else if (source.lifetime == Lifetime::NO_VALUE) {
        operand.omitted = true;
        operand.written = true;
      } else if (source.lifetime == Lifetime::SUBGRAPH) {
        operand.written = true;
      }
    }
    return operands;
  }

  Result<void> run(const Subgraph& subgraph, RunOperands& operands, bool topLevel) {
    for (size_t i = 0; i < subgraph.operations.size(); ++i) {
      const Operation& operation = subgraph.operations[i];
      ANNRT_RETURN_IF_ERROR(checkDeadline());
      const auto begin = Clock::now();
      ANNRT_RETURN_IF_ERROR(runOperation(subgraph, operation, operands));
      if (topLevel && timer_) {
        timer_->record(static_cast<uint32_t>(i), elapsedNs(begin));
      }
      releaseInputs(subgraph, operation, operands);
    }
    return {};
  }

 private:
  static uint64_t elapsedNs(Clock::time_point begin) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - begin).count();
  }

  Result<void> checkDeadline() const {
    ANNRT_CHECK_CODE(ErrorCode::MISSED_DEADLINE_TRANSIENT,
                     !options_.deadline || Clock::now() < *options_.deadline,
                     "the execution deadline passed");
    return {};
  }

  // Frees temporaries once their last reader has run.
  static void releaseInputs(const Subgraph& subgraph, const Operation& operation,
                            RunOperands& operands) {
    for (uint32_t index : operation.inputs) {
      RunOperand& operand = operands[index];
      if (operand.remainingReads > 0 && --operand.remainingReads == 0 &&
          subgraph.operands[index].lifetime == Lifetime::TEMPORARY_VARIABLE) {
        operand.storage.reset();
        operand.data = nullptr;
      }
    }
  }

  Result<void> runOperation(const Subgraph& subgraph, const Operation& operation,
                            RunOperands& operands) {
    if (operation.type == OperationType::IF) return runIf(subgraph, operation, operands);
    if (operation.type == OperationType::WHILE) return runWhile(subgraph, operation, operands);
    const ops::OperationRegistration* registration =
        ops::findModelOperation(model_.extensions, operation.type);
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, registration != nullptr,
                     "operation {} has no reference implementation",
                     operationTypeName(operation.type));
    ANNRT_RETURN_IF_ERROR(checkInputs(*registration, operation, operands));
    OperationContext context(operation, operands, model_.relaxComputationFloat32toFloat16);
    for (uint32_t index : operation.outputs) operands[index].written = false;
    if (auto prepared = registration->prepare(context); !prepared.ok()) {
      return annotate(prepared.takeError(), registration->name);
    }
    bool zeroSized = false;
    for (uint32_t index : operation.outputs) {
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, operands[index].written,
                       "{} did not compute the shape of an output", registration->name);
      zeroSized |= elementCount(operands[index].shape) == 0;
    }
    if (zeroSized) return {};
    if (auto executed = registration->execute(context); !executed.ok()) {
      return annotate(executed.takeError(), registration->name);
    }
    return {};
  }

  static Error annotate(Error error, const char* name) {
    error.message = fmt::format("{}: {}", name, error.message);
    return error;
  }

  static Result<void> checkInputs(const ops::OperationRegistration& registration,
                                  const Operation& operation, const RunOperands& operands) {
    for (size_t k = 0; k < operation.inputs.size(); ++k) {
      const uint32_t index = operation.inputs[k];
      const RunOperand& operand = operands[index];
      if (operand.omitted) {
        // The optional inputs NNAPI has are weights, biases, states, a
        // permutation or a shape: never an operation's first, the data.
        ANNRT_CHECK(registration.allowOmittedOperand && k != 0,
                    "{} does not accept an omitted input {}", registration.name, k);
        continue;
      }
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, operand.written && operand.data != nullptr,
                       "{} reads operand {} before it has a value", registration.name, index);
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                       registration.allowZeroSizedInput || !isTensorType(operand.shape.type) ||
                           elementCount(operand.shape) != 0,
                       "{} does not support zero-sized input operand {}", registration.name, index);
    }
    return {};
  }

  // The subgraph a SUBGRAPH operand of `outer` refers to.
  const Subgraph& referenced(const Subgraph& outer, uint32_t operandIndex) const {
    return model_.referenced[outer.operands[operandIndex].location.offset];
  }

  // Runs a referenced subgraph on the given input views; returns its operands.
  Result<RunOperands> runReferenced(const Subgraph& subgraph,
                                    const std::vector<const RunOperand*>& inputs) {
    ANNRT_CHECK(inputs.size() == subgraph.inputIndexes.size(), "subgraph takes {} inputs, given {}",
                subgraph.inputIndexes.size(), inputs.size());
    RunOperands operands = initOperands(subgraph);
    for (size_t i = 0; i < inputs.size(); ++i) {
      RunOperand& inner = operands[subgraph.inputIndexes[i]];
      const RunOperand& outer = *inputs[i];
      ANNRT_RETURN_IF_ERROR(checkCompatible(inner.declared, outer.shape.dims));
      inner.shape.dims = outer.shape.dims;
      inner.data = outer.data;
      inner.capacity = outer.capacity;
      inner.omitted = outer.omitted;
      inner.written = true;
    }
    ANNRT_RETURN_IF_ERROR(run(subgraph, operands, /*topLevel=*/false));
    for (uint32_t index : subgraph.outputIndexes) {
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, operands[index].written,
                       "subgraph output {} was never computed", index);
    }
    return operands;
  }

  // Copies a computed value into an operand of the enclosing subgraph.
  static Result<void> copyInto(RunOperand& destination, const RunOperand& source) {
    ANNRT_RETURN_IF_ERROR(setRunShape(destination, source.shape.dims));
    const size_t bytes = byteSize(source.shape);
    // A WHILE that loops no time passes its inputs on as they came, and an
    // omitted model input has no data (fuzz_abi_model).
    ANNRT_CHECK(bytes == 0 || source.data != nullptr,
                "a control flow operation passes on a value that was omitted");
    if (bytes > 0) std::memcpy(destination.data, source.data, bytes);
    return {};
  }

  std::vector<const RunOperand*> views(const Operation& operation, size_t first,
                                       const RunOperands& operands) const {
    std::vector<const RunOperand*> result;
    for (size_t i = first; i < operation.inputs.size(); ++i) {
      result.push_back(&operands[operation.inputs[i]]);
    }
    return result;
  }

  Result<void> runIf(const Subgraph& outer, const Operation& operation, RunOperands& operands) {
    ANNRT_CHECK(operation.inputs.size() >= 3, "IF needs a condition and two branches");
    const RunOperand& condition = operands[operation.inputs[0]];
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, condition.data != nullptr, "IF condition has no value");
    const size_t branchInput = condition.data[0] ? 1 : 2;
    const Subgraph& branch = referenced(outer, operation.inputs[branchInput]);
    ANNRT_ASSIGN_OR_RETURN(RunOperands inner, runReferenced(branch, views(operation, 3, operands)));
    ANNRT_CHECK(branch.outputIndexes.size() == operation.outputs.size(),
                "IF branch has {} outputs, the operation {}", branch.outputIndexes.size(),
                operation.outputs.size());
    for (size_t i = 0; i < operation.outputs.size(); ++i) {
      ANNRT_RETURN_IF_ERROR(
          copyInto(operands[operation.outputs[i]], inner[branch.outputIndexes[i]]));
    }
    return {};
  }

  Result<void> runWhile(const Subgraph& outer, const Operation& operation, RunOperands& operands) {
    ANNRT_CHECK(operation.inputs.size() >= 3, "WHILE needs a condition, a body and inputs");
    const Subgraph& condition = referenced(outer, operation.inputs[0]);
    const Subgraph& body = referenced(outer, operation.inputs[1]);
    const size_t outputCount = operation.outputs.size();
    const size_t carried = body.outputIndexes.size();  // input-output + state-only
    std::vector<const RunOperand*> state = views(operation, 2, operands);
    ANNRT_CHECK(carried >= outputCount && carried <= state.size(),
                "WHILE body has {} outputs for {} loop inputs and {} outputs", carried,
                state.size(), outputCount);
    RunOperands carriedValues;  // owns the values of the latest iteration
    const auto loopStart = Clock::now();
    while (true) {
      ANNRT_CHECK_CODE(
          ErrorCode::MISSED_DEADLINE_TRANSIENT, elapsedNs(loopStart) <= options_.loopTimeoutNs,
          "WHILE loop ran longer than the loop timeout of {} ns", options_.loopTimeoutNs);
      ANNRT_RETURN_IF_ERROR(checkDeadline());
      ANNRT_ASSIGN_OR_RETURN(RunOperands tested, runReferenced(condition, state));
      ANNRT_CHECK(condition.outputIndexes.size() == 1, "WHILE condition must have one output");
      const RunOperand& verdict = tested[condition.outputIndexes[0]];
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, verdict.data != nullptr,
                       "WHILE condition produced no value");
      if (!verdict.data[0]) break;
      ANNRT_ASSIGN_OR_RETURN(RunOperands next, runReferenced(body, state));
      RunOperands nextValues(carried);
      for (size_t i = 0; i < carried; ++i) {
        nextValues[i] = std::move(next[body.outputIndexes[i]]);
        state[i] = &nextValues[i];
      }
      carriedValues = std::move(nextValues);
    }
    for (size_t i = 0; i < outputCount; ++i) {
      ANNRT_RETURN_IF_ERROR(copyInto(operands[operation.outputs[i]], *state[i]));
    }
    return {};
  }

  const Model& model_;
  const ExecutionOptions& options_;
  OperationTimer* timer_;
};

}  // namespace

ExecutionOutcome executeModel(const Model& model, const Request& request,
                              const ExecutionOptions& options, OperationTimer* timer) {
  const auto start = Clock::now();
  Interpreter interpreter(model, options, timer);
  const Subgraph& main = model.main;
  RunOperands operands = interpreter.initOperands(main);
  ExecutionOutcome outcome;
  for (size_t i = 0; i < main.inputIndexes.size(); ++i) {
    RunOperand& operand = operands[main.inputIndexes[i]];
    const RequestArgument& argument = request.inputs[i];
    operand.omitted = argument.omitted;
    operand.written = true;
    operand.data = argument.data;
    operand.capacity = argument.length;
    if (!argument.dims.empty()) operand.shape.dims = argument.dims;
  }
  for (size_t i = 0; i < main.outputIndexes.size(); ++i) {
    RunOperand& operand = operands[main.outputIndexes[i]];
    const RequestArgument& argument = request.outputs[i];
    operand.external = true;
    operand.data = argument.data;
    operand.capacity = argument.length;
    if (!argument.dims.empty()) operand.declared = argument.dims;
  }
  Result<void> ran = interpreter.run(main, operands, /*topLevel=*/true);
  if (!ran.ok()) {
    outcome.status = ran.error().code;
    outcome.message = ran.error().message;
  }
  for (uint32_t index : main.outputIndexes) {
    const RunOperand& operand = operands[index];
    outcome.outputShapes.push_back({operand.shape.dims, !operand.insufficient});
  }
  if (options.measureTiming) {
    const uint64_t ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    outcome.timing = {ns, ns};
  }
  return outcome;
}

}  // namespace annrt::reference
