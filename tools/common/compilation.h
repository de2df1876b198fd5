// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Choosing devices and compiling a model through the NNAPI C API, the way
// TFLite's NNAPI delegate does: a named accelerator or an explicit device list
// goes through ANeuralNetworksCompilation_createForDevices, otherwise the
// runtime picks (ANeuralNetworksCompilation_create).
#pragma once

#include <android/NeuralNetworks.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "devices.h"

namespace annrt::tools {

struct DeviceSelection {
  // true: ANeuralNetworksCompilation_create (the runtime's own selection);
  // false: ANeuralNetworksCompilation_createForDevices(devices).
  bool runtimeChooses = true;
  std::vector<DeviceInfo> devices;
};

// `acceleratorName` non-empty: that device only (an error lists the available
// ones if it does not exist). Else `excludeCpu`: every device whose type is
// not CPU (an error if that leaves none). Else the runtime chooses.
// `flagName` names the flag that gave `acceleratorName`, for the error.
Result<DeviceSelection> selectDevices(const std::vector<DeviceInfo>& available,
                                      const std::string& acceleratorName, bool excludeCpu,
                                      const char* flagName = "--nnapi_accelerator_name");

// TensorFlow Lite's NNAPI delegate hands a named accelerator only the nodes it
// supports and runs the rest on its own CPU kernels. annrt's counterpart of
// those kernels is nnapi-reference: when the explicitly selected devices
// leave some of the model's `operationCount` operations unsupported, it is
// added to the selection. Returns a line saying so, or "" when nothing changed.
Result<std::string> addReferenceForUnsupported(ANeuralNetworksModel* model, size_t operationCount,
                                               const std::vector<DeviceInfo>& available,
                                               DeviceSelection& selection);

// "runtime's own device selection" or "nnapi-reference, other".
std::string describeSelection(const DeviceSelection& selection);

struct CompileSettings {
  std::optional<int32_t> preference;  // PreferenceCode
  std::string cacheDir;               // caching needs both dir and token
  std::string cacheToken;             // hashed to 32 bytes
  uint32_t numThreads = 0;            // > 0: given as ANNRT_COMPILATION_NUM_THREADS
};

struct CompilationDeleter {
  void operator()(ANeuralNetworksCompilation* c) const { ANeuralNetworksCompilation_free(c); }
};
using CompilationPtr = std::unique_ptr<ANeuralNetworksCompilation, CompilationDeleter>;

Result<CompilationPtr> compileModel(ANeuralNetworksModel* model, const DeviceSelection& selection,
                                    const CompileSettings& settings);

}  // namespace annrt::tools
