// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the float recurrent operations (RNN, LSTM and their sequence variants,
// SVDF) share: signatures written as type patterns, float views of float32 or
// float16 operands (float16 is computed in float and rounded once on output),
// the recurrent activation codes, the row layout of time-major and
// batch-major sequences, and the basic RNN cell.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "ops/operation.h"

namespace annrt::ops::recurrent {

// Activation codes of the recurrent operations (TFLite's fused activations;
// LSTM adds TANH and SIGMOID to the FuseCode values).
enum class Activation : int32_t { NONE = 0, RELU = 1, RELU1 = 2, RELU6 = 3, TANH = 4, SIGMOID = 6 };

Result<Activation> toActivation(int32_t code, bool allowTanhSigmoid);
float applyActivation(Activation activation, float value);
inline float sigmoid(float value) {
  return 1.0f / (1.0f + std::exp(-value));
}

// Checks operand types against a pattern, one character per operand:
// 'T' the float tensor type, 'F' the float scalar type that goes with it
// (FLOAT32 with TENSOR_FLOAT32, FLOAT16 with TENSOR_FLOAT16), 'I' INT32,
// 'B' BOOL. `tensorType` must be TENSOR_FLOAT32 or TENSOR_FLOAT16.
Result<void> validateFloatSignature(const ValidationContext& context, OperandType tensorType,
                                    const char* inputPattern, const char* outputPattern);

// The float tensor type of input 0 (TENSOR_FLOAT32 or TENSOR_FLOAT16), or BAD_DATA.
Result<OperandType> floatTensorType(const ValidationContext& context);

// A float view of an input: float32 data in place, float16 converted;
// nullptr when the input is omitted.
class FloatInput {
 public:
  FloatInput() = default;
  FloatInput(const ExecutionContext& context, uint32_t index);
  const float* data() const { return data_; }
  bool present() const { return data_ != nullptr; }

 private:
  std::vector<float> converted_;
  const float* data_ = nullptr;
};

// A float32/float16 scalar input read as float.
float floatScalar(const ExecutionContext& context, uint32_t index);
// Stores `values` (as many as the output has elements) into a float32/float16 output.
void storeFloatOutput(ExecutionContext& context, uint32_t index, const float* values);

// Required inputs must have values.
Result<void> checkPresent(const ExecutionContext& context, std::initializer_list<uint32_t> indices);
// `index` is present with exactly `dims`.
Result<void> checkDims(const ExecutionContext& context, uint32_t index,
                       std::initializer_list<uint32_t> dims, const char* what);
// Sets output `index` to `dims` (type and quantization as declared).
Result<void> setOutputDims(ExecutionContext& context, uint32_t index, std::vector<uint32_t> dims);

// Where the row of time step t, batch b lives in a [time, batch, ...] or
// [batch, time, ...] tensor.
struct SequenceLayout {
  uint32_t maxTime = 1;
  uint32_t batch = 0;
  bool timeMajor = true;

  size_t row(uint32_t t, uint32_t b) const {
    return timeMajor ? size_t{t} * batch + b : size_t{b} * maxTime + t;
  }
  size_t rows() const { return size_t{maxTime} * batch; }
  // Dims of a sequence tensor whose rows have `width` elements.
  std::vector<uint32_t> dims(uint32_t width) const {
    return timeMajor ? std::vector<uint32_t>{maxTime, batch, width}
                     : std::vector<uint32_t>{batch, maxTime, width};
  }
};

// The layout of a rank-3 sequence input.
Result<SequenceLayout> sequenceLayout(const Shape& input, bool timeMajor);

// Copies the rows of step t into a [batch, width] buffer.
void gatherStep(const float* sequence, const SequenceLayout& layout, uint32_t t, uint32_t width,
                float* step);

// Where one direction writes its outputs: row r of the sequence output starts
// at output + r * stride + offset (offset > 0 for the second half of merged
// bidirectional outputs).
struct SequenceOutput {
  float* data = nullptr;
  uint32_t stride = 0;
  uint32_t offset = 0;
};

// How a bidirectional operation uses its auxiliary input: not at all, as the
// backward direction's input (no aux weights), or through aux weights in
// both directions.
enum class AuxLinking { NONE, PARALLEL, CROSS };

struct AuxInput {
  AuxLinking linking = AuxLinking::NONE;
  uint32_t size = 0;  // last dimension of the aux input
};

// Reads the linking mode from which of the aux input and the forward and
// backward aux weights (any one per direction, e.g. the forget gate's) are
// present, and checks the aux input against the rank-3 `input`.
Result<AuxInput> auxInput(const ExecutionContext& context, uint32_t input, uint32_t auxInput,
                          uint32_t fwAuxWeights, uint32_t bwAuxWeights);

// The outputs of a bidirectional operation: the forward output (holding both
// directions when merged), the backward output unless merged, then
// optionally `stateCount` state outputs starting at `firstState`.
struct BidirectionalOutputs {
  bool merge = false;
  bool states = false;
  uint32_t firstState = 0;
};
Result<BidirectionalOutputs> bidirectionalOutputs(const ExecutionContext& context, bool merge,
                                                  uint32_t stateCount);

// One direction of a basic RNN: h = act(W x + Wa xa + R h_prev + b).
struct RnnCell {
  const float* weights = nullptr;     // [units, inputSize]
  const float* recurrent = nullptr;   // [units, units]
  const float* bias = nullptr;        // [units]
  const float* auxWeights = nullptr;  // [units, auxInputSize] or nullptr
  uint32_t units = 0;
  uint32_t inputSize = 0;
  uint32_t auxInputSize = 0;
  Activation activation = Activation::NONE;
};

// Runs the cell over a sequence (backwards when !forward); `hidden` holds the
// initial state on entry and the final state on return.
void runRnn(const RnnCell& cell, const SequenceLayout& layout, const float* input,
            const float* auxInput, bool forward, SequenceOutput output, float* hidden);

}  // namespace annrt::ops::recurrent
