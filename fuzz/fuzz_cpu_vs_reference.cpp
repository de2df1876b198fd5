// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu against nnapi-reference, as ggml tests every backend against its
// CPU one: bytes as a small image model (image_model.h; float32 or 8-bit
// quantized, built by image_model_builder.h), a chain of the operations
// annrt-cpu runs on its own kernels or on XNNPACK, with the shapes, strides,
// paddings, dilations and fused activations the bytes choose and values from
// a seeded generator. Both devices run it on the same input. A finding is a
// crash or UB, annrt-cpu failing a model it said it supports, or an output
// farther from the reference's than rounding explains. A model a device
// refuses is not a finding.
#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/devices.h"
#include "image_model_builder.h"

namespace annrt::fuzz {
namespace {

// Of the output's largest magnitude (at least 1): the devices sum in other
// orders and XNNPACK approximates LOGISTIC and TANH, all far below this; a
// wrong index or a missed padding is far above it.
constexpr float kTolerance = 2e-4f;
// Quantized models: see compare().
constexpr float kQuantizedStepsPerOperation = 2.0f;

// Runs `compilation` on `input` (an image of `dims`, told to the execution
// when the model's are not known); the output's size is known.
int execute(ANeuralNetworksCompilation* compilation, const std::vector<uint8_t>& input,
            const Image& image, bool dimsUnknown, std::vector<uint8_t>& output) {
  ANeuralNetworksExecution* execution = nullptr;
  int status = ANeuralNetworksExecution_create(compilation, &execution);
  if (status != ANEURALNETWORKS_NO_ERROR) return status;
  // Only a compilation for one device takes a timeout; a model of unknown
  // dims is compiled for every device.
  if (!dimsUnknown) ANeuralNetworksExecution_setTimeout(execution, 2'000'000'000);
  const ANeuralNetworksOperandType type = {
      image.type.type, static_cast<uint32_t>(image.dims.size()), image.dims.data(),
      image.type.scale, image.type.zeroPoint};
  status = ANeuralNetworksExecution_setInput(execution, 0, dimsUnknown ? &type : nullptr,
                                             input.data(), input.size());
  if (status == ANEURALNETWORKS_NO_ERROR) {
    status =
        ANeuralNetworksExecution_setOutput(execution, 0, nullptr, output.data(), output.size());
  }
  if (status == ANEURALNETWORKS_NO_ERROR) status = ANeuralNetworksExecution_compute(execution);
  ANeuralNetworksExecution_free(execution);
  return status;
}

struct CompilationDeleter {
  void operator()(ANeuralNetworksCompilation* c) const { ANeuralNetworksCompilation_free(c); }
};
using CompilationPtr = std::unique_ptr<ANeuralNetworksCompilation, CompilationDeleter>;

// The compilation for `device` alone (nullptr: every device, with the
// runtime's fallback), finished; its status in `status`.
CompilationPtr compile(ANeuralNetworksModel* model, const char* device, int& status) {
  ANeuralNetworksCompilation* compilation = nullptr;
  if (device == nullptr) {
    status = ANeuralNetworksCompilation_create(model, &compilation);
  } else {
    const ANeuralNetworksDevice* d = client::findDevice(device);
    status = d == nullptr ? ANEURALNETWORKS_BAD_STATE
                          : ANeuralNetworksCompilation_createForDevices(model, &d, 1, &compilation);
  }
  CompilationPtr owned(compilation);
  if (status == ANEURALNETWORKS_NO_ERROR) status = ANeuralNetworksCompilation_finish(compilation);
  return owned;
}

bool cpuSupportsAll(ANeuralNetworksModel* model, size_t operations) {
  const ANeuralNetworksDevice* cpu = client::findDevice("annrt-cpu");
  std::unique_ptr<bool[]> supported(new bool[operations]);
  if (ANeuralNetworksModel_getSupportedOperationsForDevices(model, &cpu, 1, supported.get()) !=
      ANEURALNETWORKS_NO_ERROR) {
    return false;
  }
  return std::all_of(supported.get(), supported.get() + operations, [](bool s) { return s; });
}

[[noreturn]] void finding(const ImageModelBuilder& model, const std::string& what) {
  fprintf(stderr, "fuzz_cpu_vs_reference: %s\nmodel: input [", what.c_str());
  for (uint32_t d : model.input().dims) fprintf(stderr, " %u", d);
  fprintf(stderr, " ]\n%s", model.description().c_str());
  abort();
}

// Float outputs: within kTolerance of the largest magnitude. Quantized
// ones, dequantized: the two devices round each operation's output to one
// step of its own (XNNPACK in fixed point, the reference in float), and a
// step's difference carries on down the chain, so each operation may add
// kQuantizedStepsPerOperation activation steps, and the output one of its
// own; a wrong zero point, scale or index is many steps off.
void compare(const ImageModelBuilder& model, const std::vector<uint8_t>& cpuBytes,
             const std::vector<uint8_t>& referenceBytes) {
  const TensorType& type = model.current().type;
  const std::vector<float> cpu = Quantization::decode(cpuBytes, type);
  const std::vector<float> reference = Quantization::decode(referenceBytes, type);
  float largest = 1.0f;
  for (float r : reference) {
    if (!std::isfinite(r)) return;  // values that overflowed compare nothing
    largest = std::max(largest, std::fabs(r));
  }
  const float tolerance = model.quantized()
                              ? type.scale + static_cast<float>(model.operationCount()) *
                                                 kQuantizedStepsPerOperation *
                                                 Quantization::activationStep()
                              : kTolerance * largest;
  for (size_t i = 0; i < cpu.size(); ++i) {
    if (!(std::fabs(cpu[i] - reference[i]) <= tolerance)) {
      finding(model, "element " + std::to_string(i) + " of " + std::to_string(cpu.size()) +
                         ": annrt-cpu " + std::to_string(cpu[i]) + ", nnapi-reference " +
                         std::to_string(reference[i]));
    }
  }
}

}  // namespace
}  // namespace annrt::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Every model is new: the automatic cache would only fill the disk.
  setenv("ANNRT_CACHE_CAPACITY", "0", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace annrt::fuzz;
  ByteReader in({data, size});
  Values values(0);
  ImageModelBuilder model(in, values);
  if (!model.build()) return 0;
  const Image& image = model.input();
  const std::vector<uint8_t> input =
      Quantization::encode(values.fill(elementCount(image.dims), 1.0f), image.type);
  const size_t outputBytes =
      elementCount(model.current().dims) * Quantization::elementBytes(model.current().type);
  std::vector<uint8_t> reference(outputBytes);
  int status = 0;
  const bool dynamic = model.dynamicBatch();
  const auto referenceCompilation = compile(model.model(), "nnapi-reference", status);
  if (status != ANEURALNETWORKS_NO_ERROR ||
      execute(referenceCompilation.get(), input, image, dynamic, reference) !=
          ANEURALNETWORKS_NO_ERROR) {
    return 0;
  }
  // With an unknown batch annrt-cpu claims nothing until the first execution
  // brings the dims: every device compiles, and the runtime specializes.
  const bool supported = !dynamic && cpuSupportsAll(model.model(), model.operationCount());
  const auto cpuCompilation = compile(model.model(), dynamic ? nullptr : "annrt-cpu", status);
  if (status != ANEURALNETWORKS_NO_ERROR) {
    if (supported) finding(model, "annrt-cpu supports every operation but its compilation failed");
    return 0;
  }
  std::vector<uint8_t> cpu(outputBytes);
  if (const int ran = execute(cpuCompilation.get(), input, image, dynamic, cpu);
      ran != ANEURALNETWORKS_NO_ERROR) {
    finding(model, "annrt-cpu's execution failed with " + std::to_string(ran));
  }
  compare(model, cpu, reference);
  return 0;
}
