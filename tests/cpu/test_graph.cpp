// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "test_graph.h"

#include <android/NeuralNetworksExtensions.h>

#include <memory>
#include <random>

#include "annrt/compilation_attributes.h"

namespace annrt::test {

size_t elementCount(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::vector<float> randomValues(size_t count, uint32_t seed, float low, float high) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(count);
  for (float& value : values) value = distribution(generator);
  return values;
}

std::vector<uint8_t> randomBytes(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> distribution(0, 255);
  std::vector<uint8_t> values(count);
  for (uint8_t& value : values) value = static_cast<uint8_t>(distribution(generator));
  return values;
}

std::vector<int8_t> randomInt8(size_t count, uint32_t seed, int8_t low, int8_t high) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> distribution(low, high);
  std::vector<int8_t> values(count);
  for (int8_t& value : values) value = static_cast<int8_t>(distribution(generator));
  return values;
}

std::vector<int32_t> randomInt32(size_t count, uint32_t seed, int32_t low, int32_t high) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int32_t> distribution(low, high);
  std::vector<int32_t> values(count);
  for (int32_t& value : values) value = distribution(generator);
  return values;
}

size_t elementSize(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_BOOL8: return 1;
    case ANEURALNETWORKS_TENSOR_FLOAT16: return 2;
    default: return 4;
  }
}

uint32_t TestGraph::tensor(const std::vector<uint32_t>& dims) {
  return builder_.addTensor(dims);
}

uint32_t TestGraph::constant(const std::vector<uint32_t>& dims, const std::vector<float>& values) {
  return builder_.addFloatConstant(dims, values);
}

uint32_t TestGraph::tensor(const std::vector<uint32_t>& dims, const TensorType& type) {
  return builder_.addTensor(dims, type);
}

uint32_t TestGraph::constant(const std::vector<uint32_t>& dims, const TensorType& type,
                             std::vector<uint8_t> bytes) {
  return builder_.addConstant(dims, type, std::move(bytes));
}

uint32_t TestGraph::int32Tensor(const std::vector<uint32_t>& dims,
                                const std::vector<int32_t>& values, float scale) {
  return constant(dims, {ANEURALNETWORKS_TENSOR_INT32, scale, 0}, toBytes(values));
}

uint32_t TestGraph::halfConstant(const std::vector<uint32_t>& dims,
                                 const std::vector<float>& values) {
  std::vector<_Float16> half;
  half.reserve(values.size());
  for (float value : values) half.push_back(static_cast<_Float16>(value));
  return constant(dims, TensorType{ANEURALNETWORKS_TENSOR_FLOAT16}, toBytes(half));
}

uint32_t TestGraph::perChannel(const std::vector<uint32_t>& dims, const std::vector<int8_t>& values,
                               uint32_t channelDim, const std::vector<float>& scales) {
  const uint32_t index =
      constant(dims, {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 0.0f, 0}, toBytes(values));
  builder_.setPerChannelQuant(index, channelDim, scales);
  return index;
}

uint32_t TestGraph::int32(int32_t value) {
  return builder_.addInt32Scalar(value);
}

uint32_t TestGraph::float32(float value) {
  return builder_.addFloat32Scalar(value);
}

uint32_t TestGraph::boolean(bool value) {
  return builder_.addBoolScalar(value);
}

void TestGraph::operation(ANeuralNetworksOperationType type, const std::vector<uint32_t>& inputs,
                          const std::vector<uint32_t>& outputs) {
  builder_.addOperation(type, inputs, outputs);
}

uint32_t TestGraph::conv3x3(uint32_t input, uint32_t inChannels,
                            const std::vector<uint32_t>& outputDims, int32_t activation,
                            uint32_t seed) {
  const uint32_t outChannels = outputDims.back();
  const uint32_t filter = constant({outChannels, 3, 3, inChannels},
                                   randomValues(size_t{outChannels} * 9 * inChannels, seed));
  const uint32_t bias = constant({outChannels}, randomValues(outChannels, seed + 1));
  const uint32_t output = tensor(outputDims);
  operation(ANEURALNETWORKS_CONV_2D,
            {input, filter, bias, int32(ANEURALNETWORKS_PADDING_SAME), int32(1), int32(1),
             int32(activation)},
            {output});
  return output;
}

void TestGraph::finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
  builder_.finish(inputs, outputs);
}

std::vector<bool> TestGraph::supportedBy(const std::string& name) const {
  const ANeuralNetworksDevice* device = findDevice(name);
  const uint32_t operations = builder_.operationCount();
  std::unique_ptr<bool[]> flags(new bool[operations]());
  if (device == nullptr || ANeuralNetworksModel_getSupportedOperationsForDevices(
                               model(), &device, 1, flags.get()) != ANEURALNETWORKS_NO_ERROR) {
    return {};
  }
  return std::vector<bool>(flags.get(), flags.get() + operations);
}

std::vector<std::vector<uint8_t>> TestGraph::runBytes(
    const std::string& name, const std::vector<std::vector<uint8_t>>& inputs,
    const std::vector<size_t>& outputBytes) const {
  std::vector<std::span<const uint8_t>> views(inputs.begin(), inputs.end());
  return runInPlace(name, views, outputBytes);
}

TestGraph::CompilationPtr TestGraph::compile(const std::string& name) const {
  CompilationPtr none(nullptr, ANeuralNetworksCompilation_free);
  const ANeuralNetworksDevice* device = findDevice(name);
  if (device == nullptr) return none;
  ANeuralNetworksCompilation* created = nullptr;
  if (ANeuralNetworksCompilation_createForDevices(model(), &device, 1, &created) !=
      ANEURALNETWORKS_NO_ERROR) {
    return none;
  }
  CompilationPtr compilation(created, ANeuralNetworksCompilation_free);
  const bool ok =
      threadHint_ == 0 || ANeuralNetworksCompilation_addExtensionAttribute(
                              created, ANNRT_COMPILATION_EXTENSION, ANNRT_COMPILATION_NUM_THREADS,
                              &threadHint_, sizeof(threadHint_)) == ANEURALNETWORKS_NO_ERROR;
  if (!ok || ANeuralNetworksCompilation_finish(created) != ANEURALNETWORKS_NO_ERROR) return none;
  return compilation;
}

bool TestGraph::compute(ANeuralNetworksCompilation* compilation,
                        const std::vector<std::span<const uint8_t>>& inputs,
                        const std::vector<std::span<uint8_t>>& outputs) {
  ANeuralNetworksExecution* execution = nullptr;
  bool ok = ANeuralNetworksExecution_create(compilation, &execution) == ANEURALNETWORKS_NO_ERROR;
  for (size_t i = 0; ok && i < inputs.size(); ++i) {
    ok = ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i), nullptr,
                                           inputs[i].data(),
                                           inputs[i].size()) == ANEURALNETWORKS_NO_ERROR;
  }
  for (size_t i = 0; ok && i < outputs.size(); ++i) {
    ok = ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(i), nullptr,
                                            outputs[i].data(),
                                            outputs[i].size()) == ANEURALNETWORKS_NO_ERROR;
  }
  ok = ok && ANeuralNetworksExecution_compute(execution) == ANEURALNETWORKS_NO_ERROR;
  ANeuralNetworksExecution_free(execution);
  return ok;
}

std::vector<std::vector<uint8_t>> TestGraph::runInPlace(
    const std::string& name, const std::vector<std::span<const uint8_t>>& inputs,
    const std::vector<size_t>& outputBytes) const {
  const CompilationPtr compilation = compile(name);
  if (compilation == nullptr) return {};
  std::vector<std::vector<uint8_t>> outputs;
  outputs.reserve(outputBytes.size());
  for (size_t bytes : outputBytes) outputs.emplace_back(bytes);
  const std::vector<std::span<uint8_t>> views(outputs.begin(), outputs.end());
  return compute(compilation.get(), inputs, views) ? outputs : std::vector<std::vector<uint8_t>>{};
}

std::vector<std::vector<float>> TestGraph::run(const std::string& name,
                                               const std::vector<std::vector<float>>& inputs,
                                               const std::vector<size_t>& outputSizes) const {
  std::vector<std::vector<uint8_t>> inputBytes;
  inputBytes.reserve(inputs.size());
  for (const auto& input : inputs) inputBytes.push_back(toBytes(input));
  std::vector<size_t> outputBytes;
  outputBytes.reserve(outputSizes.size());
  for (size_t size : outputSizes) outputBytes.push_back(size * sizeof(float));
  std::vector<std::vector<float>> outputs;
  for (const auto& bytes : runBytes(name, inputBytes, outputBytes)) {
    outputs.emplace_back(bytes.size() / sizeof(float));
    std::memcpy(outputs.back().data(), bytes.data(), bytes.size());
  }
  return outputs;
}

}  // namespace annrt::test
