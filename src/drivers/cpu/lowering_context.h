// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The state shared by every operation lowering of annrt-cpu: the NNAPI model
// being lowered, the XNNPACK subgraph being built (absent when only checking
// support), the NNAPI-operand -> XNNPACK-value map and the constant data the
// subgraph points to. Each lowering first checks everything it needs and
// returns an error naming what is unsupported; only then, when building,
// defines values and nodes. So what annrt-cpu claims is exactly what it builds.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/model.h"
#include "common/result.h"

// What annrt-cpu does not handle is OP_FAILED: the plan then uses another device.
#define ANNRT_CPU_REQUIRE(cond, ...) ANNRT_CHECK_CODE(::annrt::ErrorCode::OP_FAILED, cond, __VA_ARGS__)

namespace annrt::cpu {

// An XNNPACK clamp range.
struct OutputRange {
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

class LoweringContext {
 public:
  // `subgraph` may be null: then only support is checked, nothing is defined.
  LoweringContext(const Model& model, xnn_subgraph_t subgraph);

  bool checking() const { return subgraph_ == nullptr; }
  xnn_subgraph_t subgraph() const { return subgraph_; }
  const Model& model() const { return model_; }
  const Operand& operand(uint32_t index) const { return model_.main.operands[index]; }
  const Operand& input(const Operation& op, uint32_t i) const { return operand(op.inputs[i]); }
  const Operand& output(const Operation& op, uint32_t i) const { return operand(op.outputs[i]); }

  // Constant scalar inputs (parameters must be constants for annrt-cpu).
  Result<int32_t> intScalar(const Operation& op, uint32_t i) const;
  Result<float> floatScalar(const Operation& op, uint32_t i) const;
  Result<bool> boolScalar(const Operation& op, uint32_t i) const;
  // A constant TENSOR_INT32 input's values.
  Result<std::vector<int32_t>> intTensor(const Operation& op, uint32_t i) const;

  // Checks that an operand is a TENSOR_FLOAT32 of known, non-zero dimensions
  // and a rank XNNPACK handles.
  Result<void> checkFloatTensor(uint32_t operandIndex) const;
  // checkFloatTensor on every tensor input listed and on every output.
  Result<void> checkFloatTensors(const Operation& op, std::initializer_list<uint32_t> inputs) const;
  Result<void> checkConstant(const Operation& op, uint32_t i) const;
  bool isOmitted(const Operation& op, uint32_t i) const;

  // The XNNPACK value of an operand, defined on first use: external for the
  // subgraph's inputs/outputs, static (a padded copy) for constants.
  Result<uint32_t> value(uint32_t operandIndex);
  Result<uint32_t> inputValue(const Operation& op, uint32_t i) { return value(op.inputs[i]); }
  Result<uint32_t> outputValue(const Operation& op, uint32_t i) { return value(op.outputs[i]); }
  // A new internal float tensor, or a static one holding `data`.
  Result<uint32_t> internalValue(const std::vector<uint32_t>& dims);
  Result<uint32_t> staticValue(const std::vector<uint32_t>& dims, std::vector<float> data);

  // Whether an operand has been given a value (used by some node).
  bool hasValue(uint32_t operandIndex) const { return values_.count(operandIndex) != 0; }

  // External id of a subgraph input (0..) or output (after the inputs).
  uint32_t externalValueCount() const;

 private:
  Result<const uint8_t*> constantBytes(const Operation& op, uint32_t i, OperandType type) const;
  Result<uint32_t> defineTensor(const std::vector<uint32_t>& dims, const void* data,
                                uint32_t externalId, uint32_t flags);
  const float* ownedCopy(const uint8_t* data, size_t bytes);

  const Model& model_;
  xnn_subgraph_t subgraph_;
  std::unordered_map<uint32_t, uint32_t> values_;
  // Constants handed to XNNPACK, padded with XNN_EXTRA_BYTES for its kernels.
  std::vector<std::unique_ptr<float[]>> constants_;

 public:
  // The owned constants must outlive the runtime built from the subgraph.
  std::vector<std::unique_ptr<float[]>> takeConstants() { return std::move(constants_); }
};

// Fails with a message naming the XNNPACK call when `status` is not success.
Result<void> checkXnn(xnn_status status, const char* call);

}  // namespace annrt::cpu
