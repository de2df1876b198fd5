// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/exported_device.h"

#include <algorithm>
#include <cstring>

#include "driver_abi/abi_model.h"
#include "driver_abi/request_validation.h"

struct AnnrtPreparedModel {
  std::shared_ptr<annrt::PreparedModel> prepared;
  std::shared_ptr<const annrt::Model> model;  // borrows the runtime's constants
};

namespace {
// The runtime keeps cached bytes valid until release() of the prepared model
// built from them, which outlives the C++ prepared model: no owner needed.
void keepNothing(const void* /*bytes*/) {}
}  // namespace

namespace annrt::abi {
namespace {

using Exported = DeviceExporter::Exported;

AnnrtPerformance toAbi(PerformanceInfo p) {
  return {p.execTime, p.powerUsage};
}

std::optional<Clock::time_point> fromAbiDeadline(int64_t ns) {
  if (ns < 0) return std::nullopt;
  return Clock::time_point(std::chrono::nanoseconds(ns));
}

void writeMessage(AnnrtMessage* message, const std::string& text) {
  if (message == nullptr) return;
  const size_t length = std::min(text.size(), sizeof(message->text) - 1);
  std::memcpy(message->text, text.data(), length);
  message->text[length] = '\0';
}

Exported* exportedOf(void* context);

int32_t getCapabilities(void* context, AnnrtCapabilities* out);
int32_t getSupportedOperations(void* context, const AnnrtModel* model, bool* supported);
bool supportsExtension(void* context, const char* name);
int32_t prepare(void* context, const AnnrtModel* model, const AnnrtPrepareOptions* options,
                AnnrtPreparedModel** prepared, AnnrtMessage* message);
int32_t execute(AnnrtPreparedModel* prepared, const AnnrtRequest* request,
                const AnnrtExecuteOptions* options, const AnnrtResultSink* sink,
                AnnrtMessage* message);
int32_t serialize(AnnrtPreparedModel* prepared, const AnnrtCacheWriter* writer,
                  AnnrtMessage* message);
int32_t prepareFromCache(void* context, const AnnrtModel* model, const AnnrtPrepareOptions* options,
                         const void* data, size_t length, AnnrtPreparedModel** prepared,
                         AnnrtMessage* message);
int32_t writeCacheSettings(void* context, const AnnrtCacheWriter* writer);
void release(AnnrtPreparedModel* prepared) {
  delete prepared;
}

}  // namespace

DeviceExporter::DeviceExporter(std::string driverName, std::vector<std::shared_ptr<Device>> devices)
    : name_(std::move(driverName)) {
  for (auto& device : devices) {
    auto exported = std::make_unique<Exported>();
    for (const auto& [type, performance] : device->capabilities().operandPerformance) {
      exported->operandPerformance.push_back({static_cast<int32_t>(type), toAbi(performance)});
    }
    exported->device = std::move(device);
    AnnrtDevice abi{};
    abi.size = sizeof(AnnrtDevice);
    abi.name = exported->device->name().c_str();
    abi.version = exported->device->version().c_str();
    abi.type = exported->device->type();
    abi.featureLevel = exported->device->featureLevel();
    abi.context = exported.get();
    abi.getCapabilities = getCapabilities;
    abi.getSupportedOperations = getSupportedOperations;
    abi.supportsExtension = supportsExtension;
    abi.prepare = prepare;
    abi.execute = execute;
    abi.release = release;
    if (exported->device->supportsCaching()) {
      abi.serialize = serialize;
      abi.prepareFromCache = prepareFromCache;
      abi.writeCacheSettings = writeCacheSettings;
    }
    devices_.push_back(abi);
    exported_.push_back(std::move(exported));
  }
  driver_.abiVersion = ANNRT_DRIVER_ABI_VERSION;
  driver_.size = sizeof(AnnrtDriver);
  driver_.name = name_.c_str();
  driver_.deviceCount = static_cast<uint32_t>(devices_.size());
  driver_.devices = devices_.data();
}

namespace {

Exported* exportedOf(void* context) {
  return static_cast<Exported*>(context);
}

int32_t getCapabilities(void* context, AnnrtCapabilities* out) {
  const Exported& exported = *exportedOf(context);
  const Capabilities& caps = exported.device->capabilities();
  out->relaxedFloat32toFloat16Scalar = toAbi(caps.relaxedFloat32toFloat16Scalar);
  out->relaxedFloat32toFloat16Tensor = toAbi(caps.relaxedFloat32toFloat16Tensor);
  out->ifPerformance = toAbi(caps.ifPerformance);
  out->whilePerformance = toAbi(caps.whilePerformance);
  out->defaultPerformance = toAbi(caps.defaultPerformance);
  out->operandPerformanceCount = static_cast<uint32_t>(exported.operandPerformance.size());
  out->operandPerformance = exported.operandPerformance.data();
  return 0;
}

int32_t getSupportedOperations(void* context, const AnnrtModel* model, bool* supported) {
  const auto converted = modelFromAbi(*model);
  if (!converted.ok()) {
    // An invalid model has no supported operation (AOSP's drivers fail the
    // call as well).
    std::fill_n(supported, model->main.operationCount, false);
    return static_cast<int32_t>(converted.error().code);
  }
  const std::vector<bool> flags = exportedOf(context)->device->supportedOperations(**converted);
  for (size_t i = 0; i < model->main.operationCount; ++i) {
    supported[i] = i < flags.size() && flags[i];
  }
  return 0;
}

bool supportsExtension(void* context, const char* name) {
  return exportedOf(context)->device->supportsExtension(name);
}

PrepareOptions fromAbi(const AnnrtPrepareOptions& options) {
  PrepareOptions prepareOptions;
  prepareOptions.preference = options.preference;
  prepareOptions.priority = options.priority;
  prepareOptions.deadline = fromAbiDeadline(options.deadlineNs);
  if (options.cacheDir) prepareOptions.cacheDir = options.cacheDir;
  std::memcpy(prepareOptions.token.data(), options.token, ANNRT_CACHE_TOKEN_SIZE);
  prepareOptions.numThreads = options.numThreads;
  return prepareOptions;
}

int32_t handOver(Result<std::shared_ptr<PreparedModel>> result,
                 std::shared_ptr<const Model> converted, AnnrtPreparedModel** prepared,
                 AnnrtMessage* message) {
  if (!result.ok()) {
    writeMessage(message, result.error().message);
    return static_cast<int32_t>(result.error().code);
  }
  *prepared = new AnnrtPreparedModel{std::move(result).value(), std::move(converted)};
  return 0;
}

// The model as the device's C++ interface takes it, or the error written
// into `message`.
Result<std::shared_ptr<const Model>> convertModel(const AnnrtModel& model, AnnrtMessage* message) {
  auto converted = modelFromAbi(model);
  if (!converted.ok()) {
    writeMessage(message, converted.error().message);
    return converted.takeError();
  }
  return std::shared_ptr<const Model>(std::move(converted).value());
}

int32_t prepare(void* context, const AnnrtModel* model, const AnnrtPrepareOptions* options,
                AnnrtPreparedModel** prepared, AnnrtMessage* message) {
  auto converted = convertModel(*model, message);
  if (!converted.ok()) return static_cast<int32_t>(converted.error().code);
  auto result = exportedOf(context)->device->prepareModel(*converted, fromAbi(*options));
  return handOver(std::move(result), std::move(converted).value(), prepared, message);
}

int32_t prepareFromCache(void* context, const AnnrtModel* model, const AnnrtPrepareOptions* options,
                         const void* data, size_t length, AnnrtPreparedModel** prepared,
                         AnnrtMessage* message) {
  auto converted = convertModel(*model, message);
  if (!converted.ok()) return static_cast<int32_t>(converted.error().code);
  const CachedBytes cached{std::shared_ptr<const void>(data, keepNothing),
                           {static_cast<const uint8_t*>(data), length}};
  auto result =
      exportedOf(context)->device->prepareModelFromCache(*converted, cached, fromAbi(*options));
  return handOver(std::move(result), std::move(converted).value(), prepared, message);
}

// The runtime's AnnrtCacheWriter as the device's CacheWriter.
class AbiCacheWriter final : public CacheWriter {
 public:
  explicit AbiCacheWriter(const AnnrtCacheWriter& writer) : writer_(writer) {}
  bool write(std::span<const uint8_t> bytes) override {
    return writer_.write(writer_.context, bytes.data(), bytes.size());
  }

 private:
  const AnnrtCacheWriter& writer_;
};

int32_t writeCacheSettings(void* context, const AnnrtCacheWriter* writer) {
  const std::string settings = exportedOf(context)->device->cacheSettings();
  const bool written = writer->write(writer->context, settings.data(), settings.size());
  return static_cast<int32_t>(written ? ErrorCode::NO_ERROR : ErrorCode::OP_FAILED);
}

int32_t serialize(AnnrtPreparedModel* prepared, const AnnrtCacheWriter* writer,
                  AnnrtMessage* message) {
  AbiCacheWriter out(*writer);
  if (auto written = prepared->prepared->serialize(out); !written.ok()) {
    writeMessage(message, written.error().message);
    return static_cast<int32_t>(written.error().code);
  }
  return 0;
}

Result<std::vector<RequestArgument>> fromAbi(const AnnrtArgument* arguments, uint32_t count) {
  ANNRT_CHECK(count == 0 || arguments != nullptr, "null argument array");
  std::vector<RequestArgument> result;
  for (uint32_t i = 0; i < count; ++i) {
    const AnnrtArgument& a = arguments[i];
    ANNRT_CHECK(a.rank == 0 || a.dimensions != nullptr, "argument {}: null dimensions", i);
    result.push_back({a.omitted, static_cast<uint8_t*>(a.data), a.length,
                      std::vector<uint32_t>(a.dimensions, a.dimensions + a.rank)});
  }
  return result;
}

int32_t execute(AnnrtPreparedModel* prepared, const AnnrtRequest* request,
                const AnnrtExecuteOptions* options, const AnnrtResultSink* sink,
                AnnrtMessage* message) {
  auto inputs = fromAbi(request->inputs, request->inputCount);
  auto outputs = fromAbi(request->outputs, request->outputCount);
  for (const auto* arguments : {&inputs, &outputs}) {
    if (!arguments->ok()) {
      writeMessage(message, arguments->error().message);
      return static_cast<int32_t>(arguments->error().code);
    }
  }
  Request converted{std::move(inputs).value(), std::move(outputs).value()};
  // Devices run the request trusting it fits the model, as the model itself.
  if (auto valid = validateRequest(*prepared->model, converted); !valid.ok()) {
    writeMessage(message, valid.error().message);
    return static_cast<int32_t>(valid.error().code);
  }
  ExecutionOptions executionOptions;
  executionOptions.measureTiming = options->measureTiming;
  executionOptions.profileOperations = options->profileOperations;
  executionOptions.deadline = fromAbiDeadline(options->deadlineNs);
  executionOptions.loopTimeoutNs = options->loopTimeoutNs;
  const ExecutionOutcome outcome = prepared->prepared->execute(converted, executionOptions);
  for (size_t i = 0; i < outcome.outputShapes.size(); ++i) {
    const OutputShape& shape = outcome.outputShapes[i];
    sink->setOutputShape(sink->result, static_cast<uint32_t>(i),
                         static_cast<uint32_t>(shape.dims.size()), shape.dims.data(),
                         shape.isSufficient);
  }
  if (options->measureTiming) {
    sink->setTiming(sink->result, outcome.timing.onDeviceNs, outcome.timing.inDriverNs);
  }
  for (size_t i = 0; i < outcome.operationNs.size(); ++i) {
    sink->setOperationTime(sink->result, static_cast<uint32_t>(i), outcome.operationNs[i]);
  }
  if (outcome.status != ErrorCode::NO_ERROR) writeMessage(message, outcome.message);
  return static_cast<int32_t>(outcome.status);
}

}  // namespace
}  // namespace annrt::abi
