// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "model_runner.h"

#include <android/NeuralNetworksExtensions.h>
#include <annrt/compilation_attributes.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

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

namespace {

using Compilation = std::unique_ptr<ANeuralNetworksCompilation, CompilationDeleter>;
using Execution = std::unique_ptr<ANeuralNetworksExecution, ExecutionDeleter>;

// Compiles for the named device, or for the runtime's own plan (empty name),
// on `threads` threads (0: the devices' choice), and creates an execution.
Result<std::pair<Compilation, Execution>> prepare(ANeuralNetworksModel* model,
                                                  const std::string& deviceName,
                                                  uint32_t threads = 0) {
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
  Compilation compilation(rawCompilation);
  if (threads != 0) {
    ANNRT_RETURN_IF_ERROR(check(ANeuralNetworksCompilation_addExtensionAttribute(
                                    compilation.get(), ANNRT_COMPILATION_EXTENSION,
                                    ANNRT_COMPILATION_NUM_THREADS, &threads, sizeof(threads)),
                                "addExtensionAttribute"));
  }
  ANNRT_RETURN_IF_ERROR(
      check(ANeuralNetworksCompilation_finish(compilation.get()), "Compilation_finish"));
  ANeuralNetworksExecution* rawExecution = nullptr;
  ANNRT_RETURN_IF_ERROR(
      check(ANeuralNetworksExecution_create(compilation.get(), &rawExecution), "Execution_create"));
  return std::make_pair(std::move(compilation), Execution(rawExecution));
}

Result<void> bindOutputs(ANeuralNetworksExecution* execution,
                         std::vector<std::vector<uint8_t>>& results) {
  for (size_t i = 0; i < results.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(check(ANeuralNetworksExecution_setOutput(
                                    execution, i, nullptr, results[i].data(), results[i].size()),
                                "setOutput"));
  }
  return {};
}

}  // namespace

Result<std::vector<std::vector<uint8_t>>> runModel(ANeuralNetworksModel* model,
                                                   const std::vector<std::vector<uint8_t>>& inputs,
                                                   const std::vector<TensorInfo>& outputs,
                                                   const std::string& deviceName,
                                                   uint32_t threads) {
  ANNRT_ASSIGN_OR_RETURN(auto prepared, prepare(model, deviceName, threads));
  ANeuralNetworksExecution* execution = prepared.second.get();
  for (size_t i = 0; i < inputs.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(check(ANeuralNetworksExecution_setInput(
                                    execution, i, nullptr, inputs[i].data(), inputs[i].size()),
                                "setInput"));
  }
  std::vector<std::vector<uint8_t>> results;
  results.reserve(outputs.size());
  for (const TensorInfo& output : outputs) results.emplace_back(output.byteSize());
  ANNRT_RETURN_IF_ERROR(bindOutputs(execution, results));
  ANNRT_RETURN_IF_ERROR(check(ANeuralNetworksExecution_compute(execution), "compute"));
  return results;
}

Result<std::vector<RunOutput>> runWithInputDims(ANeuralNetworksModel* model,
                                                const std::vector<TensorInfo>& inputs,
                                                const std::vector<std::vector<uint8_t>>& data,
                                                size_t outputCount, size_t outputBytes,
                                                const std::string& deviceName) {
  ANNRT_ASSIGN_OR_RETURN(auto prepared, prepare(model, deviceName));
  ANeuralNetworksExecution* execution = prepared.second.get();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorInfo& input = inputs[i];
    const ANeuralNetworksOperandType type{input.type, static_cast<uint32_t>(input.dims.size()),
                                          input.dims.data(), input.scale, input.zeroPoint};
    ANNRT_RETURN_IF_ERROR(check(
        ANeuralNetworksExecution_setInput(execution, i, &type, data[i].data(), data[i].size()),
        "setInput"));
  }
  std::vector<std::vector<uint8_t>> buffers(outputCount, std::vector<uint8_t>(outputBytes));
  ANNRT_RETURN_IF_ERROR(bindOutputs(execution, buffers));
  ANNRT_RETURN_IF_ERROR(check(ANeuralNetworksExecution_compute(execution), "compute"));
  std::vector<RunOutput> results(outputCount);
  for (size_t i = 0; i < outputCount; ++i) {
    uint32_t rank = 0;
    ANNRT_RETURN_IF_ERROR(
        check(ANeuralNetworksExecution_getOutputOperandRank(execution, i, &rank), "getRank"));
    results[i].dims.resize(rank);
    ANNRT_RETURN_IF_ERROR(check(
        ANeuralNetworksExecution_getOutputOperandDimensions(execution, i, results[i].dims.data()),
        "getOutputOperandDimensions"));
    results[i].bytes = std::move(buffers[i]);
  }
  return results;
}

}  // namespace annrt::tflite::testing
