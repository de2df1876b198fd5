// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The state shared by every operation lowering of annrt-cpu: the NNAPI model
// being lowered, the XNNPACK subgraph being built (absent when only checking
// support), the NNAPI-operand -> XNNPACK-value map and the constant data the
// subgraph points to. Each lowering first checks everything it needs and
// returns an error naming what is unsupported; only then, when building,
// defines values and nodes. So what annrt-cpu claims is exactly what it builds.
//
// Tensors are float32 or 8-bit asymmetric quantized (uint8 -> XNNPACK quint8,
// int8 -> qint8). Constant filters may also be per-channel int8 (qcint8) with
// an int32 bias (qint32, or qcint32 for per-channel filters).
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/model.h"
#include "common/result.h"
#include "drivers/cpu/weight_store.h"

// What annrt-cpu does not handle is OP_FAILED: the plan then uses another device.
#define ANNRT_CPU_REQUIRE(cond, ...) \
  ANNRT_CHECK_CODE(::annrt::ErrorCode::OP_FAILED, cond, __VA_ARGS__)

namespace annrt::cpu {

// An XNNPACK clamp range, in real (dequantized) values.
struct OutputRange {
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

// Quantization of a per-tensor quantized value.
struct Quantization {
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};

// Data the subgraph and the runtime built from it point to; it must outlive
// both.
struct LoweredConstants {
  std::vector<std::unique_ptr<uint8_t[]>> bytes;
  std::deque<std::vector<float>> scales;
};

bool isQuantized8(OperandType type);

// A CAST of a constant float16 tensor to float32 (float16 weights), which
// annrt-cpu folds into the operations reading its output (fusion.h says
// which are in no stage).
bool isFoldableHalfCast(const Model& model, const Operation& op);

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
  OperandType inputType(const Operation& op, uint32_t i) const { return input(op, i).shape.type; }
  bool quantized(const Operation& op) const { return isQuantized8(inputType(op, 0)); }

  // Constant scalar inputs (parameters must be constants for annrt-cpu).
  Result<int32_t> intScalar(const Operation& op, uint32_t i) const;
  Result<float> floatScalar(const Operation& op, uint32_t i) const;
  Result<bool> boolScalar(const Operation& op, uint32_t i) const;
  // A constant TENSOR_INT32 input's values.
  Result<std::vector<int32_t>> intTensor(const Operation& op, uint32_t i) const;

  // Checks that an operand is a tensor XNNPACK can hold: TENSOR_FLOAT32,
  // TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED (with a quantization
  // XNNPACK accepts), of known non-zero dimensions and a rank it handles.
  Result<void> checkTensor(uint32_t operandIndex) const;
  // checkTensor on every tensor input listed and on every output, which must
  // all have input 0's type.
  Result<void> checkTensors(const Operation& op, std::initializer_list<uint32_t> inputs) const;
  // checkTensors, also requiring input 0 to be TENSOR_FLOAT32.
  Result<void> checkFloatTensors(const Operation& op, std::initializer_list<uint32_t> inputs) const;
  // For ops whose kernels move or compare raw quantized values: every listed
  // input has the quantization of output 0.
  Result<void> checkSameQuantization(const Operation& op,
                                     std::initializer_list<uint32_t> inputs) const;
  Result<void> checkConstant(const Operation& op, uint32_t i) const;
  // Constant tensors: the model's constants, and the float32 outputs of CAST
  // operations of constant float16 tensors (float16 weights), which annrt-cpu
  // folds: their data is converted once, when first needed, and lives as
  // long as this context (XNNPACK has packed it by then).
  bool isConstantTensor(uint32_t operandIndex) const;
  const uint8_t* tensorData(uint32_t operandIndex);
  // Frees the float16 weights converted so far, once the kernels reading
  // them have packed their own copies: a context that makes the kernels of
  // a whole partition would otherwise hold a float32 copy of all its
  // float16 weights at once.
  void dropConvertedHalves() { halfWeights_.clear(); }
  // Whether `op` is such a CAST.
  bool isFoldedCast(const Operation& op) const {
    return op.type == OperationType::CAST && !op.outputs.empty() &&
           halfCasts_.count(op.outputs[0]) != 0;
  }
  bool isOmitted(const Operation& op, uint32_t i) const;

  // Where the native kernels made with this context get their packed
  // weights: `store` (kept by the staged graph) under stage `stage`, which
  // also gives float16 weights converted by a cache. Without one each
  // kernel packs a buffer of its own.
  void useWeights(WeightStore* store, uint32_t stage) {
    weights_ = store;
    stage_ = stage;
  }
  // Kernels are made only to ask what they would be (the planner): they
  // get no weights, and nothing is packed or converted.
  void decideOnly() { decideOnly_ = true; }
  // Buffer `slot` of the native kernel of `op` (an operation of model()),
  // `floats` floats that `fill` packs.
  Result<WeightBuffer> packedWeights(const Operation& op, uint32_t slot, size_t floats,
                                     const std::function<void(float*)>& fill);

  // The XNNPACK value of an operand, defined on first use: external for the
  // subgraph's inputs/outputs, static (a padded copy) for constants.
  Result<uint32_t> value(uint32_t operandIndex);
  Result<uint32_t> inputValue(const Operation& op, uint32_t i) { return value(op.inputs[i]); }
  Result<uint32_t> outputValue(const Operation& op, uint32_t i) { return value(op.outputs[i]); }
  // A constant filter (float32, quant8 or per-channel int8) and its int32 or
  // float32 bias, whose per-channel scales follow from the input's and the
  // filter's (NNAPI fixes the bias scale to input_scale * filter_scale).
  // Only for nodes that pack them when the runtime is created: they are
  // defined on the model's bytes, without XNN_EXTRA_BYTES of padding.
  Result<uint32_t> filterValue(const Operation& op, uint32_t i);
  Result<uint32_t> biasValue(const Operation& op, uint32_t i, uint32_t inputIndex,
                             uint32_t filterIndex);

  // A constant float32 or quant8 input given other dims of the same element
  // count (a static copy).
  Result<uint32_t> reshapedConstant(const Operation& op, uint32_t i,
                                    const std::vector<uint32_t>& dims);
  // A constant (float32, quant8 or per-channel int8) dequantized into static
  // float32 data, and an int32 bias as float32 (value * input_scale *
  // filter_scale[c]), for quantized ops computed in float32.
  Result<uint32_t> dequantizedConstant(
      const Operation& op, uint32_t i,
      const std::optional<std::vector<uint32_t>>& dims = std::nullopt);
  Result<uint32_t> floatBias(const Operation& op, uint32_t i, uint32_t inputIndex,
                             uint32_t filterIndex);

  // A float32 view of an operand: the value itself for float32, else one
  // convert node (made once per operand). For ops XNNPACK only has float
  // kernels for; dequantizing is exact, and the op's real-valued result is
  // then quantized once, which is the NNAPI definition of the quantized op.
  Result<uint32_t> floatValue(uint32_t operandIndex);
  Result<uint32_t> floatInputValue(const Operation& op, uint32_t i) {
    return floatValue(op.inputs[i]);
  }
  // Defines op output i as computed in float32: `define` gets the float32
  // value to write (the output itself when it is float32, else an internal
  // value that a convert node then quantizes into the output).
  Result<void> withFloatOutput(const Operation& op, uint32_t i,
                               const std::function<Result<void>(uint32_t)>& define);

  // A new internal tensor (float32, or quantized like `like`), or a static
  // float32 one holding `data`.
  Result<uint32_t> internalValue(const std::vector<uint32_t>& dims);
  Result<uint32_t> internalValueLike(const std::vector<uint32_t>& dims, uint32_t likeOperand);
  Result<uint32_t> internalQuantizedValue(const std::vector<uint32_t>& dims, OperandType type,
                                          Quantization quantization);
  Result<uint32_t> staticValue(const std::vector<uint32_t>& dims, std::vector<float> data);

  // Whether an operand has been given a value (used by some node).
  bool hasValue(uint32_t operandIndex) const { return values_.count(operandIndex) != 0; }

  // External id of a subgraph input (0..) or output (after the inputs).
  uint32_t externalValueCount() const;

  // The owned constants must outlive the runtime built from the subgraph.
  LoweredConstants takeConstants() { return std::move(constants_); }

 private:
  Result<const uint8_t*> constantBytes(const Operation& op, uint32_t i, OperandType type) const;
  Result<uint32_t> defineTensor(xnn_datatype datatype, const Quantization& quantization,
                                const std::vector<uint32_t>& dims, const void* data,
                                uint32_t externalId, uint32_t flags);
  Result<uint32_t> defineChannelwise(xnn_datatype datatype, std::vector<float> scales,
                                     uint32_t channelDim, const std::vector<uint32_t>& dims,
                                     const void* data);
  const void* ownedCopy(const void* data, size_t bytes);
  const void* packedSource(const uint8_t* data, size_t bytes);

  const Model& model_;
  xnn_subgraph_t subgraph_;
  std::unordered_map<uint32_t, uint32_t> values_;
  std::unordered_map<uint32_t, uint32_t> floatValues_;
  std::unordered_map<uint32_t, uint32_t> halfCasts_;              // CAST output -> float16 constant
  std::unordered_map<uint32_t, std::vector<float>> halfWeights_;  // converted, by CAST output
  LoweredConstants constants_;
  WeightStore* weights_ = nullptr;
  uint32_t stage_ = 0;
  bool decideOnly_ = false;
};

// Fails with a message naming the XNNPACK call when `status` is not success.
Result<void> checkXnn(xnn_status status, const char* call);

// The real values of constant tensor data: float32, quant8 asymm (signed),
// or int8 per-channel (scales along its channel dimension).
std::vector<float> dequantize(const Shape& shape, const uint8_t* data);

// The XNNPACK datatype of an activation tensor type, or invalid.
xnn_datatype activationDatatype(OperandType type);

// The [min, max] a quantized output clamps to, in quantized units, as
// XNNPACK's subgraph derives it from a real-valued range: round(x / scale) +
// zero point, saturated to the type's range.
struct QuantizedRange {
  int32_t min = 0, max = 0;
};
QuantizedRange quantizedRange(const OutputRange& range, const Shape& output);
// XNNPACK refuses (or asserts on) an empty quantized output range, which a
// fused activation gives when the zero point sits at the type's edge.
Result<void> checkQuantizedRange(const OutputRange& range, const Shape& output);

}  // namespace annrt::cpu
