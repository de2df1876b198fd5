// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/plugin_device.h"

#include <cstring>

#include "common/log.h"
#include "driver_abi/abi_model.h"

namespace annrt::abi {
namespace {

PerformanceInfo fromAbi(AnnrtPerformance p) {
  return {p.execTime, p.powerUsage};
}

int64_t toAbiDeadline(const std::optional<Clock::time_point>& deadline) {
  if (!deadline) return -1;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(deadline->time_since_epoch()).count();
}

std::string messageOf(const AnnrtMessage& message) {
  return std::string(message.text, strnlen(message.text, sizeof(message.text)));
}

// Whether the driver gave both caching callbacks (ABI 1.1; a 1.0 driver's
// struct ends before them).
bool hasCaching(const AnnrtDevice& device) {
  return device.size >= ANNRT_DEVICE_SIZE_1_1 && device.serialize != nullptr &&
         device.prepareFromCache != nullptr;
}

// The driver's writeCacheSettings (ABI 1.2), or null.
auto cacheSettingsWriter(const AnnrtDevice& device) -> decltype(device.writeCacheSettings) {
  return device.size >= sizeof(AnnrtDevice) ? device.writeCacheSettings : nullptr;
}

// Collects what the driver reports through the AnnrtResultSink.
struct ResultCollector {
  ExecutionOutcome outcome;
};

}  // namespace
}  // namespace annrt::abi

struct AnnrtExecuteResult {
  annrt::abi::ResultCollector* collector;
};

namespace annrt::abi {
namespace {

void setOutputShape(AnnrtExecuteResult* result, uint32_t output, uint32_t rank,
                    const uint32_t* dims, bool sufficient) {
  auto& shapes = result->collector->outcome.outputShapes;
  if (output >= shapes.size()) return;
  shapes[output].dims.assign(dims, dims + rank);
  shapes[output].isSufficient = sufficient;
}

void setTiming(AnnrtExecuteResult* result, uint64_t onDeviceNs, uint64_t inDriverNs) {
  result->collector->outcome.timing = {onDeviceNs, inDriverNs};
}

void setOperationTime(AnnrtExecuteResult* result, uint32_t operation, uint64_t ns) {
  auto& times = result->collector->outcome.operationNs;
  if (operation < times.size()) times[operation] = ns;
}

// The driver's sink for bytes it writes for the runtime (a prepared model,
// its cache settings): appended to `out`.
AnnrtCacheWriter abiWriter(CacheWriter& out) {
  return {&out, [](void* context, const void* data, size_t length) {
            return static_cast<CacheWriter*>(context)->write(
                {static_cast<const uint8_t*>(data), length});
          }};
}

class PluginPreparedModel final : public PreparedModel {
 public:
  PluginPreparedModel(std::shared_ptr<void> library, const AnnrtDevice* device,
                      AnnrtPreparedModel* prepared, std::shared_ptr<const Model> model,
                      std::shared_ptr<const void> cacheOwner = nullptr)
      : library_(std::move(library)),
        device_(device),
        prepared_(prepared),
        model_(std::move(model)),
        cacheOwner_(std::move(cacheOwner)) {}
  ~PluginPreparedModel() override { device_->release(prepared_); }

  Result<void> serialize(CacheWriter& out) const override {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, hasCaching(*device_), "device {} caches nothing",
                     device_->name);
    const AnnrtCacheWriter writer = abiWriter(out);
    AnnrtMessage message{};
    const int32_t status = device_->serialize(prepared_, &writer, &message);
    if (status != 0) {
      return Error{static_cast<ErrorCode>(status),
                   fmt::format("{}: {}", device_->name, messageOf(message))};
    }
    return {};
  }

  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override {
    std::vector<AnnrtArgument> inputs = arguments(request.inputs);
    std::vector<AnnrtArgument> outputs = arguments(request.outputs);
    const AnnrtRequest abiRequest{static_cast<uint32_t>(inputs.size()), inputs.data(),
                                  static_cast<uint32_t>(outputs.size()), outputs.data()};
    AnnrtExecuteOptions abiOptions{};
    abiOptions.size = sizeof(abiOptions);
    abiOptions.measureTiming = options.measureTiming;
    abiOptions.profileOperations = options.profileOperations;
    abiOptions.deadlineNs = toAbiDeadline(options.deadline);
    abiOptions.loopTimeoutNs = options.loopTimeoutNs;

    ResultCollector collector;
    for (size_t i = 0; i < request.outputs.size(); ++i) {
      const auto& declared = model_->main.operands[model_->main.outputIndexes[i]].shape.dims;
      collector.outcome.outputShapes.push_back(
          {request.outputs[i].dims.empty() ? declared : request.outputs[i].dims, true});
    }
    if (options.profileOperations) {
      collector.outcome.operationNs.assign(model_->main.operations.size(), 0);
    }
    AnnrtExecuteResult result{&collector};
    const AnnrtResultSink sink{&result, setOutputShape, setTiming, setOperationTime};
    AnnrtMessage message{};
    const int32_t status = device_->execute(prepared_, &abiRequest, &abiOptions, &sink, &message);
    collector.outcome.status = static_cast<ErrorCode>(status);
    if (status != 0) collector.outcome.message = messageOf(message);
    return std::move(collector.outcome);
  }

 private:
  static std::vector<AnnrtArgument> arguments(const std::vector<RequestArgument>& arguments) {
    std::vector<AnnrtArgument> result;
    result.reserve(arguments.size());
    for (const RequestArgument& a : arguments) {
      result.push_back(
          {a.omitted, a.data, a.length, static_cast<uint32_t>(a.dims.size()), a.dims.data()});
    }
    return result;
  }

  std::shared_ptr<void> library_;
  const AnnrtDevice* device_;
  AnnrtPreparedModel* prepared_;
  std::shared_ptr<const Model> model_;
  std::shared_ptr<const void> cacheOwner_;  // the cached bytes the driver may point into
};

class PluginDevice final : public Device {
 public:
  PluginDevice(std::shared_ptr<void> library, const AnnrtDevice* device)
      : library_(std::move(library)),
        device_(device),
        name_(device->name),
        version_(device->version ? device->version : "") {
    AnnrtCapabilities caps{};
    caps.size = sizeof(caps);
    if (device_->getCapabilities(device_->context, &caps) != 0) {
      logWarning("device {} did not report its capabilities; assuming reference speed", name_);
      return;
    }
    capabilities_.relaxedFloat32toFloat16Scalar = fromAbi(caps.relaxedFloat32toFloat16Scalar);
    capabilities_.relaxedFloat32toFloat16Tensor = fromAbi(caps.relaxedFloat32toFloat16Tensor);
    capabilities_.ifPerformance = fromAbi(caps.ifPerformance);
    capabilities_.whilePerformance = fromAbi(caps.whilePerformance);
    capabilities_.defaultPerformance = fromAbi(caps.defaultPerformance);
    for (uint32_t i = 0; i < caps.operandPerformanceCount; ++i) {
      const AnnrtOperandPerformance& p = caps.operandPerformance[i];
      capabilities_.operandPerformance[static_cast<OperandType>(p.type)] = fromAbi(p.performance);
    }
  }

  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return device_->type; }
  int64_t featureLevel() const override { return device_->featureLevel; }
  const Capabilities& capabilities() const override { return capabilities_; }

  std::vector<bool> supportedOperations(const Model& model) const override {
    AbiModelView view(model);
    std::unique_ptr<bool[]> flags(new bool[model.main.operations.size() + 1]());
    if (device_->getSupportedOperations(device_->context, view.get(), flags.get()) != 0) {
      logWarning("device {} failed to report its supported operations", name_);
      return std::vector<bool>(model.main.operations.size(), false);
    }
    return std::vector<bool>(flags.get(), flags.get() + model.main.operations.size());
  }

  Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model> model,
                                                      const PrepareOptions& options) override {
    AbiModelView view(*model);
    const AnnrtPrepareOptions abiOptions = toAbi(options);
    AnnrtPreparedModel* prepared = nullptr;
    AnnrtMessage message{};
    const int32_t status =
        device_->prepare(device_->context, view.get(), &abiOptions, &prepared, &message);
    return wrapPrepared(status, prepared, message, std::move(model), nullptr);
  }

  bool supportsCaching() const override { return hasCaching(*device_); }

  std::string cacheSettings() const override {
    const auto write = cacheSettingsWriter(*device_);
    if (write == nullptr) return {};
    BytesCacheWriter settings;
    const AnnrtCacheWriter writer = abiWriter(settings);
    if (const int32_t status = write(device_->context, &writer); status != 0) {
      // Settings unknown: a key of their own, so that no entry is shared
      // with compilations whose settings were known.
      logWarning("device {} could not write its cache settings (result {})", name_, status);
      return "unknown";
    }
    return "known: " + std::string(settings.bytes.begin(), settings.bytes.end());
  }

  bool isBuiltIn() const override { return library_ == nullptr; }  // no plug-in library

  Result<std::shared_ptr<PreparedModel>> prepareModelFromCache(
      std::shared_ptr<const Model> model, const CachedBytes& cached,
      const PrepareOptions& options) override {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, supportsCaching(), "device {} caches nothing", name_);
    AbiModelView view(*model);
    const AnnrtPrepareOptions abiOptions = toAbi(options);
    AnnrtPreparedModel* prepared = nullptr;
    AnnrtMessage message{};
    const int32_t status =
        device_->prepareFromCache(device_->context, view.get(), &abiOptions, cached.bytes.data(),
                                  cached.bytes.size(), &prepared, &message);
    return wrapPrepared(status, prepared, message, std::move(model), cached.owner);
  }

  bool supportsExtension(const std::string& name) const override {
    return device_->supportsExtension && device_->supportsExtension(device_->context, name.c_str());
  }

 private:
  static AnnrtPrepareOptions toAbi(const PrepareOptions& options) {
    AnnrtPrepareOptions abiOptions{};
    abiOptions.size = sizeof(abiOptions);
    abiOptions.preference = options.preference;
    abiOptions.priority = options.priority;
    abiOptions.deadlineNs = toAbiDeadline(options.deadline);
    abiOptions.cacheDir = options.cacheDir.empty() ? nullptr : options.cacheDir.c_str();
    std::memcpy(abiOptions.token, options.token.data(), ANNRT_CACHE_TOKEN_SIZE);
    abiOptions.numThreads = options.numThreads;
    return abiOptions;
  }

  Result<std::shared_ptr<PreparedModel>> wrapPrepared(int32_t status, AnnrtPreparedModel* prepared,
                                                      const AnnrtMessage& message,
                                                      std::shared_ptr<const Model> model,
                                                      std::shared_ptr<const void> cacheOwner) {
    if (status != 0 || prepared == nullptr) {
      if (prepared != nullptr) device_->release(prepared);
      return Error{status != 0 ? static_cast<ErrorCode>(status) : ErrorCode::OP_FAILED,
                   fmt::format("{}: {}", name_, messageOf(message))};
    }
    return std::shared_ptr<PreparedModel>(std::make_shared<PluginPreparedModel>(
        library_, device_, prepared, std::move(model), std::move(cacheOwner)));
  }

  std::shared_ptr<void> library_;
  const AnnrtDevice* device_;
  std::string name_;
  std::string version_;
  Capabilities capabilities_;
};

}  // namespace

const AnnrtDevice* driverDevice(const AnnrtDriver& driver, uint32_t index) {
  const auto* first = reinterpret_cast<const uint8_t*>(driver.devices);
  return reinterpret_cast<const AnnrtDevice*>(first + size_t{index} * driver.devices[0].size);
}

std::shared_ptr<Device> wrapDevice(std::shared_ptr<void> library, const AnnrtDevice* device) {
  return std::make_shared<PluginDevice>(std::move(library), device);
}

Result<void> validateDriver(const AnnrtDriver* driver) {
  ANNRT_CHECK(driver != nullptr, "annrt_driver_init returned null");
  ANNRT_CHECK(ANNRT_DRIVER_ABI_MAJOR(driver->abiVersion) ==
                  ANNRT_DRIVER_ABI_MAJOR(ANNRT_DRIVER_ABI_VERSION),
              "driver ABI version {}.{} does not match the runtime's {}.{}",
              driver->abiVersion >> 16, driver->abiVersion & 0xffff, ANNRT_DRIVER_ABI_VERSION >> 16,
              ANNRT_DRIVER_ABI_VERSION & 0xffff);
  ANNRT_CHECK(driver->size >= sizeof(AnnrtDriver), "AnnrtDriver of {} bytes, expected {}",
              driver->size, sizeof(AnnrtDriver));
  ANNRT_CHECK(driver->deviceCount == 0 || driver->devices != nullptr, "null device list");
  if (driver->deviceCount > 0) {
    const uint32_t size = driver->devices[0].size;
    ANNRT_CHECK(size >= ANNRT_DEVICE_SIZE_1_0 && size % alignof(AnnrtDevice) == 0,
                "device structs of {} bytes, expected at least {} and a multiple of {}", size,
                ANNRT_DEVICE_SIZE_1_0, alignof(AnnrtDevice));
  }
  for (uint32_t i = 0; i < driver->deviceCount; ++i) {
    const AnnrtDevice& device = *driverDevice(*driver, i);
    ANNRT_CHECK(device.size == driver->devices[0].size,
                "device {} struct of {} bytes, device 0's of {}: they must all be one size", i,
                device.size, driver->devices[0].size);
    ANNRT_CHECK(device.name != nullptr && *device.name != '\0', "device {} has no name", i);
    ANNRT_CHECK(device.getCapabilities && device.getSupportedOperations && device.prepare &&
                    device.execute && device.release,
                "device {} lacks a required callback", device.name);
  }
  return {};
}

}  // namespace annrt::abi
