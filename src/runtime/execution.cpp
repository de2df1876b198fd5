// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/execution.h"

#include <algorithm>
#include <new>

#include "common/log.h"
#include "common/model_limits.h"
#include "ops/operand_validation.h"
#include "runtime/device_manager.h"
#include "runtime/loop_timeout.h"
#include "runtime/trace.h"

namespace annrt::runtime {
namespace {

bool fullySpecified(OperandType type, const std::vector<uint32_t>& dims) {
  if (!isTensorType(type)) return true;
  return !dims.empty() && std::none_of(dims.begin(), dims.end(), [](uint32_t d) { return d == 0; });
}

Shape withDims(Shape shape, std::vector<uint32_t> dims) {
  shape.dims = std::move(dims);
  return shape;
}

// Dims agree where both know them (either may have unknown rank).
bool compatibleDims(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.empty() || b.empty()) return true;
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != 0 && b[i] != 0 && a[i] != b[i]) return false;
  }
  return true;
}

// Whether the known dims of a tensor of `type` make at most 2^32 - 1 bytes.
bool fitsUint32(OperandType type, const std::vector<uint32_t>& dims) {
  uint64_t size = std::max<uint64_t>(elementSize(type), 1);
  for (uint32_t d : dims) {
    if (d == 0) continue;
    size *= d;
    if (size > UINT32_MAX) return false;
  }
  return true;
}

// As AOSP's checkDimensionInfo (ExecutionBuilder.cpp): the type given with an
// argument is validated on its own and may only fill in dims the model left
// unknown. Its code and quantization are not compared with the model's
// operand (PyTorch passes other scales), whose type sizes the data.
Result<std::vector<uint32_t>> refineDims(const Shape& model, const ANeuralNetworksOperandType& type,
                                         bool allowUnspecified) {
  const bool extension = isExtensionCode(static_cast<int32_t>(model.type));
  ANNRT_CHECK(isExtensionCode(type.type) == extension,
              "type {} is {}an extension type, the model's {} is {}", type.type,
              extension ? "not " : "", static_cast<int32_t>(model.type), extension ? "" : "not");
  ANNRT_ASSIGN_OR_RETURN(Shape given, ops::validateOperandType(type, extension));
  if (!extension && isTensorType(given.type)) {
    ANNRT_CHECK(allowUnspecified || !hasUnknownDims(given), "dimensions {} are not fully specified",
                toString(given.dims));
    ANNRT_CHECK(fitsUint32(given.type, given.dims), "dimensions {} of {} exceed 2^32 - 1 bytes",
                toString(given.dims), operandTypeName(given.type));
  }
  if (model.dims.empty()) {
    // A scalar keeps no dims whatever the type says (AOSP ignores them too).
    return isTensorType(model.type) || extension ? given.dims : model.dims;
  }
  ANNRT_CHECK(given.dims.size() == model.dims.size(), "rank {} differs from the model's {}",
              given.dims.size(), model.dims.size());
  for (size_t i = 0; i < given.dims.size(); ++i) {
    ANNRT_CHECK(model.dims[i] == 0 || model.dims[i] == given.dims[i],
                "dimension {} is {}, the model fixes it to {}", i, given.dims[i], model.dims[i]);
  }
  return given.dims;
}

}  // namespace

Execution::Execution(std::shared_ptr<const Compilation> compilation)
    : compilation_(std::move(compilation)),
      inputs_(compilation_->model().main.inputIndexes.size()),
      outputs_(compilation_->model().main.outputIndexes.size()),
      loopTimeoutNs_(kDefaultLoopTimeoutNs) {}

Result<void> Execution::checkPreparation() const {
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, state_ == State::PREPARATION,
                   "the execution can no longer be modified (it has been computed)");
  return {};
}

Result<Execution::Argument*> Execution::argumentAt(bool isInput, int32_t index) {
  auto& arguments = isInput ? inputs_ : outputs_;
  ANNRT_CHECK(index >= 0 && static_cast<size_t>(index) < arguments.size(),
              "{} index {} out of range (the model has {})", isInput ? "input" : "output", index,
              arguments.size());
  return &arguments[index];
}

Result<void> Execution::checkUnset(const Argument& argument, bool isInput, int32_t index) const {
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, argument.kind == Argument::Kind::UNSET,
                   "{} {} has already been set", isInput ? "input" : "output", index);
  return {};
}

Result<std::vector<uint32_t>> Execution::argumentDims(bool isInput, int32_t index,
                                                      const ANeuralNetworksOperandType* type,
                                                      bool allowUnspecified) const {
  ANNRT_ASSIGN_OR_RETURN(const Operand* operand, compilation_->ioOperand(index, isInput));
  const Shape& model = operand->shape;
  if (type == nullptr) {
    ANNRT_CHECK(allowUnspecified || !isTensorType(model.type) || !hasUnknownDims(model),
                "{} {} has unspecified dimensions {}: give them in the operand type",
                isInput ? "input" : "output", index, toString(model.dims));
    return model.dims;
  }
  return refineDims(model, *type, allowUnspecified);
}

Result<void> Execution::checkLength(const Shape& shape, const std::vector<uint32_t>& dims,
                                    size_t length) const {
  // As AOSP's ModelArgumentInfo: the model's type sizes the data; dims not all
  // known yet (outputs) leave the length unchecked.
  const size_t needed = fullySpecified(shape.type, dims) ? byteSize(withDims(shape, dims)) : 0;
  ANNRT_CHECK(needed <= length, "shape {} needs {} bytes, given {}", toString(dims), needed,
              length);
  ANNRT_CHECK(paddingEnabled_ || needed == 0 || length == needed,
              "{} bytes given for shape {} of {} bytes: padding is not enabled", length,
              toString(dims), needed);
  return {};
}

Result<void> Execution::setArgument(bool isInput, int32_t index,
                                    const ANeuralNetworksOperandType* type, const void* buffer,
                                    size_t length) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  ANNRT_ASSIGN_OR_RETURN(Argument * argument, argumentAt(isInput, index));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> dims,
                         argumentDims(isInput, index, type, !isInput || buffer == nullptr));
  ANNRT_CHECK(length <= UINT32_MAX, "length {} exceeds 2^32 - 1 bytes", length);
  ANNRT_RETURN_IF_ERROR(checkUnset(*argument, isInput, index));
  ANNRT_CHECK((buffer == nullptr) == (length == 0),
              "a buffer must be null exactly when its length is 0 (length {})", length);
  Argument next;
  next.dims = std::move(dims);
  if (buffer == nullptr) {
    next.kind = Argument::Kind::OMITTED;
  } else {
    const Shape& shape = compilation_->ioOperand(index, isInput).value()->shape;
    ANNRT_RETURN_IF_ERROR(checkLength(shape, next.dims, length));
    next.kind = Argument::Kind::POINTER;
    next.buffer = static_cast<uint8_t*>(const_cast<void*>(buffer));
    next.length = length;
  }
  *argument = std::move(next);
  anyArgumentSet_ = true;
  return {};
}

Result<void> Execution::checkMemoryRange(const Memory& memory, bool isInput, int32_t index,
                                         const ANeuralNetworksOperandType* type, size_t offset,
                                         size_t length) const {
  const MemoryDescription* description = memory.description();
  if (description == nullptr) {
    ANNRT_CHECK(offset <= memory.size() && length <= memory.size() - offset,
                "range [{}, {}) exceeds the memory's {} bytes", offset, offset + length,
                memory.size());
    ANNRT_CHECK(offset != 0 || length != 0,
                "offset 0 and length 0 take a whole memory only for memories from a MemoryDesc");
    return {};
  }
  ANNRT_CHECK(memory.hasRole(compilation_.get(), index, isInput),
              "the memory was not described with this compilation's {} {}",
              isInput ? "input" : "output", index);
  ANNRT_CHECK(offset == 0 && length == 0,
              "a memory from a MemoryDesc takes offset 0 and length 0, given {} and {}", offset,
              length);
  if (type == nullptr) return {};
  ANNRT_CHECK(isTensorType(description->shape.type) || type->dimensionCount == 0,
              "the memory holds a scalar, but the operand type has {} dimensions",
              type->dimensionCount);
  ANNRT_CHECK(type->dimensionCount <= limits::kMaxRank, "rank {} is over annrt's limit of {}",
              type->dimensionCount, limits::kMaxRank);
  const std::vector<uint32_t> dims(type->dimensions, type->dimensions + type->dimensionCount);
  ANNRT_CHECK(compatibleDims(dims, description->shape.dims),
              "dimensions {} are incompatible with the memory's {}", toString(dims),
              toString(description->shape.dims));
  return {};
}

Result<void> Execution::setArgumentFromMemory(bool isInput, int32_t index,
                                              const ANeuralNetworksOperandType* type,
                                              std::shared_ptr<Memory> memory, size_t offset,
                                              size_t length) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  ANNRT_ASSIGN_OR_RETURN(Argument * argument, argumentAt(isInput, index));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> dims, argumentDims(isInput, index, type, !isInput));
  ANNRT_RETURN_IF_ERROR(checkMemoryRange(*memory, isInput, index, type, offset, length));
  // annrt is stricter than AOSP here: a mapping the computation cannot read or
  // write would fault in the device, so it is refused up front.
  ANNRT_CHECK(!isInput || memory->isReadable(),
              "input {}: the memory was created without PROT_READ", index);
  ANNRT_CHECK(isInput || memory->isWritable(),
              "output {}: the memory was created without PROT_WRITE", index);
  ANNRT_RETURN_IF_ERROR(checkUnset(*argument, isInput, index));
  if (memory->description() == nullptr) {
    const Shape& shape = compilation_->ioOperand(index, isInput).value()->shape;
    ANNRT_RETURN_IF_ERROR(checkLength(shape, dims, length));
  }
  Argument next;
  next.kind = Argument::Kind::MEMORY;
  next.memory = std::move(memory);
  next.offset = offset;
  next.length = length;
  next.dims = std::move(dims);
  *argument = std::move(next);
  anyArgumentSet_ = true;
  return {};
}

Result<void> Execution::setMeasureTiming(bool measure) {
  std::lock_guard<std::mutex> lock(mutex_);
  // AOSP checks the compilation before the state.
  ANNRT_CHECK(compilation_->isSingleExplicitDevice(),
              "timing needs a compilation created by createForDevices with one device");
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  measureTiming_ = measure;
  return {};
}

Result<void> Execution::setTimeout(uint64_t durationNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK(compilation_->isSingleExplicitDevice(),
              "a timeout needs a compilation created by createForDevices with one device");
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  timeoutNs_ = durationNs == 0 ? std::nullopt : std::optional<uint64_t>(durationNs);
  return {};
}

Result<void> Execution::setLoopTimeout(uint64_t durationNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  if (durationNs > kMaximumLoopTimeoutNs) {
    logWarning("loop timeout {} ns capped to the maximum {} ns", durationNs, kMaximumLoopTimeoutNs);
  }
  loopTimeoutNs_ = std::min(durationNs, kMaximumLoopTimeoutNs);
  return {};
}

Result<void> Execution::setReusable(bool reusable) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  reusable_ = reusable;
  return {};
}

Result<void> Execution::addExtensionAttribute(std::string_view extension) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK(compilation_->isSingleExplicitDevice(),
              "attributes need a compilation created by createForDevices with one device");
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  return makeError(ErrorCode::BAD_DATA, "no device supports execution attributes of extension {}",
                   extension);
}

Result<void> Execution::enableInputAndOutputPadding(bool enable) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_RETURN_IF_ERROR(checkPreparation());
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, !anyArgumentSet_,
                   "padding must be enabled before any input or output is set");
  paddingEnabled_ = enable;
  return {};
}

Result<void> Execution::checkArguments(bool fenced, uint64_t fencedDurationNs) const {
  for (size_t i = 0; i < inputs_.size(); ++i) {
    ANNRT_CHECK(inputs_[i].kind != Argument::Kind::UNSET, "input {} is not set", i);
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    ANNRT_CHECK(outputs_[i].kind != Argument::Kind::UNSET, "output {} is not set", i);
  }
  if (!fenced) return {};
  ANNRT_CHECK(fencedDurationNs == 0 || compilation_->isSingleExplicitDevice(),
              "a duration needs a compilation created by createForDevices with one device");
  for (size_t i = 0; i < outputs_.size(); ++i) {
    // A fenced computation cannot report a larger output shape.
    const Shape& shape = compilation_->ioOperand(i, false).value()->shape;
    ANNRT_CHECK(
        outputs_[i].kind == Argument::Kind::OMITTED || fullySpecified(shape.type, outputs_[i].dims),
        "output {} has unspecified dimensions {}, which a fenced computation does not "
        "allow",
        i, toString(outputs_[i].dims));
  }
  return {};
}

Result<void> Execution::beginComputation(bool fenced, uint64_t fencedDurationNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, state_ != State::COMPUTATION,
                   "the execution is already computing");
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, state_ == State::PREPARATION || reusable_,
                   "the execution has been computed and is not reusable");
  // As AOSP's prepareForCompute: a request that fails these checks completes
  // the computation with the error, so the execution is no longer modifiable.
  auto checked = checkArguments(fenced, fencedDurationNs);
  if (!checked.ok()) {
    lastStatus_ = checked.error().code;
    outputShapes_.clear();
    timing_ = {};
    lastWasFenced_ = fenced;
    state_ = State::COMPLETED;
    return checked;
  }
  state_ = State::COMPUTATION;
  return {};
}

Result<Request> Execution::buildRequest() {
  Request request;
  auto resolve = [&](const Argument& argument, bool isInput,
                     size_t index) -> Result<RequestArgument> {
    RequestArgument resolved;
    resolved.dims = argument.dims;
    switch (argument.kind) {
      case Argument::Kind::OMITTED: resolved.omitted = true; break;
      case Argument::Kind::POINTER:
        resolved.data = argument.buffer;
        resolved.length = argument.length;
        break;
      case Argument::Kind::MEMORY:
        if (argument.memory->description() != nullptr) {
          ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, !isInput || argument.memory->isInitialized(),
                           "input {} reads a device memory that holds no data yet", index);
          const auto dims = argument.memory->dimensions();
          // As AOSP's validateInputDimensions, at every computation: the
          // memory's dims may have changed since it was bound.
          ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, !isInput || dims == argument.dims,
                           "input {} has dimensions {}, its device memory holds {}", index,
                           toString(argument.dims), toString(dims));
          if (!dims.empty()) resolved.dims = dims;
          resolved.data = argument.memory->data();
          resolved.length = argument.memory->size();
        } else {
          resolved.data = argument.memory->data() + argument.offset;
          resolved.length = argument.length;
          if (argument.memory->fd() >= 0) {
            resolved.fd = argument.memory->fd();
            resolved.fdOffset = argument.memory->fdOffset() + argument.offset;
          }
        }
        break;
      case Argument::Kind::UNSET:
        return makeError(ErrorCode::BAD_DATA, "{} {} is not set", isInput ? "input" : "output",
                         index);
    }
    return resolved;
  };
  for (size_t i = 0; i < inputs_.size(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(auto argument, resolve(inputs_[i], true, i));
    request.inputs.push_back(std::move(argument));
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(auto argument, resolve(outputs_[i], false, i));
    request.outputs.push_back(std::move(argument));
  }
  return request;
}

ExecutionOutcome Execution::run(std::optional<Clock::time_point> deadline) {
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::EXECUTION, "execute");
  auto built = [&] {
    TraceSpan io(TraceLayer::RUNTIME, TracePhase::INPUT_OUTPUT, "bind inputs and outputs");
    return buildRequest();
  }();
  if (!built.ok()) return {built.error().code, built.error().message, {}, {}, {}};
  Request request = std::move(built).value();
  ExecutionOptions options;
  options.measureTiming = measureTiming_;
  options.deadline = deadline;
  options.loopTimeoutNs = loopTimeoutNs_;
  options.profileOperations = DeviceManager::get().telemetry().profilingEnabled();
  ExecutionOutcome outcome = compilation_->planFor(request)->execute(request, options);
  // Device memories of unspecified size grow to what the model produced.
  if (outcome.status == ErrorCode::OUTPUT_INSUFFICIENT_SIZE) {
    bool resized = false;
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const auto& memory = outputs_[i].memory;
      if (memory && memory->description() && !outcome.outputShapes[i].isSufficient) {
        resized |= memory->resize(outcome.outputShapes[i].dims).ok();
      }
    }
    if (resized) return run(deadline);
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const auto& memory = outputs_[i].memory;
    if (!memory || !memory->description()) continue;
    const bool ok = outcome.status == ErrorCode::NO_ERROR;
    if (ok && memory->dimensions() != outcome.outputShapes[i].dims) {
      (void)memory->resize(outcome.outputShapes[i].dims);
    }
    memory->setInitialized(ok);
  }
  return outcome;
}

ExecutionOutcome Execution::runCatchingOutOfMemory(std::optional<Clock::time_point> deadline) {
  // An allocation failing below (a device's buffers, the request) must end
  // the computation with OUT_OF_MEMORY: on an event's thread nothing else
  // would catch it, and the execution would stay in the computation state.
  try {
    return run(deadline);
  } catch (const std::bad_alloc&) {
    return {ErrorCode::OUT_OF_MEMORY, "out of memory during the computation", {}, {}, {}};
  }
}

void Execution::endComputation(ExecutionOutcome outcome, bool fenced) {
  if (outcome.status != ErrorCode::NO_ERROR) {
    logError("execution failed with {}: {}", errorCodeName(outcome.status), outcome.message);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  lastStatus_ = outcome.status;
  outputShapes_ = std::move(outcome.outputShapes);
  timing_ = outcome.timing;
  lastWasFenced_ = fenced;
  state_ = State::COMPLETED;
}

Result<void> Execution::compute() {
  ANNRT_RETURN_IF_ERROR(beginComputation(false, 0));
  std::optional<Clock::time_point> deadline;
  if (timeoutNs_) deadline = deadlineAfter(*timeoutNs_);
  ExecutionOutcome outcome = runCatchingOutOfMemory(deadline);
  const ErrorCode status = outcome.status;
  std::string message = outcome.message;
  endComputation(std::move(outcome), false);
  if (status != ErrorCode::NO_ERROR) return Error{status, message};
  return {};
}

Result<std::unique_ptr<Event>> Execution::startCompute(
    const std::vector<const Event*>& dependencies, uint64_t durationAfterDependenciesNs,
    bool fenced) {
  ANNRT_RETURN_IF_ERROR(beginComputation(fenced, durationAfterDependenciesNs));
  auto self = shared_from_this();
  // The application may free the dependency events once this returns.
  std::vector<std::function<ErrorCode()>> waiters;
  waiters.reserve(dependencies.size());
  for (const Event* dependency : dependencies) waiters.push_back(dependency->waiter());
  auto work = [self, waiters = std::move(waiters), durationAfterDependenciesNs, fenced]() {
    for (const auto& wait : waiters) {
      if (wait() != ErrorCode::NO_ERROR) {
        self->endComputation({ErrorCode::OP_FAILED, "a dependency failed", {}, {}, {}}, fenced);
        return ErrorCode::OP_FAILED;
      }
    }
    std::optional<Clock::time_point> deadline;
    const auto now = Clock::now();
    if (self->timeoutNs_) deadline = deadlineAfter(*self->timeoutNs_, now);
    if (durationAfterDependenciesNs != 0) {
      const auto limit = deadlineAfter(durationAfterDependenciesNs, now);
      deadline = deadline ? std::min(*deadline, limit) : limit;
    }
    ExecutionOutcome outcome = self->runCatchingOutOfMemory(deadline);
    const ErrorCode status = outcome.status;
    self->endComputation(std::move(outcome), fenced);
    return status;
  };
  auto event = Event::start(std::move(work), fenced);
  if (!event.ok()) {
    std::lock_guard<std::mutex> lock(mutex_);
    state_ = State::PREPARATION;
  }
  return event;
}

Result<OutputShape> Execution::outputShape(int32_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, state_ == State::COMPLETED,
                   "output shapes are only known after a computation");
  ANNRT_CHECK_CODE(
      ErrorCode::BAD_STATE,
      lastStatus_ == ErrorCode::NO_ERROR || lastStatus_ == ErrorCode::OUTPUT_INSUFFICIENT_SIZE,
      "the last computation failed with {}", errorCodeName(lastStatus_));
  ANNRT_CHECK(index >= 0 && static_cast<size_t>(index) < outputShapes_.size(),
              "output index {} out of range (the model has {})", index, outputShapes_.size());
  return outputShapes_[index];
}

Result<uint64_t> Execution::duration(int32_t durationCode) const {
  ANNRT_CHECK(durationCode >= ANEURALNETWORKS_DURATION_ON_HARDWARE &&
                  durationCode <= ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER,
              "unknown duration code {}", durationCode);
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, state_ == State::COMPLETED,
                   "durations are only known after a computation");
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, lastStatus_ == ErrorCode::NO_ERROR,
                   "the last computation failed with {}", errorCodeName(lastStatus_));
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, measureTiming_,
                   "timing was not requested with setMeasureTiming");
  // Without dependencies the fenced durations are the plain ones (NNAPI's
  // DurationCode): the runtime measures a fenced computation once its
  // dependencies are signalled, so both pairs are the same measurement.
  const bool onHardware = durationCode == 0 || durationCode == 2;
  return onHardware ? timing_.onDeviceNs : timing_.inDriverNs;
}

}  // namespace annrt::runtime
