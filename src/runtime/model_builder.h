// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksModel: accumulates operands, values and operations, validates
// each as it is added (as the NNAPI spec and AOSP do), and on finish checks the
// graph and freezes it into an immutable annrt::Model shared by compilations.
#pragma once

#include <android/NeuralNetworksTypes.h>

#include <memory>
#include <string>
#include <vector>

#include "common/model.h"
#include "common/result.h"
#include "runtime/model_facts.h"

namespace annrt::runtime {

class Memory;

class ModelBuilder {
 public:
  Result<void> addOperand(const ANeuralNetworksOperandType& type);
  Result<void> setOperandValue(int32_t index, const void* buffer, size_t length);
  Result<void> setOperandValueFromMemory(int32_t index, const std::shared_ptr<const Memory>& memory,
                                         size_t offset, size_t length);
  Result<void> setOperandValueFromModel(int32_t index, const ModelBuilder& value);
  Result<void> setOperandSymmPerChannelQuantParams(
      int32_t index, const ANeuralNetworksSymmPerChannelQuantParams& params);
  Result<void> setOperandExtensionData(int32_t index, const void* data, size_t length);
  Result<void> addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs,
                            uint32_t outputCount, const uint32_t* outputs);
  Result<void> identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs,
                                        uint32_t outputCount, const uint32_t* outputs);
  Result<void> relaxComputationFloat32toFloat16(bool allow);
  Result<int32_t> getExtensionType(const char* extensionName, uint16_t typeWithinExtension);
  Result<void> finish();

  bool isFinished() const { return finished_; }
  // The frozen model; only valid after finish().
  std::shared_ptr<const Model> model() const { return model_; }
  // What the runtime learns about the frozen model; only valid after finish().
  const std::shared_ptr<ModelFacts>& facts() const { return facts_; }

 private:
  Result<void> checkModifiable() const;
  Result<Operand*> operandAt(int32_t index);
  // Drops what an earlier setOperandValue* recorded for the operand.
  void forgetValue(uint32_t index);
  Result<void> markIo(std::vector<uint32_t>& list, uint32_t count, const uint32_t* indexes,
                      Lifetime lifetime);
  // ops::validateOperation over the model as it is being built.
  Result<void> checkOperation(const Operation& operation) const;
  Result<void> checkReferencedCount() const;
  Result<void> sortOperations();
  void copyLargeValues(Model& model);
  uint32_t addReferencedModel(const Model& value, Model& into) const;

  Subgraph subgraph_;
  std::vector<uint8_t> smallValues_;
  // Values above 128 bytes set by pointer: the caller keeps them alive until
  // finish, which copies them (as NNAPI specifies).
  struct LargeValue {
    uint32_t operand;
    const void* buffer;
    size_t length;
  };
  std::vector<LargeValue> largeValues_;
  std::vector<std::shared_ptr<const MemoryPool>> pools_;
  // Finished models referenced by SUBGRAPH operands, by operand index.
  std::vector<std::pair<uint32_t, std::shared_ptr<const Model>>> referencedModels_;
  std::vector<ExtensionPrefix> extensions_;
  bool relaxed_ = false;
  bool finished_ = false;
  // Set when finish fails: the model can then be neither modified nor used.
  bool invalid_ = false;
  std::shared_ptr<const Model> model_;
  std::shared_ptr<ModelFacts> facts_;
};

}  // namespace annrt::runtime
