// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A small float32 model builder over the NNAPI C API, and a runner that
// compiles it for one named device.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace annrt::test {

class TestGraph {
 public:
  TestGraph();
  ~TestGraph();
  TestGraph(const TestGraph&) = delete;
  TestGraph& operator=(const TestGraph&) = delete;

  uint32_t tensor(const std::vector<uint32_t>& dims);
  uint32_t constant(const std::vector<uint32_t>& dims, std::vector<float> values);
  uint32_t int32(int32_t value);
  uint32_t float32(float value);
  uint32_t boolean(bool value);
  void operation(ANeuralNetworksOperationType type, const std::vector<uint32_t>& inputs,
                 const std::vector<uint32_t>& outputs);
  // Identifies inputs/outputs and finishes the model.
  void finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs);

  ANeuralNetworksModel* model() const { return model_; }
  // Which operations `device` claims.
  std::vector<bool> supportedBy(const std::string& device) const;
  // Compiles for `device` alone and runs; outputs have `outputSizes` floats.
  // Returns an empty vector on any failure.
  std::vector<std::vector<float>> run(const std::string& device,
                                      const std::vector<std::vector<float>>& inputs,
                                      const std::vector<size_t>& outputSizes) const;

 private:
  uint32_t add(const ANeuralNetworksOperandType& type, const void* data, size_t length);

  ANeuralNetworksModel* model_ = nullptr;
  uint32_t operandCount_ = 0;
  uint32_t operationCount_ = 0;
  std::deque<std::vector<float>> storage_;
};

const ANeuralNetworksDevice* findDevice(const std::string& name);
std::vector<float> randomValues(size_t count, uint32_t seed, float low = -1.0f, float high = 1.0f);

}  // namespace annrt::test
