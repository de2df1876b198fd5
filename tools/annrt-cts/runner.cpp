// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "runner.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>

#include "client/cache_token.h"
#include "client/graph_builder.h"
#include "client/result_codes.h"

namespace annrt::cts {
namespace {

// ---- RAII for NNAPI objects ----

struct ModelFree {
  void operator()(ANeuralNetworksModel* p) const { ANeuralNetworksModel_free(p); }
};
struct CompilationFree {
  void operator()(ANeuralNetworksCompilation* p) const { ANeuralNetworksCompilation_free(p); }
};
struct ExecutionFree {
  void operator()(ANeuralNetworksExecution* p) const { ANeuralNetworksExecution_free(p); }
};
struct EventFree {
  void operator()(ANeuralNetworksEvent* p) const { ANeuralNetworksEvent_free(p); }
};
struct BurstFree {
  void operator()(ANeuralNetworksBurst* p) const { ANeuralNetworksBurst_free(p); }
};
using ModelPtr = std::unique_ptr<ANeuralNetworksModel, ModelFree>;
using CompilationPtr = std::unique_ptr<ANeuralNetworksCompilation, CompilationFree>;
using ExecutionPtr = std::unique_ptr<ANeuralNetworksExecution, ExecutionFree>;
using EventPtr = std::unique_ptr<ANeuralNetworksEvent, EventFree>;
using BurstPtr = std::unique_ptr<ANeuralNetworksBurst, BurstFree>;
struct MemoryFree {
  void operator()(ANeuralNetworksMemory* p) const { ANeuralNetworksMemory_free(p); }
};
struct MemoryDescFree {
  void operator()(ANeuralNetworksMemoryDesc* p) const { ANeuralNetworksMemoryDesc_free(p); }
};
using MemoryPtr = std::unique_ptr<ANeuralNetworksMemory, MemoryFree>;
using MemoryDescPtr = std::unique_ptr<ANeuralNetworksMemoryDesc, MemoryDescFree>;

// ---- Failures ----

struct Failure {
  std::string stage;
  int code = ANEURALNETWORKS_NO_ERROR;
  std::string message;
  std::optional<Mismatch> mismatch = std::nullopt;
};
using Step = std::optional<Failure>;  // nullopt: success

Step apiStep(int code, const char* stage, const std::string& what) {
  if (code == ANEURALNETWORKS_NO_ERROR) return std::nullopt;
  return Failure{stage, code,
                 fmt::format("{} returned {} ({})", what, client::resultCodeName(code), code)};
}

// Stages.
constexpr const char* kStageModel = "model";  // adding operands/values/operations, identify
constexpr const char* kStageFinish = "finish";
constexpr const char* kStageCompile = "compile";
constexpr const char* kStageCacheCompile = "cache-compile";
constexpr const char* kStageAlignment = "alignment";
constexpr const char* kStageExecution = "execution";  // create, setInput/Output, ...
constexpr const char* kStageCompute = "compute";
constexpr const char* kStageDeviceMemory = "device-memory";
constexpr const char* kStageDimensions = "output-dimensions";
constexpr const char* kStageCompare = "compare";
constexpr const char* kStageValidation = "validation";
constexpr const char* kStageLoopTimeout = "loop-timeout";

// ---- Constant memory (CONSTANT_REFERENCE) ----

constexpr size_t kConstantAlignment = 4;

size_t alignedSize(size_t size) {
  return (size + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment;
}

// A memfd-backed ANeuralNetworksMemory (ANeuralNetworksMemory_createFromFd),
// filled by append(): every CONSTANT_REFERENCE value of a case, each at a
// 4-byte-aligned offset, or the staging copy of a device memory.
class SharedMemory {
 public:
  ~SharedMemory() {
    if (memory_ != nullptr) ANeuralNetworksMemory_free(memory_);
    if (mapping_ != MAP_FAILED) munmap(mapping_, size_);
    if (fd_ >= 0) close(fd_);
  }

  Step create(size_t size, const char* stage = kStageModel) {
    size_ = size;
    fd_ = memfd_create("annrt-cts-constants", MFD_CLOEXEC);
    if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      return Failure{stage, 0, fmt::format("memfd: {}", strerror(errno))};
    }
    mapping_ = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (mapping_ == MAP_FAILED) {
      return Failure{stage, 0, fmt::format("mmap: {}", strerror(errno))};
    }
    return apiStep(
        ANeuralNetworksMemory_createFromFd(size, PROT_READ | PROT_WRITE, fd_, 0, &memory_), stage,
        "ANeuralNetworksMemory_createFromFd");
  }

  // Copies `bytes` to the next free offset and returns that offset.
  size_t append(const std::vector<uint8_t>& bytes) {
    const size_t offset = used_;
    if (!bytes.empty())
      std::memcpy(static_cast<uint8_t*>(mapping_) + offset, bytes.data(), bytes.size());
    used_ += alignedSize(bytes.size());
    return offset;
  }

  ANeuralNetworksMemory* memory() const { return memory_; }
  const uint8_t* data() const { return static_cast<const uint8_t*>(mapping_); }

 private:
  int fd_ = -1;
  size_t size_ = 0;
  size_t used_ = 0;
  void* mapping_ = MAP_FAILED;
  ANeuralNetworksMemory* memory_ = nullptr;
};

size_t constantReferenceSize(const TestCase& testCase) {
  size_t size = 0;
  auto add = [&size](const Subgraph& subgraph) {
    for (const Operand& operand : subgraph.operands) {
      if (operand.lifetime == Lifetime::kConstantReference) {
        size += alignedSize(operand.data.size() * elementSize(operand.type));
      }
    }
  };
  add(testCase.main);
  for (const Subgraph& subgraph : testCase.referenced) add(subgraph);
  return size;
}

// ---- Model building ----

class ModelBuilder {
 public:
  ModelBuilder(const TestCase& testCase, bool dynamicOutputShape)
      : testCase_(testCase),
        dynamicOutputShape_(dynamicOutputShape),
        referenced_(testCase.referenced.size()) {}

  // Builds the main model (not finished). Failures while adding or
  // identifying are reported with stage "model"; a referenced model that
  // fails to finish with stage "finish".
  Step build(ModelPtr* model) {
    const size_t constantSize = constantReferenceSize(testCase_);
    if (constantSize > 0) {
      constants_ = std::make_unique<SharedMemory>();
      if (Step failure = constants_->create(constantSize)) return failure;
    }
    ANeuralNetworksModel* raw = nullptr;
    if (Step failure = apiStep(ANeuralNetworksModel_create(&raw), kStageModel,
                               "ANeuralNetworksModel_create")) {
      return failure;
    }
    model->reset(raw);
    if (Step failure = buildSubgraph(testCase_.main, raw)) return failure;
    return apiStep(ANeuralNetworksModel_relaxComputationFloat32toFloat16(raw, testCase_.isRelaxed),
                   kStageModel, "ANeuralNetworksModel_relaxComputationFloat32toFloat16");
  }

 private:
  Step buildSubgraph(const Subgraph& subgraph, ANeuralNetworksModel* model) {
    for (uint32_t i = 0; i < subgraph.operands.size(); ++i) {
      if (Step failure = addOperand(model, i, subgraph.operands[i])) return failure;
    }
    for (const Operation& operation : subgraph.operations) {
      const int code = ANeuralNetworksModel_addOperation(
          model, operation.type, static_cast<uint32_t>(operation.inputs.size()),
          client::indexArray(operation.inputs), static_cast<uint32_t>(operation.outputs.size()),
          client::indexArray(operation.outputs));
      if (Step failure =
              apiStep(code, kStageModel,
                      fmt::format("ANeuralNetworksModel_addOperation({})", operation.typeName))) {
        return failure;
      }
    }
    const int code = ANeuralNetworksModel_identifyInputsAndOutputs(
        model, static_cast<uint32_t>(subgraph.inputIndexes.size()),
        client::indexArray(subgraph.inputIndexes),
        static_cast<uint32_t>(subgraph.outputIndexes.size()),
        client::indexArray(subgraph.outputIndexes));
    return apiStep(code, kStageModel, "ANeuralNetworksModel_identifyInputsAndOutputs");
  }

  Step addOperand(ANeuralNetworksModel* model, uint32_t index, const Operand& operand) {
    std::vector<uint32_t> dims = operand.dimensions;
    if (dynamicOutputShape_ && operand.lifetime == Lifetime::kSubgraphOutput) {
      std::fill(dims.begin(), dims.end(), 0u);
    }
    ANeuralNetworksOperandType type{};
    type.type = operand.type;
    type.dimensionCount = static_cast<uint32_t>(dims.size());
    type.dimensions = dims.empty() ? nullptr : dims.data();
    type.scale = operand.scale;
    type.zeroPoint = operand.zeroPoint;
    const std::string what = fmt::format("operand {} ({})", index, operand.name);
    if (Step failure = apiStep(ANeuralNetworksModel_addOperand(model, &type), kStageModel,
                               "ANeuralNetworksModel_addOperand for " + what)) {
      return failure;
    }
    if (operand.channelQuant) {
      ANeuralNetworksSymmPerChannelQuantParams params{};
      params.channelDim = operand.channelQuant->channelDim;
      params.scaleCount = static_cast<uint32_t>(operand.channelQuant->scales.size());
      params.scales = operand.channelQuant->scales.data();
      if (Step failure =
              apiStep(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
                          model, static_cast<int32_t>(index), &params),
                      kStageModel,
                      "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams for " + what)) {
        return failure;
      }
    }
    return setOperandValue(model, index, operand, what);
  }

  Step setOperandValue(ANeuralNetworksModel* model, uint32_t index, const Operand& operand,
                       const std::string& what) {
    switch (operand.lifetime) {
      case Lifetime::kConstantCopy: {
        // Values over ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES are
        // not copied: the buffer must live as long as the model.
        const std::vector<uint8_t>& bytes =
            values_.emplace_back(encodeData(operand.type, operand.data));
        return apiStep(ANeuralNetworksModel_setOperandValue(model, static_cast<int32_t>(index),
                                                            bytes.empty() ? nullptr : bytes.data(),
                                                            bytes.size()),
                       kStageModel, "ANeuralNetworksModel_setOperandValue for " + what);
      }
      case Lifetime::kConstantReference: {
        const std::vector<uint8_t> bytes = encodeData(operand.type, operand.data);
        const size_t offset = constants_->append(bytes);
        return apiStep(
            ANeuralNetworksModel_setOperandValueFromMemory(
                model, static_cast<int32_t>(index), constants_->memory(), offset, bytes.size()),
            kStageModel, "ANeuralNetworksModel_setOperandValueFromMemory for " + what);
      }
      case Lifetime::kNoValue:
        return apiStep(
            ANeuralNetworksModel_setOperandValue(model, static_cast<int32_t>(index), nullptr, 0),
            kStageModel, "ANeuralNetworksModel_setOperandValue(NULL) for " + what);
      case Lifetime::kSubgraph: return setOperandModel(model, index, operand, what);
      default: return std::nullopt;
    }
  }

  Step setOperandModel(ANeuralNetworksModel* model, uint32_t index, const Operand& operand,
                       const std::string& what) {
    if (operand.data.size() != 1 || operand.data[0] < 0 ||
        operand.data[0] >= static_cast<double>(referenced_.size())) {
      return Failure{kStageModel, 0, "bad referenced subgraph index for " + what};
    }
    const size_t ref = static_cast<size_t>(operand.data[0]);
    if (!referenced_[ref]) {
      ANeuralNetworksModel* raw = nullptr;
      if (Step failure = apiStep(ANeuralNetworksModel_create(&raw), kStageModel,
                                 "ANeuralNetworksModel_create (referenced)")) {
        return failure;
      }
      referenced_[ref].reset(raw);
      if (Step failure = buildSubgraph(testCase_.referenced[ref], raw)) return failure;
      if (Step failure = apiStep(ANeuralNetworksModel_finish(raw), kStageFinish,
                                 fmt::format("ANeuralNetworksModel_finish (referenced {})", ref))) {
        return failure;
      }
    }
    return apiStep(ANeuralNetworksModel_setOperandValueFromModel(model, static_cast<int32_t>(index),
                                                                 referenced_[ref].get()),
                   kStageModel, "ANeuralNetworksModel_setOperandValueFromModel for " + what);
  }

  const TestCase& testCase_;
  bool dynamicOutputShape_;
  // Both outlive every model below.
  std::unique_ptr<SharedMemory> constants_;
  std::deque<std::vector<uint8_t>> values_;  // CONSTANT_COPY buffers
  std::vector<ModelPtr> referenced_;
};

// Owns the models and the constant memory of one case for its whole run.
struct BuiltModel {
  std::unique_ptr<ModelBuilder> builder;
  ModelPtr model;
};

// ---- Compilation ----

Step compile(ANeuralNetworksModel* model, const RunOptions& options, const uint8_t* token,
             const char* stage, CompilationPtr* compilation,
             const std::filesystem::path& cacheDir = {}) {
  ANeuralNetworksCompilation* raw = nullptr;
  int code;
  if (options.devices.empty()) {
    code = ANeuralNetworksCompilation_create(model, &raw);
  } else {
    code = ANeuralNetworksCompilation_createForDevices(
        model, options.devices.data(), static_cast<uint32_t>(options.devices.size()), &raw);
  }
  if (Step failure =
          apiStep(code, stage,
                  options.devices.empty() ? "ANeuralNetworksCompilation_create"
                                          : "ANeuralNetworksCompilation_createForDevices")) {
    return failure;
  }
  compilation->reset(raw);
  if (token != nullptr) {
    const std::string dir = cacheDir.string();
    if (Step failure = apiStep(ANeuralNetworksCompilation_setCaching(raw, dir.c_str(), token),
                               stage, "ANeuralNetworksCompilation_setCaching")) {
      return failure;
    }
  }
  return apiStep(ANeuralNetworksCompilation_finish(raw), stage,
                 "ANeuralNetworksCompilation_finish");
}

bool isPowerOfTwo(uint32_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

Step checkPreferredMemory(const ANeuralNetworksCompilation* compilation, const Subgraph& main) {
  using Getter = int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*);
  struct Query {
    const char* name;
    Getter getter;
    size_t count;
  };
  const Query queries[] = {
      {"AlignmentForInput", ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput,
       main.inputIndexes.size()},
      {"PaddingForInput", ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput,
       main.inputIndexes.size()},
      {"AlignmentForOutput", ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput,
       main.outputIndexes.size()},
      {"PaddingForOutput", ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput,
       main.outputIndexes.size()},
  };
  for (const Query& query : queries) {
    for (uint32_t i = 0; i < query.count; ++i) {
      uint32_t value = 0;
      const std::string what =
          fmt::format("ANeuralNetworksCompilation_getPreferredMemory{}({})", query.name, i);
      if (Step failure = apiStep(query.getter(compilation, i, &value), kStageAlignment, what)) {
        return failure;
      }
      if (!isPowerOfTwo(value)) {
        return Failure{kStageAlignment, 0,
                       fmt::format("{} = {} is not a power of two", what, value)};
      }
    }
  }
  return std::nullopt;
}

// ---- Execution ----

struct Request {
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<std::vector<uint8_t>> outputs;
};

Request makeRequest(const TestCase& testCase) {
  Request request;
  const Subgraph& main = testCase.main;
  for (uint32_t index : main.inputIndexes) {
    const Operand& operand = main.operands[index];
    request.inputs.push_back(encodeData(operand.type, operand.data));
  }
  for (uint32_t index : main.outputIndexes) {
    const Operand& operand = main.operands[index];
    // At least one byte: a zero-sized client buffer would mean "omitted".
    request.outputs.emplace_back(
        std::max<size_t>(operand.data.size() * elementSize(operand.type), 1));
  }
  return request;
}

Step setRequest(ANeuralNetworksExecution* execution, Request& request) {
  for (uint32_t i = 0; i < request.inputs.size(); ++i) {
    const auto& bytes = request.inputs[i];
    const int code =
        ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i), nullptr,
                                          bytes.empty() ? nullptr : bytes.data(), bytes.size());
    if (Step failure = apiStep(code, kStageExecution,
                               fmt::format("ANeuralNetworksExecution_setInput({})", i))) {
      return failure;
    }
  }
  for (uint32_t i = 0; i < request.outputs.size(); ++i) {
    auto& bytes = request.outputs[i];
    const int code = ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(i), nullptr,
                                                        bytes.data(), bytes.size());
    if (Step failure = apiStep(code, kStageExecution,
                               fmt::format("ANeuralNetworksExecution_setOutput({})", i))) {
      return failure;
    }
  }
  return std::nullopt;
}

int waitEvent(int code, ANeuralNetworksEvent* rawEvent) {
  EventPtr event(rawEvent);
  if (code != ANEURALNETWORKS_NO_ERROR) return code;
  return ANeuralNetworksEvent_wait(event.get());
}

// One compute in the requested mode; returns the NNAPI result code.
int computeOnce(ANeuralNetworksExecution* execution, ANeuralNetworksBurst* burst,
                const RunOptions& options) {
  if (options.onCompute) options.onCompute(true);
  int code = ANEURALNETWORKS_NO_ERROR;
  ANeuralNetworksEvent* event = nullptr;
  switch (options.mode) {
    case ComputeMode::kSync: code = ANeuralNetworksExecution_compute(execution); break;
    case ComputeMode::kAsync:
      code = ANeuralNetworksExecution_startCompute(execution, &event);
      code = waitEvent(code, event);
      break;
    case ComputeMode::kBurst: code = ANeuralNetworksExecution_burstCompute(execution, burst); break;
    case ComputeMode::kFenced:
      code =
          ANeuralNetworksExecution_startComputeWithDependencies(execution, nullptr, 0, 0, &event);
      code = waitEvent(code, event);
      break;
  }
  if (options.onCompute) options.onCompute(false);
  return code;
}

// AOSP's wrapper: rank first, then the dimensions unless the rank is 0.
Step checkOutputDimensions(ANeuralNetworksExecution* execution, const Subgraph& main) {
  for (uint32_t i = 0; i < main.outputIndexes.size(); ++i) {
    const Operand& operand = main.operands[main.outputIndexes[i]];
    if (operand.isIgnored) continue;
    uint32_t rank = 0;
    if (Step failure =
            apiStep(ANeuralNetworksExecution_getOutputOperandRank(execution,
                                                                  static_cast<int32_t>(i), &rank),
                    kStageDimensions,
                    fmt::format("ANeuralNetworksExecution_getOutputOperandRank({})", i))) {
      return failure;
    }
    std::vector<uint32_t> dims(rank);
    if (rank > 0) {
      const int code = ANeuralNetworksExecution_getOutputOperandDimensions(
          execution, static_cast<int32_t>(i), dims.data());
      if (Step failure =
              apiStep(code, kStageDimensions,
                      fmt::format("ANeuralNetworksExecution_getOutputOperandDimensions({})", i))) {
        return failure;
      }
    }
    if (dims != operand.dimensions) {
      return Failure{kStageDimensions, 0,
                     fmt::format("output {} has dimensions [{}], expected [{}]", i,
                                 fmt::join(dims, ","), fmt::join(operand.dimensions, ","))};
    }
  }
  return std::nullopt;
}

// A driver-allocated memory for one input or output of `compilation`.
Step createDeviceMemory(ANeuralNetworksCompilation* compilation, bool isInput, uint32_t index,
                        MemoryPtr* memory) {
  const std::string what = fmt::format("{} {}", isInput ? "input" : "output", index);
  ANeuralNetworksMemoryDesc* rawDesc = nullptr;
  if (Step failure = apiStep(ANeuralNetworksMemoryDesc_create(&rawDesc), kStageDeviceMemory,
                             "ANeuralNetworksMemoryDesc_create")) {
    return failure;
  }
  MemoryDescPtr desc(rawDesc);
  const int code = isInput
                       ? ANeuralNetworksMemoryDesc_addInputRole(rawDesc, compilation, index, 1.0f)
                       : ANeuralNetworksMemoryDesc_addOutputRole(rawDesc, compilation, index, 1.0f);
  if (Step failure =
          apiStep(code, kStageDeviceMemory, "ANeuralNetworksMemoryDesc_add*Role for " + what)) {
    return failure;
  }
  if (Step failure = apiStep(ANeuralNetworksMemoryDesc_finish(rawDesc), kStageDeviceMemory,
                             "ANeuralNetworksMemoryDesc_finish for " + what)) {
    return failure;
  }
  ANeuralNetworksMemory* raw = nullptr;
  if (Step failure =
          apiStep(ANeuralNetworksMemory_createFromDesc(rawDesc, &raw), kStageDeviceMemory,
                  "ANeuralNetworksMemory_createFromDesc for " + what)) {
    return failure;
  }
  memory->reset(raw);
  return std::nullopt;
}

class ExecutionRun {
 public:
  ExecutionRun(ANeuralNetworksCompilation* compilation, const TestCase& testCase,
               const RunOptions& options)
      : compilation_(compilation), testCase_(testCase), options_(options) {}

  // Creates the execution and binds inputs and outputs.
  Step prepare(bool reusable) {
    ANeuralNetworksExecution* raw = nullptr;
    if (Step failure = apiStep(ANeuralNetworksExecution_create(compilation_, &raw), kStageExecution,
                               "ANeuralNetworksExecution_create")) {
      return failure;
    }
    execution_.reset(raw);
    if (reusable) {
      if (Step failure = apiStep(ANeuralNetworksExecution_setReusable(raw, true), kStageExecution,
                                 "ANeuralNetworksExecution_setReusable")) {
        return failure;
      }
    }
    if (options_.mode == ComputeMode::kBurst) {
      ANeuralNetworksBurst* burst = nullptr;
      if (Step failure = apiStep(ANeuralNetworksBurst_create(compilation_, &burst), kStageExecution,
                                 "ANeuralNetworksBurst_create")) {
        return failure;
      }
      burst_.reset(burst);
    }
    request_ = makeRequest(testCase_);
    return options_.deviceMemory ? bindDeviceMemories(raw) : setRequest(raw, request_);
  }

  int compute() {
    // Poison the outputs so that an output the runtime never writes cannot pass.
    for (auto& buffer : request_.outputs) std::fill(buffer.begin(), buffer.end(), 0xA5);
    return computeOnce(execution_.get(), burst_.get(), options_);
  }

  Step computeAndCheck() {
    const int code = compute();
    if (Step failure = apiStep(code, kStageCompute, modeFunction())) return failure;
    if (options_.deviceMemory) {
      if (Step failure = copyOutDeviceMemories()) return failure;
    }
    if (Step failure = checkOutputDimensions(execution_.get(), testCase_.main)) return failure;
    if (auto failure = checkOutputs(testCase_, request_.outputs)) {
      return Failure{kStageCompare, 0, failure->message, failure->mismatch};
    }
    return std::nullopt;
  }

  ANeuralNetworksExecution* execution() const { return execution_.get(); }

 private:
  const char* modeFunction() const {
    switch (options_.mode) {
      case ComputeMode::kSync: return "ANeuralNetworksExecution_compute";
      case ComputeMode::kAsync: return "ANeuralNetworksExecution_startCompute/Event_wait";
      case ComputeMode::kBurst: return "ANeuralNetworksExecution_burstCompute";
      case ComputeMode::kFenced:
        return "ANeuralNetworksExecution_startComputeWithDependencies/Event_wait";
    }
    return "compute";
  }

  // DeviceMemoryTest: every non-omitted input is copied into a driver-allocated
  // memory with ANeuralNetworksMemory_copy, every output is a driver memory.
  Step bindDeviceMemories(ANeuralNetworksExecution* execution) {
    for (uint32_t i = 0; i < request_.inputs.size(); ++i) {
      const std::vector<uint8_t>& bytes = request_.inputs[i];
      if (bytes.empty()) {
        if (Step failure =
                apiStep(ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i),
                                                          nullptr, nullptr, 0),
                        kStageExecution, fmt::format("ANeuralNetworksExecution_setInput({})", i))) {
          return failure;
        }
        continue;
      }
      MemoryPtr device;
      if (Step failure = createDeviceMemory(compilation_, true, i, &device)) return failure;
      SharedMemory staging;
      if (Step failure = staging.create(bytes.size(), kStageDeviceMemory)) return failure;
      staging.append(bytes);
      if (Step failure = apiStep(ANeuralNetworksMemory_copy(staging.memory(), device.get()),
                                 kStageDeviceMemory,
                                 fmt::format("ANeuralNetworksMemory_copy to input {}", i))) {
        return failure;
      }
      const int code = ANeuralNetworksExecution_setInputFromMemory(
          execution, static_cast<int32_t>(i), nullptr, device.get(), 0, 0);
      memories_.push_back(std::move(device));
      if (Step failure =
              apiStep(code, kStageExecution,
                      fmt::format("ANeuralNetworksExecution_setInputFromMemory({})", i))) {
        return failure;
      }
    }
    for (uint32_t i = 0; i < request_.outputs.size(); ++i) {
      MemoryPtr device;
      if (Step failure = createDeviceMemory(compilation_, false, i, &device)) return failure;
      const int code = ANeuralNetworksExecution_setOutputFromMemory(
          execution, static_cast<int32_t>(i), nullptr, device.get(), 0, 0);
      outputMemories_.push_back(device.get());
      memories_.push_back(std::move(device));
      if (Step failure =
              apiStep(code, kStageExecution,
                      fmt::format("ANeuralNetworksExecution_setOutputFromMemory({})", i))) {
        return failure;
      }
    }
    return std::nullopt;
  }

  Step copyOutDeviceMemories() {
    for (uint32_t i = 0; i < outputMemories_.size(); ++i) {
      std::vector<uint8_t>& buffer = request_.outputs[i];
      SharedMemory staging;
      if (Step failure = staging.create(buffer.size(), kStageDeviceMemory)) return failure;
      if (Step failure = apiStep(ANeuralNetworksMemory_copy(outputMemories_[i], staging.memory()),
                                 kStageDeviceMemory,
                                 fmt::format("ANeuralNetworksMemory_copy from output {}", i))) {
        return failure;
      }
      std::memcpy(buffer.data(), staging.data(), buffer.size());
    }
    return std::nullopt;
  }

  ANeuralNetworksCompilation* compilation_;
  const TestCase& testCase_;
  const RunOptions& options_;
  std::vector<MemoryPtr> memories_;  // outlive the execution
  std::vector<ANeuralNetworksMemory*> outputMemories_;
  ExecutionPtr execution_;
  BurstPtr burst_;
  Request request_;
};

// Single-use execution, then a reusable one computing twice.
Step executeWithCompilation(ANeuralNetworksCompilation* compilation, const TestCase& testCase,
                            const RunOptions& options) {
  if (Step failure = checkPreferredMemory(compilation, testCase.main)) return failure;
  {
    ExecutionRun run(compilation, testCase, options);
    if (Step failure = run.prepare(/*reusable=*/false)) return failure;
    if (Step failure = run.computeAndCheck()) return failure;
  }
  ExecutionRun run(compilation, testCase, options);
  if (Step failure = run.prepare(/*reusable=*/true)) return failure;
  for (int i = 0; i < 2; ++i) {
    if (Step failure = run.computeAndCheck()) {
      failure->message =
          fmt::format("reusable execution, compute #{}: {}", i + 1, failure->message);
      return failure;
    }
  }
  return std::nullopt;
}

Step buildAndFinish(const TestCase& testCase, bool dynamicOutputShape, BuiltModel* built) {
  built->builder = std::make_unique<ModelBuilder>(testCase, dynamicOutputShape);
  if (Step failure = built->builder->build(&built->model)) return failure;
  return apiStep(ANeuralNetworksModel_finish(built->model.get()), kStageFinish,
                 "ANeuralNetworksModel_finish");
}

size_t fileCount(const std::filesystem::path& dir) {
  std::error_code error;
  size_t count = 0;
  for (auto it = std::filesystem::directory_iterator(dir, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    ++count;
  }
  return count;
}

// Compiles twice with the same token in a directory of the case's own, runs
// the second compilation, and checks it was prepared from what the first
// stored: it must store nothing new (a cache miss would).
Step runFromCache(const BuiltModel& built, const TestCase& testCase, const std::string& cacheKey,
                  const RunOptions& options, uint32_t* entries) {
  const auto token = client::hashCacheToken(cacheKey);
  const std::filesystem::path dir =
      options.cacheDir / fmt::format("{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", token[0],
                                     token[1], token[2], token[3], token[4], token[5], token[6],
                                     token[7]);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Failure{kStageCacheCompile, 0, "cannot create " + dir.string(), std::nullopt};
  CompilationPtr first;
  CompilationPtr second;
  if (Step failure =
          compile(built.model.get(), options, token.data(), kStageCacheCompile, &first, dir)) {
    return failure;
  }
  const size_t stored = fileCount(dir);
  if (Step failure =
          compile(built.model.get(), options, token.data(), kStageCacheCompile, &second, dir)) {
    return failure;
  }
  if (fileCount(dir) != stored) {
    return Failure{kStageCacheCompile, 0,
                   fmt::format("the second compilation stored {} more cache files (a cache miss)",
                               fileCount(dir) - stored),
                   std::nullopt};
  }
  *entries = static_cast<uint32_t>(stored);
  if (Step failure = executeWithCompilation(second.get(), testCase, options)) {
    failure->message = "cached compilation: " + failure->message;
    return failure;
  }
  std::filesystem::remove_all(dir, error);
  return std::nullopt;
}

// GeneratedTests / DynamicOutputShapeTest / QuantizationCouplingTest.
Step runValid(const TestCase& testCase, bool dynamicOutputShape, const std::string& cacheKey,
              const RunOptions& options, uint32_t* cacheEntries) {
  BuiltModel built;
  if (Step failure = buildAndFinish(testCase, dynamicOutputShape, &built)) return failure;
  {
    CompilationPtr compilation;
    if (Step failure = compile(built.model.get(), options, nullptr, kStageCompile, &compilation)) {
      return failure;
    }
    if (Step failure = executeWithCompilation(compilation.get(), testCase, options)) {
      return failure;
    }
  }
  if (!options.cache) return std::nullopt;
  return runFromCache(built, testCase, cacheKey, options, cacheEntries);
}

CaseResult passed(std::string message = "") {
  return CaseResult{Status::kPassed, "", 0, std::move(message), std::nullopt};
}

CaseResult failed(Failure failure) {
  return CaseResult{Status::kFailed, std::move(failure.stage), failure.code,
                    std::move(failure.message), failure.mismatch};
}

// An execution that must fail; returns the error it failed with, or nullopt if
// every step succeeded.
Step executionThatMustFail(ANeuralNetworksCompilation* compilation, const TestCase& testCase,
                           const RunOptions& options, bool reusable) {
  ExecutionRun run(compilation, testCase, options);
  if (Step failure = run.prepare(reusable)) return failure;
  return apiStep(run.compute(), kStageCompute, "compute");
}

// GeneratedValidationTests: a failure while adding passes; otherwise finish
// must succeed, then compilation or execution must fail.
CaseResult runValidation(const TestCase& testCase, const RunOptions& options) {
  BuiltModel built;
  if (Step failure = buildAndFinish(testCase, false, &built)) {
    if (failure->stage == kStageModel) return passed("failed as expected: " + failure->message);
    return failed(std::move(*failure));
  }
  CompilationPtr compilation;
  if (Step failure = compile(built.model.get(), options, nullptr, kStageCompile, &compilation)) {
    return passed("failed as expected: " + failure->message);
  }
  for (bool reusable : {false, true}) {
    Step failure = executionThatMustFail(compilation.get(), testCase, options, reusable);
    if (!failure) {
      return failed(Failure{kStageValidation, 0,
                            fmt::format("the {} execution succeeded but the case expects a "
                                        "failure in building, compiling or executing",
                                        reusable ? "reusable" : "single-use")});
    }
  }
  return passed("failed as expected in execution");
}

// isInfiniteLoopTimeoutTest: a WHILE that never ends must stop at the loop
// timeout with MISSED_DEADLINE_*.
CaseResult runLoopTimeout(const TestCase& testCase, const RunOptions& options) {
  BuiltModel built;
  if (Step failure = buildAndFinish(testCase, false, &built)) return failed(std::move(*failure));
  CompilationPtr compilation;
  if (Step failure = compile(built.model.get(), options, nullptr, kStageCompile, &compilation)) {
    return failed(std::move(*failure));
  }
  ExecutionRun run(compilation.get(), testCase, options);
  if (Step failure = run.prepare(false)) return failed(std::move(*failure));
  if (Step failure =
          apiStep(ANeuralNetworksExecution_setLoopTimeout(run.execution(), options.loopTimeoutNs),
                  kStageExecution, "ANeuralNetworksExecution_setLoopTimeout")) {
    return failed(std::move(*failure));
  }
  const int code = run.compute();
  if (code == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
      code == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT) {
    return passed(fmt::format("loop timed out with {}", client::resultCodeName(code)));
  }
  return failed(Failure{kStageLoopTimeout, code,
                        fmt::format("compute with a {} ns loop timeout returned {}, expected "
                                    "MISSED_DEADLINE_TRANSIENT or MISSED_DEADLINE_PERSISTENT",
                                    options.loopTimeoutNs, client::resultCodeName(code))});
}

}  // namespace

// A fenced computation cannot report output shapes, so NNAPI rejects one whose
// outputs have unspecified dimensions; AOSP therefore runs fenced computes
// only on FencedComputeTest cases, never on dynamic-output-shape models.
// Validation cases still run: some other step must fail for them anyway.
bool outsideFencedSuite(const TestCase& testCase, Variant variant, const RunOptions& options) {
  if (options.mode != ComputeMode::kFenced || testCase.expectFailure ||
      testCase.harness.isInfiniteLoopTimeoutTest) {
    return false;
  }
  return !testCase.harness.fencedComputeTest || variant == Variant::kDynamicOutputShape;
}

CaseResult runCase(const TestCase& testCase, Variant variant, const RunOptions& options) {
  if (testCase.minFeatureLevel && *testCase.minFeatureLevel > options.runtimeFeatureLevel) {
    return CaseResult{Status::kSkipped, "", 0,
                      fmt::format("minFeatureLevel {} > runtime feature level {}",
                                  *testCase.minFeatureLevel, options.runtimeFeatureLevel),
                      std::nullopt};
  }
  if (outsideFencedSuite(testCase, variant, options)) {
    return CaseResult{Status::kSkipped, "", 0,
                      "not in FencedComputeTest: some output has unspecified dimensions",
                      std::nullopt};
  }
  if (testCase.harness.isInfiniteLoopTimeoutTest) return runLoopTimeout(testCase, options);
  if (testCase.expectFailure) return runValidation(testCase, options);
  const std::string cacheKey = testCase.name + variantSuffix(variant);
  Step failure;
  uint32_t cacheEntries = 0;
  switch (variant) {
    case Variant::kBase:
      failure = runValid(testCase, false, cacheKey, options, &cacheEntries);
      break;
    case Variant::kDynamicOutputShape:
      failure = runValid(testCase, true, cacheKey, options, &cacheEntries);
      break;
    case Variant::kQuantizationCoupling:
      failure =
          runValid(makeQuantizationCoupling(testCase), false, cacheKey, options, &cacheEntries);
      break;
    case Variant::kDeviceMemory: {
      RunOptions deviceMemoryOptions = options;
      deviceMemoryOptions.deviceMemory = true;
      failure = runValid(testCase, false, cacheKey, deviceMemoryOptions, &cacheEntries);
      break;
    }
  }
  if (failure) return failed(std::move(*failure));
  CaseResult result = passed();
  result.cacheEntries = cacheEntries;
  return result;
}

const char* modeName(ComputeMode mode) {
  switch (mode) {
    case ComputeMode::kSync: return "sync";
    case ComputeMode::kAsync: return "async";
    case ComputeMode::kBurst: return "burst";
    case ComputeMode::kFenced: return "fenced";
  }
  return "?";
}

const char* variantSuffix(Variant variant) {
  switch (variant) {
    case Variant::kBase: return "";
    case Variant::kDynamicOutputShape: return "#dynamic_output_shape";
    case Variant::kQuantizationCoupling: return "#quant_coupling";
    case Variant::kDeviceMemory: return "#device_memory";
  }
  return "";
}

const char* statusName(Status status) {
  switch (status) {
    case Status::kPassed: return "passed";
    case Status::kFailed: return "failed";
    case Status::kSkipped: return "skipped";
  }
  return "?";
}

}  // namespace annrt::cts
