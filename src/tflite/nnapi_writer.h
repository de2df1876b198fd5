// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A thin, checked wrapper over the NNAPI model-building C calls: every call's
// result code becomes an annrt::Error naming what failed, constants the
// importer computes are kept alive until finish, and scalar operands are one
// call each.
#pragma once

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "common/types.h"

namespace annrt::tflite {

class NnapiWriter {
 public:
  NnapiWriter() = default;
  NnapiWriter(const NnapiWriter&) = delete;
  NnapiWriter& operator=(const NnapiWriter&) = delete;
  ~NnapiWriter();

  Result<void> create();
  ANeuralNetworksModel* model() const { return model_; }
  // Gives up ownership of the model.
  ANeuralNetworksModel* release();

  Result<uint32_t> addOperand(const Shape& shape);
  // Constants lying in `file` (the mapped .tflite) are given to the model as
  // ranges of `memory` (the same file), not copied: the model's weights are
  // then the file's pages, as with TFLite's mmapped models.
  void referenceFile(std::span<const uint8_t> file, ANeuralNetworksMemory* memory) {
    file_ = file;
    fileMemory_ = memory;
  }
  // `bytes` must stay valid until finish().
  Result<uint32_t> addConstant(const Shape& shape, std::span<const uint8_t> bytes);
  // Keeps `bytes` alive itself.
  Result<uint32_t> addOwnedConstant(const Shape& shape, std::vector<uint8_t> bytes);
  Result<uint32_t> addInt32(int32_t value);
  Result<uint32_t> addFloat32(float value);
  Result<uint32_t> addBool(bool value);
  Result<uint32_t> addInt32Tensor(const std::vector<int32_t>& values);
  Result<uint32_t> addModel(const ANeuralNetworksModel* referenced);

  Result<int32_t> extensionOperationType(const char* extension, uint16_t code);
  Result<void> addOperation(int32_t type, const std::vector<uint32_t>& inputs,
                            const std::vector<uint32_t>& outputs);
  Result<void> identifyInputsAndOutputs(const std::vector<uint32_t>& inputs,
                                        const std::vector<uint32_t>& outputs);
  Result<void> finish(bool relaxFloat32toFloat16);

 private:
  Result<void> setValue(uint32_t index, const void* data, size_t length);

  ANeuralNetworksModel* model_ = nullptr;
  uint32_t operandCount_ = 0;
  std::deque<std::vector<uint8_t>> owned_;
  std::span<const uint8_t> file_;
  ANeuralNetworksMemory* fileMemory_ = nullptr;
};

// A Shape of the given type and dims, without quantization.
Shape makeShape(OperandType type, std::vector<uint32_t> dims = {});

// Converts an NNAPI result code of `call` into a Result.
Result<void> checkNnapi(int code, std::string_view call);

}  // namespace annrt::tflite
