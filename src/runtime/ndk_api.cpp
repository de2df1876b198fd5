// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The NNAPI C entry points. Each checks its pointers, forwards to the C++
// runtime, logs any error with the function's name and returns its code.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "common/log.h"
#include "runtime/burst.h"
#include "runtime/c_edge.h"
#include "runtime/compilation.h"
#include "runtime/device_manager.h"
#include "runtime/event.h"
#include "runtime/execution.h"
#include "runtime/loop_timeout.h"
#include "runtime/memory.h"
#include "runtime/memory_desc.h"
#include "runtime/model_builder.h"
#include "runtime/trace.h"

using namespace annrt;
using namespace annrt::runtime;

namespace {

// A C handle owns a shared reference, so objects that others depend on (a
// memory used by a model, a compilation used by an execution) live on after
// the application frees them.
template <typename T>
struct Handle {
  std::shared_ptr<T> object;
};

template <typename C, typename T>
C* toC(std::shared_ptr<T> object) {
  return reinterpret_cast<C*>(new (std::nothrow) Handle<T>{std::move(object)});
}

template <typename T, typename C>
Handle<T>* handle(C* c) {
  return reinterpret_cast<Handle<T>*>(const_cast<std::remove_const_t<C>*>(c));
}

template <typename T, typename C>
const std::shared_ptr<T>& object(C* c) {
  return handle<T>(c)->object;
}

template <typename T, typename C>
void freeHandle(C* c) {
  delete handle<T>(c);
}

int report(const char* function, const Error& error) {
  logError("{}: {}", function, error.message);
  return static_cast<int>(error.code);
}

template <typename R>
int toCode(const char* function, const R& result) {
  return result.ok() ? ANEURALNETWORKS_NO_ERROR : report(function, result.error());
}

// An allocation that fails anywhere below an NNAPI call (std::bad_alloc out
// of a container or `new`) is that call's OUT_OF_MEMORY, never an exception
// through the C ABI. Even the log line may fail to allocate.
int outOfMemory(const char* function) noexcept {
  try {
    logError("{}: out of memory", function);
  } catch (...) {
    static constexpr char kLine[] = "E annrt: an NNAPI call ran out of memory\n";
    (void)!write(STDERR_FILENO, kLine, sizeof(kLine) - 1);
  }
  return ANEURALNETWORKS_OUT_OF_MEMORY;
}

// Closes the function-try-block of every exported function returning a code.
#define ANNRT_CATCH_OUT_OF_MEMORY \
  catch (const std::bad_alloc&) { \
    return outOfMemory(__func__); \
  }

int unexpectedNull(const char* function, const char* what) {
  logError("{}: {} is null", function, what);
  return ANEURALNETWORKS_UNEXPECTED_NULL;
}

// The application-layer span of an NNAPI call, for ANNRT_TRACE.
#define ANNRT_TRACE_CALL(phase) TraceSpan annrt_call_span(TraceLayer::APPLICATION, phase, __func__)

#define ANNRT_REQUIRE(pointer) \
  if ((pointer) == nullptr) return unexpectedNull(__func__, #pointer)

ModelBuilder& builder(const ANeuralNetworksModel* model) {
  return *object<ModelBuilder>(model);
}

}  // namespace

// ---- Devices ----

ANNRT_EXPORT int ANeuralNetworks_getDeviceCount(uint32_t* numDevices) try {
  ANNRT_REQUIRE(numDevices);
  *numDevices = static_cast<uint32_t>(DeviceManager::get().devices().size());
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device) try {
  ANNRT_REQUIRE(device);
  const auto& devices = DeviceManager::get().devices();
  if (devIndex >= devices.size()) {
    *device = nullptr;
    return report(__func__, makeError(ErrorCode::BAD_DATA, "device index {} out of range ({})",
                                      devIndex, devices.size()));
  }
  *device = reinterpret_cast<ANeuralNetworksDevice*>(devices[devIndex].get());
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device,
                                               const char** name) try {
  ANNRT_REQUIRE(device);
  ANNRT_REQUIRE(name);
  *name = toDevice(device)->name().c_str();
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device,
                                               int32_t* type) try {
  ANNRT_REQUIRE(device);
  ANNRT_REQUIRE(type);
  *type = toDevice(device)->type();
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device,
                                                  const char** version) try {
  ANNRT_REQUIRE(device);
  ANNRT_REQUIRE(version);
  *version = toDevice(device)->version().c_str();
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                                       int64_t* featureLevel) try {
  ANNRT_REQUIRE(device);
  ANNRT_REQUIRE(featureLevel);
  // As AOSP: no device offers more than the runtime does.
  *featureLevel = std::min(toDevice(device)->featureLevel(), featureLevelCode(kMaxFeatureLevel));
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device) try {
  ANNRT_REQUIRE(device);
  return ANEURALNETWORKS_NO_ERROR;  // in-process devices are always live
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device,
                                                           const char* extensionName,
                                                           bool* isExtensionSupported) try {
  ANNRT_REQUIRE(device);
  ANNRT_REQUIRE(extensionName);
  ANNRT_REQUIRE(isExtensionSupported);
  *isExtensionSupported = toDevice(device)->supportsExtension(extensionName);
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) {
  return featureLevelCode(kMaxFeatureLevel);
}

ANNRT_EXPORT uint64_t ANeuralNetworks_getDefaultLoopTimeout(void) {
  return kDefaultLoopTimeoutNs;
}

ANNRT_EXPORT uint64_t ANeuralNetworks_getMaximumLoopTimeout(void) {
  return kMaximumLoopTimeoutNs;
}

// ---- Memories ----

ANNRT_EXPORT int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                                    ANeuralNetworksMemory** memory) try {
  ANNRT_REQUIRE(memory);
  *memory = nullptr;
  auto created = Memory::fromFd(size, protect, fd, offset);
  if (!created.ok()) return report(__func__, created.error());
  *memory = toC<ANeuralNetworksMemory>(std::move(created).value());
  return *memory ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksMemory_createFromAHardwareBuffer(
    const AHardwareBuffer* ahwb, ANeuralNetworksMemory** memory) try {
  ANNRT_REQUIRE(ahwb);
  ANNRT_REQUIRE(memory);
  *memory = nullptr;
  return toCode(__func__, Memory::fromAHardwareBuffer());
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory) {
  freeHandle<Memory>(memory);
}

ANNRT_EXPORT int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc) try {
  ANNRT_REQUIRE(desc);
  *desc = toC<ANeuralNetworksMemoryDesc>(std::make_shared<MemoryDescBuilder>());
  return *desc ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc) {
  freeHandle<MemoryDescBuilder>(desc);
}

static int addRole(const char* function, ANeuralNetworksMemoryDesc* desc,
                   const ANeuralNetworksCompilation* compilation, uint32_t index, float frequency,
                   bool isInput) {
  if (desc == nullptr) return unexpectedNull(function, "desc");
  if (compilation == nullptr) return unexpectedNull(function, "compilation");
  return toCode(function, object<MemoryDescBuilder>(desc)->addRole(object<Compilation>(compilation),
                                                                   index, isInput, frequency));
}

ANNRT_EXPORT int ANeuralNetworksMemoryDesc_addInputRole(
    ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation, uint32_t index,
    float frequency) try {
  return addRole(__func__, desc, compilation, index, frequency, true);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksMemoryDesc_addOutputRole(
    ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation, uint32_t index,
    float frequency) try {
  return addRole(__func__, desc, compilation, index, frequency, false);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc,
                                                         uint32_t rank,
                                                         const uint32_t* dimensions) try {
  ANNRT_REQUIRE(desc);
  if (rank > 0) ANNRT_REQUIRE(dimensions);
  return toCode(__func__, object<MemoryDescBuilder>(desc)->setDimensions({dimensions, rank}));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc) try {
  ANNRT_REQUIRE(desc);
  return toCode(__func__, object<MemoryDescBuilder>(desc)->finish());
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                                      ANeuralNetworksMemory** memory) try {
  ANNRT_REQUIRE(memory);
  *memory = nullptr;
  ANNRT_REQUIRE(desc);
  auto created = object<MemoryDescBuilder>(desc)->createMemory();
  if (!created.ok()) return report(__func__, created.error());
  *memory = toC<ANeuralNetworksMemory>(std::move(created).value());
  return *memory ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src,
                                            const ANeuralNetworksMemory* dst) try {
  ANNRT_REQUIRE(src);
  ANNRT_REQUIRE(dst);
  return toCode(__func__, Memory::copy(*object<Memory>(src), *object<Memory>(dst)));
}
ANNRT_CATCH_OUT_OF_MEMORY

// ---- Models ----

ANNRT_EXPORT int ANeuralNetworksModel_create(ANeuralNetworksModel** model) try {
  ANNRT_REQUIRE(model);
  *model = toC<ANeuralNetworksModel>(std::make_shared<ModelBuilder>());
  return *model ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksModel_free(ANeuralNetworksModel* model) {
  ANNRT_TRACE_CALL(TracePhase::TERMINATION);
  freeHandle<ModelBuilder>(model);
}

ANNRT_EXPORT int ANeuralNetworksModel_finish(ANeuralNetworksModel* model) try {
  ANNRT_TRACE_CALL(TracePhase::PREPARATION);
  ANNRT_REQUIRE(model);
  return toCode(__func__, builder(model).finish());
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model,
                                                 const ANeuralNetworksOperandType* type) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(type);
  return toCode(__func__, builder(model).addOperand(*type));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index,
                                                      const void* buffer, size_t length) try {
  ANNRT_REQUIRE(model);
  if (buffer == nullptr && length != 0) ANNRT_REQUIRE(buffer);
  return toCode(__func__, builder(model).setOperandValue(index, buffer, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
    ANeuralNetworksModel* model, int32_t index,
    const ANeuralNetworksSymmPerChannelQuantParams* channelQuant) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(channelQuant);
  return toCode(__func__, builder(model).setOperandSymmPerChannelQuantParams(index, *channelQuant));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model,
                                                                int32_t index,
                                                                const ANeuralNetworksMemory* memory,
                                                                size_t offset, size_t length) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(memory);
  return toCode(__func__, builder(model).setOperandValueFromMemory(index, object<Memory>(memory),
                                                                   offset, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_setOperandValueFromModel(
    ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksModel* value) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(value);
  return toCode(__func__, builder(model).setOperandValueFromModel(index, builder(value)));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model,
                                                   ANeuralNetworksOperationType type,
                                                   uint32_t inputCount, const uint32_t* inputs,
                                                   uint32_t outputCount,
                                                   const uint32_t* outputs) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(inputs);
  ANNRT_REQUIRE(outputs);
  return toCode(__func__,
                builder(model).addOperation(type, inputCount, inputs, outputCount, outputs));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model,
                                                               uint32_t inputCount,
                                                               const uint32_t* inputs,
                                                               uint32_t outputCount,
                                                               const uint32_t* outputs) try {
  // As AOSP: null lists are rejected even when their count is 0.
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(inputs);
  ANNRT_REQUIRE(outputs);
  return toCode(__func__,
                builder(model).identifyInputsAndOutputs(inputCount, inputs, outputCount, outputs));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model,
                                                                       bool allow) try {
  ANNRT_REQUIRE(model);
  return toCode(__func__, builder(model).relaxComputationFloat32toFloat16(allow));
}
ANNRT_CATCH_OUT_OF_MEMORY

static Result<std::vector<std::shared_ptr<Device>>> knownDevices(
    const ANeuralNetworksDevice* const* devices, uint32_t numDevices) {
  std::vector<const Device*> list;
  for (uint32_t i = 0; i < numDevices; ++i) list.push_back(toDevice(devices[i]));
  return DeviceManager::get().findAll(list);
}

ANNRT_EXPORT int ANeuralNetworksModel_getSupportedOperationsForDevices(
    const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
    uint32_t numDevices, bool* supportedOps) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(devices);
  ANNRT_REQUIRE(supportedOps);
  if (numDevices == 0) {
    return report(__func__, makeError(ErrorCode::BAD_DATA, "no devices given"));
  }
  const ModelBuilder& m = builder(model);
  if (!m.isFinished()) {
    return report(__func__, makeError(ErrorCode::BAD_STATE, "the model is not finished"));
  }
  auto selected = knownDevices(devices, numDevices);
  if (!selected.ok()) return report(__func__, selected.error());
  const std::vector<bool> supported = operationsSupportedByAny(*m.model(), *selected, m.facts());
  std::copy(supported.begin(), supported.end(), supportedOps);
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel* model,
                                                              const char* extensionName,
                                                              uint16_t operandCodeWithinExtension,
                                                              int32_t* type) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(extensionName);
  ANNRT_REQUIRE(type);
  auto result = builder(model).getExtensionType(extensionName, operandCodeWithinExtension);
  if (!result.ok()) return report(__func__, result.error());
  *type = *result;
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_getExtensionOperationType(
    ANeuralNetworksModel* model, const char* extensionName, uint16_t operationCodeWithinExtension,
    ANeuralNetworksOperationType* type) try {
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(extensionName);
  ANNRT_REQUIRE(type);
  auto result = builder(model).getExtensionType(extensionName, operationCodeWithinExtension);
  if (!result.ok()) return report(__func__, result.error());
  *type = *result;
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel* model,
                                                              int32_t index, const void* data,
                                                              size_t length) try {
  ANNRT_REQUIRE(model);
  if (length != 0) ANNRT_REQUIRE(data);
  return toCode(__func__, builder(model).setOperandExtensionData(index, data, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

// ---- Compilations ----

static int createCompilation(const char* function, ANeuralNetworksModel* model,
                             std::vector<std::shared_ptr<Device>> devices, bool explicitDevices,
                             ANeuralNetworksCompilation** compilation) {
  const ModelBuilder& m = builder(model);
  if (!m.isFinished()) {
    return report(function, makeError(ErrorCode::BAD_STATE, "the model is not finished"));
  }
  *compilation = toC<ANeuralNetworksCompilation>(
      std::make_shared<Compilation>(m.model(), m.facts(), std::move(devices), explicitDevices));
  return *compilation ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

ANNRT_EXPORT int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                                   ANeuralNetworksCompilation** compilation) try {
  ANNRT_REQUIRE(compilation);
  *compilation = nullptr;
  ANNRT_REQUIRE(model);
  return createCompilation(__func__, model, DeviceManager::get().devices(), false, compilation);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_createForDevices(
    ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices, uint32_t numDevices,
    ANeuralNetworksCompilation** compilation) try {
  ANNRT_REQUIRE(compilation);
  *compilation = nullptr;
  ANNRT_REQUIRE(model);
  ANNRT_REQUIRE(devices);
  if (numDevices == 0) {
    return report(__func__, makeError(ErrorCode::BAD_DATA, "no devices given"));
  }
  auto selected = knownDevices(devices, numDevices);
  if (!selected.ok()) return report(__func__, selected.error());
  return createCompilation(__func__, model, std::move(selected).value(), true, compilation);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation) {
  ANNRT_TRACE_CALL(TracePhase::TERMINATION);
  freeHandle<Compilation>(compilation);
}

ANNRT_EXPORT int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                                          int32_t preference) try {
  ANNRT_REQUIRE(compilation);
  return toCode(__func__, object<Compilation>(compilation)->setPreference(preference));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation,
                                                        int priority) try {
  ANNRT_REQUIRE(compilation);
  return toCode(__func__, object<Compilation>(compilation)->setPriority(priority));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                                       uint64_t duration) try {
  ANNRT_REQUIRE(compilation);
  return toCode(__func__, object<Compilation>(compilation)->setTimeout(duration));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                                       const char* cacheDir,
                                                       const uint8_t* token) try {
  ANNRT_REQUIRE(compilation);
  ANNRT_REQUIRE(cacheDir);
  ANNRT_REQUIRE(token);
  return toCode(__func__, object<Compilation>(compilation)->setCaching(cacheDir, token));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation) try {
  ANNRT_TRACE_CALL(TracePhase::COMPILATION);
  ANNRT_REQUIRE(compilation);
  return toCode(__func__, object<Compilation>(compilation)->finish());
}
ANNRT_CATCH_OUT_OF_MEMORY

static int preferred(const char* function, const ANeuralNetworksCompilation* compilation,
                     uint32_t index, uint32_t* value, bool isInput, bool alignment) {
  if (compilation == nullptr) return unexpectedNull(function, "compilation");
  if (value == nullptr) return unexpectedNull(function, "value");
  const Compilation& c = *object<Compilation>(compilation);
  auto result =
      alignment ? c.preferredAlignment(index, isInput) : c.preferredPadding(index, isInput);
  if (!result.ok()) return report(function, result.error());
  *value = *result;
  return ANEURALNETWORKS_NO_ERROR;
}

ANNRT_EXPORT int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment) try {
  return preferred(__func__, compilation, index, alignment, true, true);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding) try {
  return preferred(__func__, compilation, index, padding, true, false);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment) try {
  return preferred(__func__, compilation, index, alignment, false, true);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding) try {
  return preferred(__func__, compilation, index, padding, false, false);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksCompilation_addExtensionAttribute(
    ANeuralNetworksCompilation* compilation, const char* extensionName,
    uint16_t attributeCodeWithinExtension, const void* data, size_t length) try {
  ANNRT_REQUIRE(compilation);
  ANNRT_REQUIRE(extensionName);
  if (data == nullptr && length > 0) return unexpectedNull(__func__, "data");
  return toCode(__func__, object<Compilation>(compilation)
                              ->addExtensionAttribute(extensionName, attributeCodeWithinExtension,
                                                      data, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

// ---- Executions ----

static Execution& execution(ANeuralNetworksExecution* e) {
  return *object<Execution>(e);
}

ANNRT_EXPORT int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation,
                                                 ANeuralNetworksExecution** execution) try {
  ANNRT_REQUIRE(execution);
  *execution = nullptr;
  ANNRT_REQUIRE(compilation);
  const auto& c = object<Compilation>(compilation);
  if (!c->isPrepared()) {
    return report(__func__, makeError(ErrorCode::BAD_STATE, "the compilation {}",
                                      c->isFinished() ? "failed" : "is not finished"));
  }
  *execution = toC<ANeuralNetworksExecution>(std::make_shared<Execution>(c));
  return *execution ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution) {
  ANNRT_TRACE_CALL(TracePhase::TERMINATION);
  freeHandle<Execution>(execution);
}

ANNRT_EXPORT int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* e, int32_t index,
                                                   const ANeuralNetworksOperandType* type,
                                                   const void* buffer, size_t length) try {
  ANNRT_TRACE_CALL(TracePhase::INPUT_OUTPUT);
  ANNRT_REQUIRE(e);
  if (buffer == nullptr && length != 0) ANNRT_REQUIRE(buffer);
  return toCode(__func__, execution(e).setArgument(true, index, type, buffer, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* e,
                                                             int32_t index,
                                                             const ANeuralNetworksOperandType* type,
                                                             const ANeuralNetworksMemory* memory,
                                                             size_t offset, size_t length) try {
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(memory);
  return toCode(__func__, execution(e).setArgumentFromMemory(
                              true, index, type, object<Memory>(memory), offset, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* e, int32_t index,
                                                    const ANeuralNetworksOperandType* type,
                                                    void* buffer, size_t length) try {
  ANNRT_TRACE_CALL(TracePhase::INPUT_OUTPUT);
  ANNRT_REQUIRE(e);
  if (buffer == nullptr && length != 0) ANNRT_REQUIRE(buffer);
  return toCode(__func__, execution(e).setArgument(false, index, type, buffer, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setOutputFromMemory(
    ANeuralNetworksExecution* e, int32_t index, const ANeuralNetworksOperandType* type,
    const ANeuralNetworksMemory* memory, size_t offset, size_t length) try {
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(memory);
  return toCode(__func__, execution(e).setArgumentFromMemory(
                              false, index, type, object<Memory>(memory), offset, length));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* e) try {
  ANNRT_TRACE_CALL(TracePhase::EXECUTION);
  ANNRT_REQUIRE(e);
  return toCode(__func__, execution(e).compute());
}
ANNRT_CATCH_OUT_OF_MEMORY

static int start(const char* function, ANeuralNetworksExecution* e,
                 const std::vector<const Event*>& dependencies, uint64_t duration, bool fenced,
                 ANeuralNetworksEvent** event) {
  auto started = execution(e).startCompute(dependencies, duration, fenced);
  if (!started.ok()) return report(function, started.error());
  *event = reinterpret_cast<ANeuralNetworksEvent*>(std::move(started).value().release());
  return ANEURALNETWORKS_NO_ERROR;
}

ANNRT_EXPORT int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* e,
                                                       ANeuralNetworksEvent** event) try {
  ANNRT_REQUIRE(event);
  *event = nullptr;
  ANNRT_REQUIRE(e);
  return start(__func__, e, {}, 0, false, event);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_startComputeWithDependencies(
    ANeuralNetworksExecution* e, const ANeuralNetworksEvent* const* dependencies,
    uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event) try {
  ANNRT_REQUIRE(event);
  *event = nullptr;
  ANNRT_REQUIRE(e);
  if (num_dependencies > 0) ANNRT_REQUIRE(dependencies);
  std::vector<const Event*> waitFor;
  for (uint32_t i = 0; i < num_dependencies; ++i) {
    ANNRT_REQUIRE(dependencies[i]);
    waitFor.push_back(reinterpret_cast<const Event*>(dependencies[i]));
  }
  return start(__func__, e, waitFor, duration, true, event);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* e,
                                                           bool measure) try {
  ANNRT_REQUIRE(e);
  return toCode(__func__, execution(e).setMeasureTiming(measure));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* e,
                                                      int32_t durationCode,
                                                      uint64_t* duration) try {
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(duration);
  auto result = object<Execution>(e)->duration(durationCode);
  if (!result.ok()) {
    // As AOSP: a duration that cannot be given reads UINT64_MAX; a bad code leaves it.
    if (result.error().code == ErrorCode::BAD_STATE) *duration = UINT64_MAX;
    return report(__func__, result.error());
  }
  *duration = *result;
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* e,
                                                     uint64_t duration) try {
  ANNRT_REQUIRE(e);
  return toCode(__func__, execution(e).setTimeout(duration));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* e,
                                                         uint64_t duration) try {
  ANNRT_REQUIRE(e);
  return toCode(__func__, execution(e).setLoopTimeout(duration));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* e,
                                                      bool reusable) try {
  ANNRT_REQUIRE(e);
  return toCode(__func__, execution(e).setReusable(reusable));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* e,
                                                                      bool enable) try {
  ANNRT_REQUIRE(e);
  return toCode(__func__, execution(e).enableInputAndOutputPadding(enable));
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* e,
                                                               int32_t index, uint32_t* rank) try {
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(rank);
  auto shape = execution(e).outputShape(index);
  if (!shape.ok()) return report(__func__, shape.error());
  *rank = static_cast<uint32_t>(shape->dims.size());
  return shape->isSufficient ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* e,
                                                                     int32_t index,
                                                                     uint32_t* dimensions) try {
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(dimensions);
  ANNRT_TRACE_CALL(TracePhase::RESULTS);
  auto shape = execution(e).outputShape(index);
  if (!shape.ok()) return report(__func__, shape.error());
  if (shape->dims.empty()) {
    return report(__func__, makeError(ErrorCode::BAD_DATA,
                                      "output {} is a scalar and has no dimensions", index));
  }
  std::copy(shape->dims.begin(), shape->dims.end(), dimensions);
  return shape->isSufficient ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksExecution_addExtensionAttribute(
    ANeuralNetworksExecution* e, const char* extensionName, uint16_t attributeCodeWithinExtension,
    const void* data, size_t length) try {
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(extensionName);
  if (data == nullptr && length > 0) return unexpectedNull(__func__, "data");
  return toCode(__func__, execution(e).addExtensionAttribute(extensionName));
}
ANNRT_CATCH_OUT_OF_MEMORY

// ---- Bursts ----

ANNRT_EXPORT int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                             ANeuralNetworksBurst** burst) try {
  ANNRT_REQUIRE(burst);
  *burst = nullptr;
  ANNRT_REQUIRE(compilation);
  const auto& c = object<Compilation>(compilation);
  if (!c->isPrepared()) {
    return report(__func__, makeError(ErrorCode::BAD_STATE, "the compilation is not finished"));
  }
  *burst = toC<ANeuralNetworksBurst>(std::make_shared<Burst>(c));
  return *burst ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst) {
  freeHandle<Burst>(burst);
}

ANNRT_EXPORT int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* e,
                                                       ANeuralNetworksBurst* burst) try {
  ANNRT_TRACE_CALL(TracePhase::EXECUTION);
  ANNRT_REQUIRE(e);
  ANNRT_REQUIRE(burst);
  Burst& b = *object<Burst>(burst);
  if (b.compilation() != &execution(e).compilation()) {
    return report(__func__, makeError(ErrorCode::BAD_DATA,
                                      "the burst and the execution use different compilations"));
  }
  std::unique_lock<std::mutex> lock(b.busy(), std::try_to_lock);
  if (!lock.owns_lock()) {
    return report(__func__, makeError(ErrorCode::BAD_STATE,
                                      "the burst is already running another execution"));
  }
  return toCode(__func__, execution(e).compute());
}
ANNRT_CATCH_OUT_OF_MEMORY

// ---- Events ----

ANNRT_EXPORT int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event) try {
  ANNRT_TRACE_CALL(TracePhase::EXECUTION);
  ANNRT_REQUIRE(event);
  const ErrorCode status = reinterpret_cast<Event*>(event)->wait();
  return static_cast<int>(status);
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event) {
  delete reinterpret_cast<Event*>(event);
}

ANNRT_EXPORT int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd,
                                                            ANeuralNetworksEvent** event) try {
  ANNRT_REQUIRE(event);
  *event = nullptr;
  auto created = Event::fromSyncFence(sync_fence_fd);
  if (!created.ok()) return report(__func__, created.error());
  *event = reinterpret_cast<ANeuralNetworksEvent*>(std::move(created).value().release());
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY

ANNRT_EXPORT int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event,
                                                     int* sync_fence_fd) try {
  ANNRT_REQUIRE(sync_fence_fd);
  *sync_fence_fd = -1;
  ANNRT_REQUIRE(event);
  auto fd = reinterpret_cast<const Event*>(event)->syncFenceFd();
  if (!fd.ok()) return report(__func__, fd.error());
  *sync_fence_fd = *fd;
  return ANEURALNETWORKS_NO_ERROR;
}
ANNRT_CATCH_OUT_OF_MEMORY
