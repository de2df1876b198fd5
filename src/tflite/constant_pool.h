// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Memory for the large constants the importer computes (densified sparse
// weights, narrowed INT64s, dequantized values): anonymous shared-memory
// chunks (memfd), each given to the model as one ANeuralNetworksMemory.
// ANeuralNetworksModel_finish copies every large value set with
// setOperandValue, as AOSP's runtime does, so a value computed into a
// vector was written twice, each time to fresh pages; a value computed here
// is written once and the model references it (setOperandValueFromMemory).
#pragma once

#include <android/NeuralNetworks.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/result.h"

namespace annrt::tflite {

class ConstantPool {
 public:
  ConstantPool() = default;
  ConstantPool(const ConstantPool&) = delete;
  ConstantPool& operator=(const ConstantPool&) = delete;
  // Frees the NNAPI memories: after the models using them (NNAPI wants a
  // memory to outlive its models).
  ~ConstantPool();

  // `bytes` zeroed bytes, 64-byte aligned, writable until `seal`; an error
  // where shared memory cannot be had (the caller then keeps the value
  // itself).
  Result<std::span<uint8_t>> allocate(size_t bytes);

  struct Place {
    ANeuralNetworksMemory* memory = nullptr;
    size_t offset = 0;
  };
  // Where `bytes` lie, if wholly inside one chunk.
  std::optional<Place> find(std::span<const uint8_t> bytes) const;

  // Drops the pool's own writable views once the models are finished: the
  // runtime reads the values through its mappings of the memories, and two
  // views of the same pages would count them twice in the resident set.
  void seal();

  size_t usedBytes() const;

 private:
  struct Chunk {
    uint8_t* data = nullptr;  // the writable view; null once sealed
    size_t size = 0;
    size_t used = 0;
    ANeuralNetworksMemory* memory = nullptr;
  };
  Result<Chunk> newChunk(size_t size) const;

  std::vector<Chunk> chunks_;
};

}  // namespace annrt::tflite
