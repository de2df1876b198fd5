// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/execution_plan.h"

#include <algorithm>
#include <unordered_map>

#include "common/log.h"
#include "runtime/device_manager.h"
#include "runtime/trace.h"

namespace annrt::runtime {
namespace {

// A tensor passed between steps.
struct BoundaryBuffer {
  std::unique_ptr<uint8_t[]> data;
  size_t size = 0;
  std::vector<uint32_t> dims;
};

Result<void> allocate(BoundaryBuffer& buffer, const Shape& shape) {
  const size_t bytes = hasUnknownDims(shape) ? 0 : byteSize(shape);
  buffer.data.reset(new (std::nothrow) uint8_t[std::max<size_t>(bytes, 1)]);
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, buffer.data != nullptr,
                   "cannot allocate {} bytes between steps", bytes);
  buffer.size = bytes;
  buffer.dims = shape.dims;
  return {};
}

ExecutionOutcome failure(const Error& error) {
  return {error.code, error.message, {}, {}, {}};
}

// A temporary no operation reads: its producer still runs, so it needs a buffer.
bool hasUnreadTemporaries(const Model& model) {
  return std::any_of(
      model.main.operands.begin(), model.main.operands.end(), [](const Operand& operand) {
        return operand.lifetime == Lifetime::TEMPORARY_VARIABLE && operand.consumers == 0;
      });
}

// A step of every operation is given the model itself, unless the model has
// unread temporaries: devices compute into every operation's output, and XNNPACK
// plans no memory for a value nothing reads, so those become step outputs in
// buffers of the plan (as AOSP accepts models whose results are not all read).
bool isWholeModel(const Model& model, const std::vector<uint32_t>& operations) {
  return operations.size() == model.main.operations.size() && !hasUnreadTemporaries(model);
}

}  // namespace

Result<std::shared_ptr<ExecutionPlan>> ExecutionPlan::create(
    const std::shared_ptr<const Model>& model, const PartitionPlan& partition,
    std::shared_ptr<Device> cpu, const PrepareOptions& options,
    std::shared_ptr<const PartitionCache> cache) {
  std::shared_ptr<ExecutionPlan> plan(
      new ExecutionPlan(model, std::move(cpu), options, std::move(cache)));
  const size_t operandCount = model->main.operands.size();
  std::vector<int> stepOf(model->main.operations.size(), -1);
  for (size_t s = 0; s < partition.steps.size(); ++s) {
    for (uint32_t op : partition.steps[s].operations) stepOf[op] = static_cast<int>(s);
  }
  for (size_t s = 0; s < partition.steps.size(); ++s) {
    auto step = std::make_unique<Step>();
    step->device = partition.steps[s].device;
    step->operations = partition.steps[s].operations;
    if (isWholeModel(*model, step->operations)) {
      step->submodel = {model, model->main.inputIndexes, model->main.outputIndexes};
    } else {
      std::vector<bool> readOutside(operandCount, false);
      for (size_t op = 0; op < model->main.operations.size(); ++op) {
        if (stepOf[op] == static_cast<int>(s)) continue;
        for (uint32_t in : model->main.operations[op].inputs) readOutside[in] = true;
      }
      step->submodel = extractSubmodel(*model, step->operations,
                                       [&](uint32_t operand) { return readOutside[operand]; });
    }
    ANNRT_RETURN_IF_ERROR(plan->prepareStep(*step));
    plan->steps_.push_back(std::move(step));
  }
  return plan;
}

Result<void> ExecutionPlan::prepareStep(Step& step) {
  TraceSpan span(TraceLayer::DRIVER, TracePhase::COMPILATION, "prepareModel");
  auto prepared =
      cache_ ? cache_->prepare(*step.device, step.submodel.model, step.operations, options_)
             : step.device->prepareModel(step.submodel.model, options_);
  if (prepared.ok()) {
    step.prepared = std::move(prepared).value();
    return {};
  }
  if (!canFallBack(*step.device, prepared.error().code)) return prepared.takeError();
  logWarning("compiling a partition of {} operations on {} failed ({}); retrying on {}",
             step.operations.size(), step.device->name(), prepared.error().message, cpu_->name());
  noteFallback(*step.device);
  ANNRT_ASSIGN_OR_RETURN(step.prepared, cpu_->prepareModel(step.submodel.model, options_));
  step.device = cpu_;
  return {};
}

bool ExecutionPlan::canFallBack(const Device& failed, ErrorCode status) const {
  return cpu_ != nullptr && &failed != cpu_.get() &&
         status != ErrorCode::OUTPUT_INSUFFICIENT_SIZE &&
         status != ErrorCode::MISSED_DEADLINE_TRANSIENT &&
         status != ErrorCode::MISSED_DEADLINE_PERSISTENT;
}

Result<std::shared_ptr<PreparedModel>> ExecutionPlan::preparedOnCpu(
    std::mutex& mutex, std::shared_ptr<PreparedModel>& slot, std::shared_ptr<const Model> model) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!slot) {
    ANNRT_ASSIGN_OR_RETURN(slot, cpu_->prepareModel(std::move(model), options_));
    DeviceManager::get().telemetry().countCompilation(cpu_->name());
  }
  return slot;
}

// A device may only call an output too small when the dims it reports need
// more bytes than the buffer has; anything else is a device failure.
Result<void> checkInsufficientClaims(const Model& model, const Request& request,
                                     const ExecutionOutcome& outcome) {
  if (outcome.status != ErrorCode::OUTPUT_INSUFFICIENT_SIZE) return {};
  bool anyInsufficient = false;
  for (size_t i = 0; i < outcome.outputShapes.size() && i < request.outputs.size(); ++i) {
    if (outcome.outputShapes[i].isSufficient) continue;
    anyInsufficient = true;
    Shape shape = model.main.operands[model.main.outputIndexes[i]].shape;
    shape.dims = outcome.outputShapes[i].dims;
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                     !hasUnknownDims(shape) && byteSize(shape) > request.outputs[i].length,
                     "the device called output {} too small, but {} bytes fit its dims {}", i,
                     request.outputs[i].length, toString(shape.dims));
  }
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, anyInsufficient,
                   "the device returned OUTPUT_INSUFFICIENT_SIZE for no output");
  return {};
}

ExecutionOutcome ExecutionPlan::runStep(Step& step, const Request& request,
                                        const ExecutionOptions& options) {
  TraceSpan span(TraceLayer::DRIVER, TracePhase::COMPUTE, "execute");
  ExecutionOutcome outcome = step.prepared->execute(request, options);
  if (auto honest = checkInsufficientClaims(*step.submodel.model, request, outcome); !honest.ok()) {
    outcome.status = honest.error().code;
    outcome.message = honest.error().message;
  }
  if (outcome.status == ErrorCode::NO_ERROR) {
    countInference(*step.device);
    return outcome;
  }
  if (!canFallBack(*step.device, outcome.status)) return outcome;
  logWarning("a partition of {} operations failed on {} ({}: {}); retrying on {}",
             step.operations.size(), step.device->name(), errorCodeName(outcome.status),
             outcome.message, cpu_->name());
  noteFallback(*step.device);
  auto fallback = preparedOnCpu(step.fallbackMutex, step.fallback, step.submodel.model);
  if (!fallback.ok()) return failure(fallback.error());
  return executeOnCpu(**fallback, request, options);
}

// Counters name the device that really ran, so fallbacks show up as CPU work.
ExecutionOutcome ExecutionPlan::executeOnCpu(PreparedModel& prepared, const Request& request,
                                             const ExecutionOptions& options) {
  ExecutionOutcome outcome = prepared.execute(request, options);
  if (outcome.status == ErrorCode::NO_ERROR) countInference(*cpu_);
  return outcome;
}

void ExecutionPlan::countInference(const Device& device) {
  DeviceManager::get().telemetry().countInference(device.name());
}

ExecutionOutcome ExecutionPlan::runWholeOnCpu(const Request& request,
                                              const ExecutionOptions& options) {
  noteFallback(*steps_.front()->device);
  auto fallback = preparedOnCpu(wholeFallbackMutex_, wholeFallback_, model_);
  if (!fallback.ok()) return failure(fallback.error());
  return executeOnCpu(**fallback, request, options);
}

ExecutionOutcome ExecutionPlan::execute(const Request& request, const ExecutionOptions& options) {
  ExecutionOutcome outcome = steps_.size() == 1 && steps_[0]->submodel.model == model_
                                 ? runStep(*steps_[0], request, options)
                                 : runSteps(request, options);
  if (outcome.status == ErrorCode::NO_ERROR) {
    if (options.profileOperations) accumulateProfile(outcome.operationNs);
    return outcome;
  }
  if (steps_.size() == 1) return outcome;
  if (outcome.status != ErrorCode::NO_ERROR && cpu_ != nullptr &&
      canFallBack(*steps_.front()->device, outcome.status)) {
    logWarning("the partitioned execution failed ({}: {}); running the whole model on {}",
               errorCodeName(outcome.status), outcome.message, cpu_->name());
    return runWholeOnCpu(request, options);
  }
  return outcome;
}

ExecutionOutcome ExecutionPlan::runSteps(const Request& request, const ExecutionOptions& options) {
  const Subgraph& main = model_->main;
  std::unordered_map<uint32_t, size_t> inputPosition;
  std::unordered_map<uint32_t, size_t> outputPosition;
  for (size_t i = 0; i < main.inputIndexes.size(); ++i) inputPosition[main.inputIndexes[i]] = i;
  for (size_t i = 0; i < main.outputIndexes.size(); ++i) outputPosition[main.outputIndexes[i]] = i;

  ExecutionOutcome result;
  result.outputShapes.resize(main.outputIndexes.size());
  for (size_t i = 0; i < main.outputIndexes.size(); ++i) {
    result.outputShapes[i].dims = request.outputs[i].dims.empty()
                                      ? main.operands[main.outputIndexes[i]].shape.dims
                                      : request.outputs[i].dims;
  }
  if (options.profileOperations) result.operationNs.assign(main.operations.size(), 0);
  std::unordered_map<uint32_t, BoundaryBuffer> boundaries;
  auto boundaryArgument = [](const BoundaryBuffer& buffer) {
    return RequestArgument{false, buffer.data.get(), buffer.size, buffer.dims};
  };

  for (auto& stepPointer : steps_) {
    Step& step = *stepPointer;
    Request stepRequest;
    for (uint32_t operand : step.submodel.inputs) {
      auto position = inputPosition.find(operand);
      stepRequest.inputs.push_back(position != inputPosition.end()
                                       ? request.inputs[position->second]
                                       : boundaryArgument(boundaries[operand]));
    }
    for (uint32_t operand : step.submodel.outputs) {
      auto position = outputPosition.find(operand);
      if (position != outputPosition.end()) {
        stepRequest.outputs.push_back(request.outputs[position->second]);
        continue;
      }
      BoundaryBuffer& buffer = boundaries[operand];
      if (!buffer.data) {
        if (auto allocated = allocate(buffer, main.operands[operand].shape); !allocated.ok()) {
          return failure(allocated.error());
        }
      }
      stepRequest.outputs.push_back(boundaryArgument(buffer));
    }
    ExecutionOutcome outcome = runStep(step, stepRequest, options);
    // Boundary tensors of unknown size grow to what the step produced; retry once.
    if (outcome.status == ErrorCode::OUTPUT_INSUFFICIENT_SIZE) {
      bool onlyBoundaries = true;
      for (size_t j = 0; j < step.submodel.outputs.size(); ++j) {
        if (outcome.outputShapes[j].isSufficient) continue;
        const uint32_t operand = step.submodel.outputs[j];
        if (outputPosition.count(operand)) {
          onlyBoundaries = false;
          result.outputShapes[outputPosition[operand]] = outcome.outputShapes[j];
          continue;
        }
        Shape shape = main.operands[operand].shape;
        shape.dims = outcome.outputShapes[j].dims;
        if (auto allocated = allocate(boundaries[operand], shape); !allocated.ok()) {
          return failure(allocated.error());
        }
        stepRequest.outputs[j] = boundaryArgument(boundaries[operand]);
      }
      if (!onlyBoundaries) {
        result.status = ErrorCode::OUTPUT_INSUFFICIENT_SIZE;
        result.message = outcome.message;
        return result;
      }
      outcome = runStep(step, stepRequest, options);
    }
    if (outcome.status != ErrorCode::NO_ERROR) {
      for (size_t j = 0; j < step.submodel.outputs.size() && j < outcome.outputShapes.size(); ++j) {
        auto position = outputPosition.find(step.submodel.outputs[j]);
        if (position != outputPosition.end()) {
          result.outputShapes[position->second] = outcome.outputShapes[j];
        }
      }
      result.status = outcome.status;
      result.message = outcome.message;
      return result;
    }
    for (size_t j = 0; j < step.submodel.outputs.size(); ++j) {
      const uint32_t operand = step.submodel.outputs[j];
      auto position = outputPosition.find(operand);
      if (position != outputPosition.end()) {
        result.outputShapes[position->second] = outcome.outputShapes[j];
      } else {
        boundaries[operand].dims = outcome.outputShapes[j].dims;
      }
    }
    for (size_t k = 0; k < outcome.operationNs.size() && k < step.operations.size(); ++k) {
      if (options.profileOperations)
        result.operationNs[step.operations[k]] = outcome.operationNs[k];
    }
    if (options.measureTiming && outcome.timing.onDeviceNs != kNoTiming) {
      auto add = [](uint64_t& total, uint64_t part) {
        total = (total == kNoTiming ? 0 : total) + part;
      };
      add(result.timing.onDeviceNs, outcome.timing.onDeviceNs);
      add(result.timing.inDriverNs, outcome.timing.inDriverNs);
    }
  }
  return result;
}

void ExecutionPlan::noteFallback(const Device& from) {
  ++fallbacks_;
  DeviceManager::get().telemetry().countFallback(from.name());
}

void ExecutionPlan::accumulateProfile(const std::vector<uint64_t>& operationNs) {
  if (operationNs.size() != model_->main.operations.size()) return;
  std::lock_guard<std::mutex> lock(profileMutex_);
  operationNs_.resize(operationNs.size(), 0);
  operationRuns_.resize(operationNs.size(), 0);
  for (size_t i = 0; i < operationNs.size(); ++i) {
    operationNs_[i] += operationNs[i];
    ++operationRuns_[i];
  }
}

CompilationProfile ExecutionPlan::profile() const {
  CompilationProfile profile;
  profile.modelOperations = static_cast<uint32_t>(model_->main.operations.size());
  std::vector<std::string> deviceOf(model_->main.operations.size());
  for (const auto& step : steps_) {
    profile.steps.push_back({step->device->name(), step->operations});
    for (uint32_t op : step->operations) deviceOf[op] = step->device->name();
  }
  std::lock_guard<std::mutex> lock(profileMutex_);
  for (uint32_t i = 0; i < operationNs_.size(); ++i) {
    profile.operations.push_back({i, operationTypeName(model_->main.operations[i].type),
                                  deviceOf[i], operationRuns_[i], operationNs_[i]});
  }
  return profile;
}

std::vector<PlanStepInfo> ExecutionPlan::steps() const {
  std::vector<PlanStepInfo> info;
  info.reserve(steps_.size());
  for (const auto& step : steps_) info.push_back({step->device->name(), step->operations});
  return info;
}

}  // namespace annrt::runtime
