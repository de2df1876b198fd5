// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/compilation.h"

#include <algorithm>
#include <cstring>

#include "annrt/compilation_attributes.h"
#include "common/log.h"
#include "runtime/device_manager.h"
#include "runtime/graph_dump.h"
#include "runtime/shape_specialization.h"
#include "runtime/trace.h"

namespace annrt::runtime {
namespace {

// Executions may use any buffer; this alignment lets vectorized kernels load
// whole cache lines, and no padding is ever needed.
constexpr uint32_t kPreferredAlignment = 64;
constexpr uint32_t kPreferredPadding = 1;

// As AOSP: an operation that neither a selected device nor the CPU fallback
// supports fails the compilation (BAD_DATA), not every later execution.
Result<void> checkEveryOperationRuns(SupportedOperations& supported,
                                     const std::vector<std::shared_ptr<Device>>& devices) {
  const Model& model = supported.model();
  const std::vector<bool> runs = supported.anyOf(devices);
  for (size_t i = 0; i < runs.size(); ++i) {
    ANNRT_CHECK(runs[i], "no device supports operation {} ({})", i,
                operationTypeName(model.main.operations[i].type));
  }
  return {};
}

// "2 operations on annrt-cpu, 1 on nnapi-reference": where a plan runs.
std::string placementText(const std::vector<PlanStepInfo>& steps) {
  std::vector<std::pair<std::string, size_t>> counts;
  for (const PlanStepInfo& step : steps) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& count) { return count.first == step.device; });
    if (it == counts.end()) it = counts.insert(counts.end(), {step.device, 0});
    it->second += step.operations.size();
  }
  std::string text;
  for (const auto& [device, operations] : counts) {
    text +=
        fmt::format("{}{} {}on {}", text.empty() ? "" : ", ", operations,
                    text.empty() ? (operations == 1 ? "operation " : "operations ") : "", device);
  }
  return text;
}

}  // namespace

std::vector<bool> operationsSupportedByAny(const Model& model,
                                           const std::vector<std::shared_ptr<Device>>& devices,
                                           const std::shared_ptr<ModelFacts>& facts) {
  return SupportedOperations(model, PartitionCache::forCompilation(model, {}, devices, facts.get()),
                             facts)
      .anyOf(devices);
}

Compilation::Compilation(std::shared_ptr<const Model> model, std::shared_ptr<ModelFacts> facts,
                         std::vector<std::shared_ptr<Device>> devices, bool explicitDevices)
    : model_(std::move(model)),
      facts_(std::move(facts)),
      devices_(std::move(devices)),
      explicitDevices_(explicitDevices) {}

Compilation::~Compilation() {
  Telemetry& telemetry = DeviceManager::get().telemetry();
  if (plan_ && telemetry.profilingEnabled()) {
    telemetry.addProfile(plan_->profile());
    // Plans dropped from the bound earlier took their profiles with them.
    if (specialized_) {
      for (const auto& plan : specialized_->plans()) telemetry.addProfile(plan->profile());
    }
  }
  if (plan_) telemetry.writeStats();
}

Result<void> Compilation::checkModifiable() const {
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, !finished_, "the compilation is already finished");
  return {};
}

Result<void> Compilation::setPreference(int32_t preference) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  // AOSP (CompilationBuilder::setPreference) refuses only values past the
  // last preference, and takes negative ones; so does annrt.
  ANNRT_CHECK(preference < 3, "preference {} is not one of 0..2", preference);
  options_.preference = preference;
  return {};
}

Result<void> Compilation::setPriority(int32_t priority) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(priority == 90 || priority == 100 || priority == 110,
              "priority {} is not LOW (90), MEDIUM (100) or HIGH (110)", priority);
  options_.priority = priority;
  return {};
}

Result<void> Compilation::setTimeout(uint64_t durationNs) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(isSingleExplicitDevice(),
              "a timeout needs a compilation created by createForDevices with one device");
  timeoutNs_ = durationNs == 0 ? std::nullopt : std::optional<uint64_t>(durationNs);
  return {};
}

Result<void> Compilation::setCaching(const char* cacheDir, const uint8_t* token) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  options_.cacheDir = cacheDir;
  std::memcpy(options_.token.data(), token, kCacheTokenSize);
  return {};
}

Result<void> Compilation::addExtensionAttribute(std::string_view extension, uint16_t code,
                                                const void* data, size_t length) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  // annrt's own attribute is for the runtime, so it applies to any
  // compilation; others would go to the one device AOSP requires.
  ANNRT_CHECK(extension == ANNRT_COMPILATION_EXTENSION || isSingleExplicitDevice(),
              "attributes of extension {} need a compilation created by createForDevices with "
              "one device",
              extension);
  ANNRT_CHECK(extension == ANNRT_COMPILATION_EXTENSION,
              "no device supports compilation attributes of extension {} (annrt's are {})",
              extension, ANNRT_COMPILATION_EXTENSION);
  ANNRT_CHECK(code == ANNRT_COMPILATION_NUM_THREADS, "{} has no attribute {}",
              ANNRT_COMPILATION_EXTENSION, code);
  ANNRT_CHECK(options_.numThreads == 0,
              "ANNRT_COMPILATION_NUM_THREADS was already given to this compilation");
  uint32_t threads = 0;
  ANNRT_CHECK(length == sizeof(threads),
              "ANNRT_COMPILATION_NUM_THREADS takes a uint32_t ({} bytes), not {} bytes",
              sizeof(threads), length);
  std::memcpy(&threads, data, sizeof(threads));
  ANNRT_CHECK(threads >= 1 && threads <= kMaxThreadCount,
              "ANNRT_COMPILATION_NUM_THREADS {} is not a thread count in 1..{}", threads,
              kMaxThreadCount);
  options_.numThreads = threads;
  ANNRT_VLOG(COMPILATION, "compilation hint: {} threads", threads);
  return {};
}

Result<std::shared_ptr<ExecutionPlan>> Compilation::buildPlan(
    const std::shared_ptr<const Model>& model, SupportedOperations& supported,
    const std::vector<std::shared_ptr<Device>>& devices, const std::shared_ptr<Device>& cpu,
    const PartitionOptions& partitionOptions, const PrepareOptions& options) const {
  ANNRT_ASSIGN_OR_RETURN(PartitionPlan partition,
                         partitionModel(supported, devices, cpu, partitionOptions));
  ANNRT_ASSIGN_OR_RETURN(auto plan,
                         ExecutionPlan::create(model, partition, cpu, options, supported.cache()));
  for (const PlanStepInfo& step : plan->steps()) {
    DeviceManager::get().telemetry().countCompilation(step.device);
  }
  return plan;
}

Result<void> Compilation::preparePlan(SupportedOperations& supported,
                                      const std::vector<std::shared_ptr<Device>>& devices,
                                      const std::shared_ptr<Device>& cpu,
                                      const PartitionOptions& partitionOptions) {
  PrepareOptions options = options_;
  if (timeoutNs_) options.deadline = deadlineAfter(*timeoutNs_);
  ANNRT_ASSIGN_OR_RETURN(plan_,
                         buildPlan(model_, supported, devices, cpu, partitionOptions, options));
  cpu_ = cpu;
  partitionOptions_ = partitionOptions;
  const size_t bound = specializationBound();
  if (shouldSpecialize(bound)) specialized_ = std::make_unique<SpecializedPlans>(bound);
  return {};
}

Result<void> Compilation::finish() {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::COMPILATION, "compile");
  finished_ = true;
  if (vlogEnabled(LogArea::COMPILATION)) {
    const std::string dump = graphDump(*model_);
    size_t start = 0;
    for (size_t end = dump.find('\n'); end != std::string::npos; end = dump.find('\n', start)) {
      logLine("V", "GraphDump", std::string_view(dump).substr(start, end - start));
      start = end + 1;
    }
  }
  PartitionOptions partitionOptions = PartitionOptions::fromEnvironment(options_.preference);
  // createForDevices runs on the listed devices only; otherwise the reference
  // CPU takes what no other device can, unless ANNRT_PARTITION=2 forbids it.
  std::shared_ptr<Device> cpu;
  if (!explicitDevices_ && partitionOptions.mode != PartitionMode::NO_FALLBACK) {
    cpu = DeviceManager::get().reference();
  }
  SupportedOperations supported(*model_, cacheFor(*model_, cpu, facts_.get()), facts_);
  ANNRT_RETURN_IF_ERROR(checkEveryOperationRuns(supported, candidates(cpu)));
  auto prepared = preparePlan(supported, devices_, cpu, partitionOptions);
  if (prepared.ok()) return {};
  const ErrorCode code = prepared.error().code;
  if (cpu == nullptr || code == ErrorCode::MISSED_DEADLINE_TRANSIENT ||
      code == ErrorCode::MISSED_DEADLINE_PERSISTENT) {
    return prepared.takeError();
  }
  logWarning("compilation failed ({}); compiling the whole model on {}", prepared.error().message,
             cpu->name());
  PartitionOptions whole = partitionOptions;
  whole.mode = PartitionMode::NO_PARTITIONING;
  return preparePlan(supported, {cpu}, cpu, whole);
}

std::vector<std::shared_ptr<Device>> Compilation::candidates(
    const std::shared_ptr<Device>& cpu) const {
  std::vector<std::shared_ptr<Device>> devices = devices_;
  if (cpu) devices.push_back(cpu);
  return devices;
}

std::shared_ptr<const PartitionCache> Compilation::cacheFor(const Model& model,
                                                            const std::shared_ptr<Device>& cpu,
                                                            ModelFacts* facts) const {
  return PartitionCache::forCompilation(model, options_, candidates(cpu), facts);
}

bool Compilation::shouldSpecialize(size_t bound) const {
  // Only a device other than the reference, which sizes everything at run
  // time anyway, can gain from known shapes.
  const auto reference = DeviceManager::get().reference();
  const bool gains = std::any_of(devices_.begin(), devices_.end(),
                                 [&](const auto& device) { return device != reference; });
  return bound > 0 && gains && hasUnknownInputDims(*model_);
}

std::shared_ptr<ExecutionPlan> Compilation::specialize(const InputDims& dims) const {
  TraceSpan span(TraceLayer::RUNTIME, TracePhase::COMPILATION, "specialize");
  auto built = [&]() -> Result<std::shared_ptr<ExecutionPlan>> {
    // The cache keeps specializations apart: each step's key holds its
    // input dims (PartitionCache::keyFor).
    ANNRT_ASSIGN_OR_RETURN(std::shared_ptr<const Model> model, specializeModel(*model_, dims));
    SupportedOperations supported(*model, cacheFor(*model, cpu_, nullptr));
    return buildPlan(model, supported, devices_, cpu_, partitionOptions_, options_);
  }();
  if (!built.ok()) {
    logWarning("cannot specialize the compilation for input dims {} ({}); running the general plan",
               inputDimsText(dims), built.error().message);
    return nullptr;
  }
  logInfo("specializing compilation for input dims {} (the model's inputs have unknown dims): {}",
          inputDimsText(dims), placementText(built.value()->steps()));
  return std::move(built).value();
}

std::shared_ptr<ExecutionPlan> Compilation::planFor(const Request& request) const {
  if (!specialized_) return plan_;
  InputDims dims;
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    const RequestArgument& input = request.inputs[i];
    Shape shape = model_->main.operands[model_->main.inputIndexes[i]].shape;
    shape.dims = input.dims;
    if (!input.omitted && isTensorType(shape.type) && hasUnknownDims(shape)) {
      return plan_;  // the general plan sizes such inputs as it runs
    }
    dims.push_back(input.omitted ? std::vector<uint32_t>{} : input.dims);
  }
  std::shared_ptr<ExecutionPlan> plan =
      specialized_->find(dims, [this](const InputDims& key) { return specialize(key); });
  return plan ? plan : plan_;
}

Result<const Operand*> Compilation::ioOperand(uint32_t index, bool isInput) const {
  const auto& indexes = isInput ? model_->main.inputIndexes : model_->main.outputIndexes;
  ANNRT_CHECK(index < indexes.size(), "{} index {} out of range (the model has {})",
              isInput ? "input" : "output", index, indexes.size());
  return &model_->main.operands[indexes[index]];
}

Result<void> Compilation::checkPrepared() const {
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, finished_, "the compilation is not finished");
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, isPrepared(), "the compilation failed");
  return {};
}

Result<uint32_t> Compilation::preferredAlignment(uint32_t index, bool isInput) const {
  ANNRT_RETURN_IF_ERROR(checkPrepared());
  ANNRT_RETURN_IF_ERROR(ioOperand(index, isInput));
  return kPreferredAlignment;
}

Result<uint32_t> Compilation::preferredPadding(uint32_t index, bool isInput) const {
  ANNRT_RETURN_IF_ERROR(checkPrepared());
  ANNRT_RETURN_IF_ERROR(ioOperand(index, isInput));
  return kPreferredPadding;
}

}  // namespace annrt::runtime
