// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Bytes as a .tflite file: imported (src/tflite), compiled on nnapi-reference
// and run once with zeroed inputs. Malformed files must be errors.
#include <android/NeuralNetworks.h>

#include <vector>

#include "client/devices.h"
#include "tflite/importer.h"

namespace {

// Inputs or outputs above this are not run: a small file may declare huge
// tensors, and one input must stay well under a second.
constexpr size_t kMaxTensorBytes = 4 << 20;
constexpr size_t kMaxFileBytes = 4 << 20;

std::vector<std::vector<uint8_t>> zeroedBuffers(const std::vector<annrt::tflite::TensorInfo>& infos,
                                                bool& tooLarge) {
  std::vector<std::vector<uint8_t>> buffers;
  for (const auto& info : infos) {
    const size_t bytes = info.byteSize();
    tooLarge = tooLarge || bytes > kMaxTensorBytes;
    buffers.emplace_back(tooLarge ? 0 : bytes);
  }
  return buffers;
}

void runOnce(ANeuralNetworksCompilation* compilation, const annrt::tflite::ImportedModel& model) {
  bool tooLarge = false;
  auto inputs = zeroedBuffers(model.inputs(), tooLarge);
  auto outputs = zeroedBuffers(model.outputs(), tooLarge);
  ANeuralNetworksExecution* execution = nullptr;
  if (tooLarge || ANeuralNetworksExecution_create(compilation, &execution) != 0) return;
  ANeuralNetworksExecution_setTimeout(execution, 500'000'000);
  ANeuralNetworksExecution_setLoopTimeout(execution, 10'000'000);
  for (size_t i = 0; i < inputs.size(); ++i) {
    ANeuralNetworksExecution_setInput(execution, i, nullptr, inputs[i].data(), inputs[i].size());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    ANeuralNetworksExecution_setOutput(execution, i, nullptr, outputs[i].data(), outputs[i].size());
  }
  ANeuralNetworksExecution_compute(execution);
  ANeuralNetworksExecution_free(execution);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxFileBytes) return -1;
  auto imported = annrt::tflite::importBuffer({data, size});
  if (!imported.ok()) return 0;
  const ANeuralNetworksDevice* device = annrt::client::findDevice("nnapi-reference");
  ANeuralNetworksCompilation* compilation = nullptr;
  if (ANeuralNetworksCompilation_createForDevices((*imported)->model(), &device, 1, &compilation) !=
      0) {
    return 0;
  }
  ANeuralNetworksCompilation_setTimeout(compilation, 1'000'000'000);
  if (ANeuralNetworksCompilation_finish(compilation) == 0) runOnce(compilation, **imported);
  ANeuralNetworksCompilation_free(compilation);
  return 0;
}
