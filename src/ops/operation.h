// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The contract of one NNAPI operation, in the style of AOSP's operation
// registry: `validate` checks a signature when the model is built, `prepare`
// infers output shapes once input shapes are known, `execute` is the reference
// kernel. Each op family lives in one file and exposes its table through a
// function listed in registry.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/model.h"
#include "common/result.h"
#include "common/types.h"

namespace annrt::ops {

// What validation may look at: the types of an operation's operands (dims may
// be unknown), and the values of constant operands.
class ValidationContext {
 public:
  virtual ~ValidationContext() = default;
  virtual uint32_t inputCount() const = 0;
  virtual uint32_t outputCount() const = 0;
  virtual const Shape& inputShape(uint32_t index) const = 0;
  virtual const Shape& outputShape(uint32_t index) const = 0;
  // True for an omitted optional input (NO_VALUE lifetime).
  virtual bool isOmittedInput(uint32_t index) const = 0;
  // Data of a constant input, or nullptr when the value is only known at run time.
  virtual const void* constantInput(uint32_t index) const = 0;
  // ANeuralNetworksModel_relaxComputationFloat32toFloat16 was set.
  virtual bool isRelaxed() const = 0;

  // Validators pick a signature by an operand's type before they count
  // operands: one the operation lacks has kAbsentType, which no signature
  // takes (fuzz_abi_model found CAST reading the input of an operation
  // without inputs).
  OperandType inputType(uint32_t index) const {
    return index < inputCount() ? inputShape(index).type : kAbsentType;
  }
  OperandType outputType(uint32_t index) const {
    return index < outputCount() ? outputShape(index).type : kAbsentType;
  }
  static constexpr auto kAbsentType = static_cast<OperandType>(-1);
};

// What a kernel sees at execution time. All input dimensions are known.
class ExecutionContext {
 public:
  virtual ~ExecutionContext() = default;
  virtual uint32_t inputCount() const = 0;
  virtual uint32_t outputCount() const = 0;
  virtual const Shape& inputShape(uint32_t index) const = 0;
  virtual bool isOmittedInput(uint32_t index) const = 0;
  virtual const void* inputData(uint32_t index) const = 0;  // nullptr when omitted
  // The output's shape: as declared in the model until setOutputShape is called.
  virtual const Shape& outputShape(uint32_t index) const = 0;
  // Records the computed output dims (type and quantization must stay as
  // declared; declared non-zero dims must match) and makes outputData usable.
  virtual Result<void> setOutputShape(uint32_t index, const Shape& shape) = 0;
  virtual void* outputData(uint32_t index) = 0;
  virtual bool isRelaxed() const = 0;

  OperandType inputType(uint32_t index) const { return inputShape(index).type; }
  template <typename T>
  const T* input(uint32_t index) const {
    return static_cast<const T*>(inputData(index));
  }
  template <typename T>
  T scalar(uint32_t index) const {
    return *input<T>(index);
  }
  template <typename T>
  T* output(uint32_t index) {
    return static_cast<T*>(outputData(index));
  }
};

struct OperationRegistration {
  OperationType type;
  const char* name;
  Result<void> (*validate)(const ValidationContext& context);
  // Must call setOutputShape for every output.
  Result<void> (*prepare)(ExecutionContext& context);
  // Only called when no output is zero-sized.
  Result<void> (*execute)(ExecutionContext& context);
  // Optional inputs may be omitted (NO_VALUE); otherwise omission is BAD_DATA.
  bool allowOmittedOperand = false;
  // Inputs may be zero-sized; otherwise a zero-sized input is OP_FAILED.
  bool allowZeroSizedInput = false;
  // Set for an operation of an NNAPI vendor extension: its name (e.g.
  // "com.annrt.tflite") and the operation's code within it; `type` is unused.
  const char* extension = nullptr;
  uint16_t extensionCode = 0;
};

// nullptr for an operation annrt does not know.
const OperationRegistration* findOperation(OperationType type);
// Standard NNAPI operations only.
std::span<const OperationRegistration* const> allOperations();

// nullptr for an extension operation annrt does not know.
const OperationRegistration* findExtensionOperation(std::string_view extension, uint16_t code);
// True when annrt implements operations of the named extension.
bool isKnownExtension(std::string_view extension);
// The registration of an operation of a model whose extension prefixes are
// `extensions`: standard operations by type, extension operations by
// (extension name, code within the extension).
const OperationRegistration* findModelOperation(std::span<const ExtensionPrefix> extensions,
                                                OperationType type);

}  // namespace annrt::ops
