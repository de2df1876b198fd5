// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "model_runner.h"

#include <cmath>
#include <cstring>
#include <memory>

#include "common/device_lookup.h"

namespace annrt::tflite::testing {
namespace {

Result<void> check(int code, const char* what) {
  if (code == ANEURALNETWORKS_NO_ERROR) return {};
  return makeError(static_cast<ErrorCode>(code), "{} failed with code {}", what, code);
}

Result<const ANeuralNetworksDevice*> deviceNamed(const std::string& name) {
  const ANeuralNetworksDevice* device = test::findDevice(name);
  if (device == nullptr) return makeError(ErrorCode::BAD_DATA, "no device {}", name);
  return device;
}

struct CompilationDeleter {
  void operator()(ANeuralNetworksCompilation* c) const { ANeuralNetworksCompilation_free(c); }
};
struct ExecutionDeleter {
  void operator()(ANeuralNetworksExecution* e) const { ANeuralNetworksExecution_free(e); }
};

}  // namespace

std::vector<uint8_t> oracleInput(const TensorInfo& info, size_t k) {
  std::vector<uint8_t> bytes(info.byteSize());
  if (info.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
    auto* values = reinterpret_cast<float*>(bytes.data());
    for (size_t i = 0; i < bytes.size() / 4; ++i) {
      values[i] = static_cast<float>(std::sin(static_cast<double>(i) * 0.01 + k) * 0.5 + 0.5);
    }
  } else {
    const int offset = info.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ? 128 : 0;
    for (size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] = static_cast<uint8_t>((i * 7 + 13 * k) % 256 - offset);
    }
  }
  return bytes;
}

Result<std::vector<std::vector<uint8_t>>> runModel(ANeuralNetworksModel* model,
                                                   const std::vector<std::vector<uint8_t>>& inputs,
                                                   const std::vector<TensorInfo>& outputs,
                                                   const std::string& deviceName) {
  ANeuralNetworksCompilation* rawCompilation = nullptr;
  if (deviceName.empty()) {
    ANNRT_RETURN_IF_ERROR(
        check(ANeuralNetworksCompilation_create(model, &rawCompilation), "Compilation_create"));
  } else {
    ANNRT_ASSIGN_OR_RETURN(const ANeuralNetworksDevice* device, deviceNamed(deviceName));
    ANNRT_RETURN_IF_ERROR(
        check(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &rawCompilation),
              "createForDevices"));
  }
  std::unique_ptr<ANeuralNetworksCompilation, CompilationDeleter> compilation(rawCompilation);
  ANNRT_RETURN_IF_ERROR(
      check(ANeuralNetworksCompilation_finish(compilation.get()), "Compilation_finish"));
  ANeuralNetworksExecution* rawExecution = nullptr;
  ANNRT_RETURN_IF_ERROR(
      check(ANeuralNetworksExecution_create(compilation.get(), &rawExecution), "Execution_create"));
  std::unique_ptr<ANeuralNetworksExecution, ExecutionDeleter> execution(rawExecution);
  for (size_t i = 0; i < inputs.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(
        check(ANeuralNetworksExecution_setInput(execution.get(), i, nullptr, inputs[i].data(),
                                                inputs[i].size()),
              "setInput"));
  }
  std::vector<std::vector<uint8_t>> results;
  for (const TensorInfo& output : outputs) results.emplace_back(output.byteSize());
  for (size_t i = 0; i < results.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(
        check(ANeuralNetworksExecution_setOutput(execution.get(), i, nullptr, results[i].data(),
                                                 results[i].size()),
              "setOutput"));
  }
  ANNRT_RETURN_IF_ERROR(check(ANeuralNetworksExecution_compute(execution.get()), "compute"));
  return results;
}

}  // namespace annrt::tflite::testing
