// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "model_runner.h"

#include <algorithm>
#include <cstring>

#include "client/result_codes.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

// Initial buffer of an output whose size the model does not declare.
constexpr size_t kUnknownOutputBytes = 1 << 20;

size_t initialOutputBytes(const TensorDesc& desc) {
  return desc.fullySpecified() ? std::max<size_t>(desc.byteSize(), 1) : kUnknownOutputBytes;
}

}  // namespace

Result<std::unique_ptr<ModelRunner>> ModelRunner::create(ANeuralNetworksCompilation* compilation,
                                                         std::vector<TensorDesc> declaredInputs,
                                                         std::vector<TensorDesc> inputs,
                                                         std::vector<TensorDesc> outputs) {
  std::unique_ptr<ModelRunner> runner(new ModelRunner());
  runner->compilation_ = compilation;
  for (const TensorDesc& input : inputs) {
    ANNRT_CHECK(input.fullySpecified(),
                "input {} has unknown dimensions [{}]; give them with --input_layer and "
                "--input_layer_shape",
                input.name, formatDims(input.dims));
    ANNRT_CHECK(elementSize(input.type) != 0, "input {} has type {}, which the tools cannot fill",
                input.name, operandTypeName(input.type));
    runner->inputBuffers_.emplace_back(input.byteSize());
  }
  for (const TensorDesc& output : outputs) {
    runner->outputBuffers_.emplace_back(initialOutputBytes(output));
    runner->dynamicOutputs_ = runner->dynamicOutputs_ || !output.fullySpecified();
  }
  runner->declaredInputs_ = std::move(declaredInputs);
  runner->inputs_ = std::move(inputs);
  runner->outputs_ = std::move(outputs);
  ANNRT_RETURN_IF_ERROR(runner->bind());
  return runner;
}

Result<void> ModelRunner::setInput(size_t index, const std::vector<uint8_t>& bytes) {
  ANNRT_CHECK(index < inputs_.size(), "input index {} out of range", index);
  ANNRT_CHECK(bytes.size() == inputs_[index].byteSize(), "input {}: {} bytes given, {} needed",
              inputs_[index].name, bytes.size(), inputs_[index].byteSize());
  std::memcpy(inputBuffers_[index].data(), bytes.data(), bytes.size());
  return {};
}

Result<void> ModelRunner::bind() {
  ANeuralNetworksExecution* execution = nullptr;
  ANNRT_RETURN_IF_ERROR(
      client::checkNnapi(ANeuralNetworksExecution_create(compilation_, &execution),
                         "ANeuralNetworksExecution_create"));
  execution_.reset(execution);
  reusable_ = ANeuralNetworksExecution_setReusable(execution, true) == ANEURALNETWORKS_NO_ERROR;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const TensorDesc& input = inputs_[i];
    const bool needsType = i < declaredInputs_.size() && !declaredInputs_[i].fullySpecified();
    ANeuralNetworksOperandType type{input.type, static_cast<uint32_t>(input.dims.size()),
                                    input.dims.data(), input.scale, input.zeroPoint};
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(
        ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i),
                                          needsType ? &type : nullptr, inputBuffers_[i].data(),
                                          input.byteSize()),
        "ANeuralNetworksExecution_setInput"));
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(
        ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(i), nullptr,
                                           outputBuffers_[i].data(), outputBuffers_[i].size()),
        "ANeuralNetworksExecution_setOutput"));
  }
  return {};
}

// Reads the dims the last compute gave every output.
Result<void> ModelRunner::readOutputDims() {
  for (size_t i = 0; i < outputs_.size(); ++i) {
    uint32_t rank = 0;
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(ANeuralNetworksExecution_getOutputOperandRank(
                                                 execution_.get(), static_cast<int32_t>(i), &rank),
                                             "ANeuralNetworksExecution_getOutputOperandRank"));
    std::vector<uint32_t> dims(rank);
    ANNRT_RETURN_IF_ERROR(
        client::checkNnapi(ANeuralNetworksExecution_getOutputOperandDimensions(
                               execution_.get(), static_cast<int32_t>(i), dims.data()),
                           "ANeuralNetworksExecution_getOutputOperandDimensions"));
    outputs_[i].dims = dims;
  }
  return {};
}

// Resizes every output to the dims the failed compute reported.
Result<void> ModelRunner::growOutputs() {
  ANNRT_RETURN_IF_ERROR(readOutputDims());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    outputBuffers_[i] = ZeroedBytes(outputs_[i].byteSize());
  }
  return bind();
}

Result<int> ModelRunner::compute() {
  if (!execution_) ANNRT_RETURN_IF_ERROR(bind());
  return ANeuralNetworksExecution_compute(execution_.get());
}

Result<void> ModelRunner::run() {
  ANNRT_ASSIGN_OR_RETURN(int code, compute());
  if (code == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
    ANNRT_RETURN_IF_ERROR(growOutputs());
    ANNRT_ASSIGN_OR_RETURN(code, compute());
  }
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(code, "ANeuralNetworksExecution_compute"));
  if (!dynamicOutputs_) {
    if (!reusable_) execution_.reset();
    return {};
  }
  Result<void> dims = readOutputDims();
  if (!reusable_) execution_.reset();
  return dims;
}

std::span<const uint8_t> ModelRunner::outputData(size_t index) const {
  const size_t bytes = std::min(outputs_[index].byteSize(), outputBuffers_[index].size());
  return {outputBuffers_[index].data(), bytes};
}

}  // namespace annrt::tools
