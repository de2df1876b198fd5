// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/recurrent.h"

#include <algorithm>
#include <cstring>

namespace annrt::ops::recurrent {
namespace {

Result<void> checkPattern(uint32_t count, const char* pattern, const char* what, auto typeAt,
                          OperandType tensorType) {
  const OperandType scalarType =
      tensorType == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  ANNRT_CHECK(count == std::strlen(pattern), "expected {} {}s, got {}", std::strlen(pattern), what,
              count);
  for (uint32_t i = 0; i < count; ++i) {
    OperandType expected = OperandType::INT32;
    switch (pattern[i]) {
      case 'T': expected = tensorType; break;
      case 'F': expected = scalarType; break;
      case 'B': expected = OperandType::BOOL; break;
      default: break;
    }
    ANNRT_CHECK(typeAt(i) == expected, "{} {} has type {}, expected {}", what, i,
                operandTypeName(typeAt(i)), operandTypeName(expected));
  }
  return {};
}

}  // namespace

Result<Activation> toActivation(int32_t code, bool allowTanhSigmoid) {
  switch (code) {
    case 0:
    case 1:
    case 2:
    case 3: return static_cast<Activation>(code);
    case 4:
    case 6:
      if (allowTanhSigmoid) return static_cast<Activation>(code);
      break;
    default: break;
  }
  return makeError(ErrorCode::BAD_DATA, "unsupported activation {}", code);
}

float applyActivation(Activation activation, float value) {
  switch (activation) {
    case Activation::RELU: return std::max(0.0f, value);
    case Activation::RELU1: return std::clamp(value, -1.0f, 1.0f);
    case Activation::RELU6: return std::clamp(value, 0.0f, 6.0f);
    case Activation::TANH: return std::tanh(value);
    case Activation::SIGMOID: return sigmoid(value);
    case Activation::NONE: break;
  }
  return value;
}

Result<void> validateFloatSignature(const ValidationContext& context, OperandType tensorType,
                                    const char* inputPattern, const char* outputPattern) {
  ANNRT_RETURN_IF_ERROR(checkPattern(
      context.inputCount(), inputPattern, "input", [&](uint32_t i) { return context.inputType(i); },
      tensorType));
  return checkPattern(
      context.outputCount(), outputPattern, "output",
      [&](uint32_t i) { return context.outputType(i); }, tensorType);
}

Result<OperandType> floatTensorType(const ValidationContext& context) {
  ANNRT_CHECK(context.inputCount() > 0, "the operation has no inputs");
  const OperandType type = context.inputType(0);
  ANNRT_CHECK(type == OperandType::TENSOR_FLOAT32 || type == OperandType::TENSOR_FLOAT16,
              "unsupported input type {}", operandTypeName(type));
  return type;
}

FloatInput::FloatInput(const ExecutionContext& context, uint32_t index) {
  if (index >= context.inputCount() || context.isOmittedInput(index)) return;
  if (context.inputType(index) == OperandType::TENSOR_FLOAT32) {
    data_ = context.input<float>(index);
    return;
  }
  const size_t count = elementCount(context.inputShape(index));
  const Float16* in = context.input<Float16>(index);
  converted_.assign(in, in + count);
  data_ = converted_.data();
}

float floatScalar(const ExecutionContext& context, uint32_t index) {
  if (context.inputType(index) == OperandType::FLOAT16) {
    return static_cast<float>(context.scalar<Float16>(index));
  }
  return context.scalar<float>(index);
}

void storeFloatOutput(ExecutionContext& context, uint32_t index, const float* values) {
  const size_t count = elementCount(context.outputShape(index));
  if (context.outputShape(index).type == OperandType::TENSOR_FLOAT16) {
    Float16* out = context.output<Float16>(index);
    for (size_t i = 0; i < count; ++i) out[i] = static_cast<Float16>(values[i]);
  } else {
    std::copy(values, values + count, context.output<float>(index));
  }
}

Result<void> checkPresent(const ExecutionContext& context,
                          std::initializer_list<uint32_t> indices) {
  for (uint32_t index : indices) {
    ANNRT_CHECK(!context.isOmittedInput(index), "required input {} is omitted", index);
  }
  return {};
}

Result<void> checkDims(const ExecutionContext& context, uint32_t index,
                       std::initializer_list<uint32_t> dims, const char* what) {
  ANNRT_CHECK(!context.isOmittedInput(index), "{} (input {}) is omitted", what, index);
  const std::vector<uint32_t>& actual = context.inputShape(index).dims;
  ANNRT_CHECK(std::equal(actual.begin(), actual.end(), dims.begin(), dims.end()),
              "{} (input {}) has shape {}, expected {}", what, index, toString(actual),
              toString(std::vector<uint32_t>(dims)));
  return {};
}

Result<void> setOutputDims(ExecutionContext& context, uint32_t index, std::vector<uint32_t> dims) {
  Shape shape = context.outputShape(index);
  shape.dims = std::move(dims);
  return context.setOutputShape(index, shape);
}

Result<SequenceLayout> sequenceLayout(const Shape& input, bool timeMajor) {
  ANNRT_CHECK(rank(input) == 3, "input has rank {}, expected 3", rank(input));
  SequenceLayout layout;
  layout.timeMajor = timeMajor;
  layout.maxTime = input.dims[timeMajor ? 0 : 1];
  layout.batch = input.dims[timeMajor ? 1 : 0];
  return layout;
}

void gatherStep(const float* sequence, const SequenceLayout& layout, uint32_t t, uint32_t width,
                float* step) {
  for (uint32_t b = 0; b < layout.batch; ++b) {
    const float* row = sequence + layout.row(t, b) * width;
    std::copy(row, row + width, step + size_t{b} * width);
  }
}

Result<AuxInput> auxInput(const ExecutionContext& context, uint32_t input, uint32_t auxInput,
                          uint32_t fwAuxWeights, uint32_t bwAuxWeights) {
  const bool hasAux = !context.isOmittedInput(auxInput);
  const bool hasWeights = !context.isOmittedInput(fwAuxWeights);
  ANNRT_CHECK(hasWeights == !context.isOmittedInput(bwAuxWeights),
              "forward and backward aux weights must be both present or both omitted");
  ANNRT_CHECK(hasAux || !hasWeights, "aux weights are given without an aux input");
  AuxInput result;
  if (!hasAux) return result;
  result.linking = hasWeights ? AuxLinking::CROSS : AuxLinking::PARALLEL;
  const std::vector<uint32_t>& in = context.inputShape(input).dims;
  const std::vector<uint32_t>& aux = context.inputShape(auxInput).dims;
  ANNRT_CHECK(in.size() == 3 && aux.size() == 3 && aux[0] == in[0] && aux[1] == in[1],
              "aux input {} does not match the input {}", toString(aux), toString(in));
  result.size = aux[2];
  return result;
}

Result<BidirectionalOutputs> bidirectionalOutputs(const ExecutionContext& context, bool merge,
                                                  uint32_t stateCount) {
  BidirectionalOutputs result;
  result.merge = merge;
  const uint32_t sequences = merge ? 1 : 2;
  const uint32_t count = context.outputCount();
  ANNRT_CHECK(count == sequences || count == sequences + stateCount,
              "{} outputs do not fit merge_outputs = {}", count, merge);
  result.states = count > sequences;
  result.firstState = sequences;
  return result;
}

void runRnn(const RnnCell& cell, const SequenceLayout& layout, const float* input,
            const float* auxInput, bool forward, SequenceOutput output, float* hidden) {
  const uint32_t units = cell.units;
  std::vector<float> previous(hidden, hidden + size_t{layout.batch} * units);
  for (uint32_t step = 0; step < layout.maxTime; ++step) {
    const uint32_t t = forward ? step : layout.maxTime - 1 - step;
    for (uint32_t b = 0; b < layout.batch; ++b) {
      const size_t row = layout.row(t, b);
      const float* x = input + row * cell.inputSize;
      const float* h = previous.data() + size_t{b} * units;
      float* out = output.data + row * output.stride + output.offset;
      for (uint32_t u = 0; u < units; ++u) {
        float sum = cell.bias[u];
        const float* w = cell.weights + size_t{u} * cell.inputSize;
        for (uint32_t i = 0; i < cell.inputSize; ++i) sum += x[i] * w[i];
        if (auxInput != nullptr && cell.auxWeights != nullptr) {
          const float* xa = auxInput + row * cell.auxInputSize;
          const float* wa = cell.auxWeights + size_t{u} * cell.auxInputSize;
          for (uint32_t i = 0; i < cell.auxInputSize; ++i) sum += xa[i] * wa[i];
        }
        const float* r = cell.recurrent + size_t{u} * units;
        for (uint32_t i = 0; i < units; ++i) sum += h[i] * r[i];
        out[u] = applyActivation(cell.activation, sum);
        hidden[size_t{b} * units + u] = out[u];
      }
    }
    std::copy(hidden, hidden + previous.size(), previous.begin());
  }
}

}  // namespace annrt::ops::recurrent
