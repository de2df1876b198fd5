// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A thin, checked wrapper over the NNAPI model-building C calls: every call's
// result code becomes an annrt::Error naming what failed, constants the
// importer computes are kept alive until finish, and scalar operands are one
// call each (one operand per type and value, shared by the operations that
// read it). It also keeps a record of what it wrote (operand shapes,
// constant values, operations), which shape inference reads.
#pragma once

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/result.h"
#include "common/types.h"
#include "tflite/constant_pool.h"

namespace annrt::tflite {

// What the writer gave the model for one operand.
struct WrittenOperand {
  Shape shape;
  bool constant = false;  // has a value (constant or referenced model)
  bool subgraph = false;  // a referenced model (IF/WHILE)
  // The value of a constant: a copy for values NNAPI copies at once (their
  // source may be gone by finish), else a view valid until finish.
  std::vector<uint8_t> copied;
  std::span<const uint8_t> value;
};

struct WrittenOperation {
  int32_t type = 0;                 // NNAPI operation type as given to addOperation
  const char* extension = nullptr;  // for an extension operation: its name
  uint16_t extensionCode = 0;       // and its code within the extension
  std::vector<uint32_t> inputs, outputs;
};

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

  // Dims by operand index replacing those of the non-constant operands the
  // writer adds (an empty entry keeps the given dims): the shapes inferred
  // from a first conversion of the same subgraph, whose operands come in the
  // same order.
  void overrideDims(std::vector<std::vector<uint32_t>> dims) { dimsOverride_ = std::move(dims); }

  Result<uint32_t> addOperand(const Shape& shape);
  // Constants lying in `file` (the mapped .tflite) are given to the model as
  // ranges of `memory` (the same file), not copied: the model's weights are
  // then the file's pages, as with TFLite's mmapped models.
  void referenceFile(std::span<const uint8_t> file, ANeuralNetworksMemory* memory) {
    file_ = file;
    fileMemory_ = memory;
  }
  // Constants lying in `pool` are given to the model as ranges of its
  // memories, likewise.
  void referencePool(const ConstantPool* pool) { pool_ = pool; }
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

  const std::vector<WrittenOperand>& operands() const { return operands_; }
  const std::vector<WrittenOperation>& operations() const { return operations_; }

 private:
  Result<void> setValue(uint32_t index, const void* data, size_t length);
  // The operand of a scalar of `type` whose value is the first `length`
  // bytes of `bits` (little-endian), added at its first use.
  Result<uint32_t> addScalar(OperandType type, uint32_t bits, size_t length);

  ANeuralNetworksModel* model_ = nullptr;
  std::vector<WrittenOperand> operands_;
  std::vector<WrittenOperation> operations_;
  std::unordered_map<uint64_t, uint32_t> scalars_;  // by type and value bits
  std::vector<WrittenOperation> extensionTypes_;    // the extension operation types handed out
  std::vector<std::vector<uint32_t>> dimsOverride_;
  std::deque<std::vector<uint8_t>> owned_;
  std::optional<ConstantPool::Place> placeOf(std::span<const uint8_t> bytes) const;

  std::span<const uint8_t> file_;
  ANeuralNetworksMemory* fileMemory_ = nullptr;
  const ConstantPool* pool_ = nullptr;
};

// A Shape of the given type and dims, without quantization.
Shape makeShape(OperandType type, std::vector<uint32_t> dims = {});

}  // namespace annrt::tflite
