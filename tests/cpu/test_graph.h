// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's test models: client::GraphBuilder with helpers for float32 and
// quantized tensors, and a runner that compiles for one named device.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "client/graph_builder.h"
#include "common/device_lookup.h"

namespace annrt::test {

using client::TensorType;
using client::toBytes;

inline TensorType quant8(bool isSigned, float scale, int32_t zeroPoint) {
  return {
      isSigned ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
      scale, isSigned ? zeroPoint - 128 : zeroPoint};
}

// Bytes of one element of `type`.
size_t elementSize(int32_t type);

class TestGraph {
 public:
  TestGraph() = default;
  TestGraph(const TestGraph&) = delete;
  TestGraph& operator=(const TestGraph&) = delete;

  uint32_t tensor(const std::vector<uint32_t>& dims);
  uint32_t tensor(const std::vector<uint32_t>& dims, const TensorType& type);
  uint32_t constant(const std::vector<uint32_t>& dims, const std::vector<float>& values);
  // A constant of any tensor type from its raw little-endian bytes.
  uint32_t constant(const std::vector<uint32_t>& dims, const TensorType& type,
                    std::vector<uint8_t> bytes);
  uint32_t int32Tensor(const std::vector<uint32_t>& dims, const std::vector<int32_t>& values,
                       float scale = 0.0f);
  // A TENSOR_FLOAT16 constant holding `values` rounded to float16.
  uint32_t halfConstant(const std::vector<uint32_t>& dims, const std::vector<float>& values);
  // A TENSOR_QUANT8_SYMM_PER_CHANNEL constant.
  uint32_t perChannel(const std::vector<uint32_t>& dims, const std::vector<int8_t>& values,
                      uint32_t channelDim, const std::vector<float>& scales);
  uint32_t int32(int32_t value);
  uint32_t float32(float value);
  uint32_t boolean(bool value);
  void operation(ANeuralNetworksOperationType type, const std::vector<uint32_t>& inputs,
                 const std::vector<uint32_t>& outputs);
  // A CONV_2D from `input` (NHWC, `inChannels` deep) with a 3x3 filter, SAME
  // padding and stride 1 into a new tensor of `outputDims`; its filter and
  // bias are random values of seeds `seed` and `seed + 1`. Returns the output.
  uint32_t conv3x3(uint32_t input, uint32_t inChannels, const std::vector<uint32_t>& outputDims,
                   int32_t activation, uint32_t seed);
  // Identifies inputs/outputs and finishes the model.
  void finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs);

  ANeuralNetworksModel* model() const { return builder_.model(); }
  // Later runs give their compilations ANNRT_COMPILATION_NUM_THREADS = `threads`
  // (0: no attribute).
  void setThreadHint(uint32_t threads) { threadHint_ = threads; }
  // Which operations `device` claims.
  std::vector<bool> supportedBy(const std::string& device) const;
  // Compiles for `device` alone and runs; outputs have `outputSizes` floats.
  // Returns an empty vector on any failure.
  std::vector<std::vector<float>> run(const std::string& device,
                                      const std::vector<std::vector<float>>& inputs,
                                      const std::vector<size_t>& outputSizes) const;
  // The same with raw bytes; outputs have `outputBytes` bytes.
  std::vector<std::vector<uint8_t>> runBytes(const std::string& device,
                                             const std::vector<std::vector<uint8_t>>& inputs,
                                             const std::vector<size_t>& outputBytes) const;
  // The same reading each input where it lies (for tests of buffer placement).
  std::vector<std::vector<uint8_t>> runInPlace(const std::string& device,
                                               const std::vector<std::span<const uint8_t>>& inputs,
                                               const std::vector<size_t>& outputBytes) const;

  using CompilationPtr =
      std::unique_ptr<ANeuralNetworksCompilation, void (*)(ANeuralNetworksCompilation*)>;
  // Compiles for `device` alone (with the thread hint, if set); null on any
  // failure. For tests that run one compilation more than once.
  CompilationPtr compile(const std::string& device) const;
  // Runs `compilation` once on `inputs`, writing `outputs`, each where it
  // lies. False on any failure.
  static bool compute(ANeuralNetworksCompilation* compilation,
                      const std::vector<std::span<const uint8_t>>& inputs,
                      const std::vector<std::span<uint8_t>>& outputs);

 private:
  client::GraphBuilder builder_;
  uint32_t threadHint_ = 0;
};

inline constexpr const char* kCpu = "annrt-cpu";
inline constexpr const char* kReference = "nnapi-reference";

size_t elementCount(const std::vector<uint32_t>& dims);
std::vector<float> randomValues(size_t count, uint32_t seed, float low = -1.0f, float high = 1.0f);
// Uniformly random raw bytes of a quant8 type (the full 0..255 range).
std::vector<uint8_t> randomBytes(size_t count, uint32_t seed);
std::vector<int8_t> randomInt8(size_t count, uint32_t seed, int8_t low = -127, int8_t high = 127);
std::vector<int32_t> randomInt32(size_t count, uint32_t seed, int32_t low, int32_t high);

}  // namespace annrt::test
