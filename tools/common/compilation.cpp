// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "compilation.h"

#include <fmt/format.h>

#include <memory>

#include "android/NeuralNetworksExtensions.h"
#include "annrt/compilation_attributes.h"
#include "client/cache_token.h"
#include "client/result_codes.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

std::string describeAvailable(const std::vector<DeviceInfo>& available) {
  if (available.empty()) return "none";
  std::string text;
  for (const DeviceInfo& device : available) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} ({})", device.name, deviceTypeName(device.type));
  }
  return text;
}

Result<DeviceSelection> selectNamed(const std::vector<DeviceInfo>& available,
                                    const std::string& name, const char* flagName) {
  for (const DeviceInfo& device : available) {
    if (device.name == name) return DeviceSelection{false, {device}};
  }
  return toolError("unknown NNAPI device '{}' ({}); available: {}", name, flagName,
                   describeAvailable(available));
}

Result<DeviceSelection> selectNonCpu(const std::vector<DeviceInfo>& available) {
  DeviceSelection selection{false, {}};
  for (const DeviceInfo& device : available) {
    if (device.type != ANEURALNETWORKS_DEVICE_CPU) selection.devices.push_back(device);
  }
  if (selection.devices.empty()) {
    return toolError(
        "--disable_nnapi_cpu=true excludes every CPU-type device, and no other device is "
        "available (devices: {}); drop the flag or name a device with --nnapi_accelerator_name",
        describeAvailable(available));
  }
  return selection;
}

Result<CompilationPtr> createCompilation(ANeuralNetworksModel* model,
                                         const DeviceSelection& selection) {
  ANeuralNetworksCompilation* compilation = nullptr;
  if (selection.runtimeChooses) {
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(ANeuralNetworksCompilation_create(model, &compilation),
                                             "ANeuralNetworksCompilation_create"));
    return CompilationPtr(compilation);
  }
  std::vector<const ANeuralNetworksDevice*> handles;
  handles.reserve(selection.devices.size());
  for (const DeviceInfo& device : selection.devices) handles.push_back(device.handle);
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(
      ANeuralNetworksCompilation_createForDevices(
          model, handles.data(), static_cast<uint32_t>(handles.size()), &compilation),
      "ANeuralNetworksCompilation_createForDevices"));
  return CompilationPtr(compilation);
}

}  // namespace

Result<DeviceSelection> selectDevices(const std::vector<DeviceInfo>& available,
                                      const std::string& acceleratorName, bool excludeCpu,
                                      const char* flagName) {
  if (!acceleratorName.empty()) return selectNamed(available, acceleratorName, flagName);
  if (excludeCpu) return selectNonCpu(available);
  return DeviceSelection{};
}

Result<std::string> addReferenceForUnsupported(ANeuralNetworksModel* model, size_t operationCount,
                                               const std::vector<DeviceInfo>& available,
                                               DeviceSelection& selection) {
  constexpr const char* kReference = "nnapi-reference";
  if (selection.runtimeChooses || operationCount == 0) return std::string();
  std::vector<const ANeuralNetworksDevice*> handles;
  handles.reserve(selection.devices.size());
  for (const DeviceInfo& device : selection.devices) {
    if (device.name == kReference) return std::string();
    handles.push_back(device.handle);
  }
  std::unique_ptr<bool[]> supported(new bool[operationCount]());
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(
      ANeuralNetworksModel_getSupportedOperationsForDevices(
          model, handles.data(), static_cast<uint32_t>(handles.size()), supported.get()),
      "ANeuralNetworksModel_getSupportedOperationsForDevices"));
  size_t unsupported = 0;
  for (size_t i = 0; i < operationCount; ++i) unsupported += supported[i] ? 0 : 1;
  if (unsupported == 0) return std::string();
  for (const DeviceInfo& device : available) {
    if (device.name != kReference) continue;
    const std::string selected = describeSelection(selection);
    selection.devices.push_back(device);
    return fmt::format(
        "{} of {} operations are not supported by {}; they run on {}, as TensorFlow Lite runs "
        "the nodes its NNAPI delegate leaves on its own CPU kernels.",
        unsupported, operationCount, selected, kReference);
  }
  return std::string();
}

std::string describeSelection(const DeviceSelection& selection) {
  if (selection.runtimeChooses) return "runtime's own device selection";
  return joinDeviceNames(selection.devices, ", ");
}

Result<CompilationPtr> compileModel(ANeuralNetworksModel* model, const DeviceSelection& selection,
                                    const CompileSettings& settings) {
  ANNRT_ASSIGN_OR_RETURN(CompilationPtr compilation, createCompilation(model, selection));
  if (settings.preference) {
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(
        ANeuralNetworksCompilation_setPreference(compilation.get(), *settings.preference),
        "ANeuralNetworksCompilation_setPreference"));
  }
  if (!settings.cacheDir.empty() && !settings.cacheToken.empty()) {
    const client::CacheToken token = client::hashCacheToken(settings.cacheToken);
    ANNRT_RETURN_IF_ERROR(
        client::checkNnapi(ANeuralNetworksCompilation_setCaching(
                               compilation.get(), settings.cacheDir.c_str(), token.data()),
                           "ANeuralNetworksCompilation_setCaching"));
  }
  if (settings.numThreads > 0) {
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(
        ANeuralNetworksCompilation_addExtensionAttribute(
            compilation.get(), ANNRT_COMPILATION_EXTENSION, ANNRT_COMPILATION_NUM_THREADS,
            &settings.numThreads, sizeof(settings.numThreads)),
        "ANeuralNetworksCompilation_addExtensionAttribute(ANNRT_COMPILATION_NUM_THREADS)"));
  }
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(ANeuralNetworksCompilation_finish(compilation.get()),
                                           "ANeuralNetworksCompilation_finish"));
  return compilation;
}

}  // namespace annrt::tools
