// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs a compiled model over host buffers: one reusable NNAPI execution
// (feature level 5) bound to the input and output buffers, computed
// synchronously as often as asked. Outputs of unknown size are sized from
// ANeuralNetworksExecution_getOutputOperandDimensions after the first
// OUTPUT_INSUFFICIENT_SIZE.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "common/result.h"
#include "tensor_desc.h"
#include "zeroed_bytes.h"

namespace annrt::tools {

struct ExecutionDeleter {
  void operator()(ANeuralNetworksExecution* e) const { ANeuralNetworksExecution_free(e); }
};

class ModelRunner {
 public:
  // `inputs`: the dims to run with (fully specified); `declaredInputs`: the
  // model's own input types (an input whose declared dims are not fully
  // specified gets its dims through setInput's type argument).
  static Result<std::unique_ptr<ModelRunner>> create(ANeuralNetworksCompilation* compilation,
                                                     std::vector<TensorDesc> declaredInputs,
                                                     std::vector<TensorDesc> inputs,
                                                     std::vector<TensorDesc> outputs);

  // Copies `bytes` (exactly the input's byte size) into input `index`.
  Result<void> setInput(size_t index, const std::vector<uint8_t>& bytes);
  Result<void> run();

  const std::vector<TensorDesc>& inputs() const { return inputs_; }
  // Output descs with the dims of the last run.
  const std::vector<TensorDesc>& outputs() const { return outputs_; }
  // The bytes of output `index` from the last run.
  std::span<const uint8_t> outputData(size_t index) const;

 private:
  ModelRunner() = default;
  Result<void> bind();
  Result<void> readOutputDims();
  Result<void> growOutputs();
  Result<int> compute();

  ANeuralNetworksCompilation* compilation_ = nullptr;
  std::vector<TensorDesc> declaredInputs_;
  std::vector<TensorDesc> inputs_;
  std::vector<TensorDesc> outputs_;
  std::vector<ZeroedBytes> inputBuffers_;
  std::vector<ZeroedBytes> outputBuffers_;
  std::unique_ptr<ANeuralNetworksExecution, ExecutionDeleter> execution_;
  bool reusable_ = false;
  bool dynamicOutputs_ = false;  // some output dims are only known after a run
};

}  // namespace annrt::tools
