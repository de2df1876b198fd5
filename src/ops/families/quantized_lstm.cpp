// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The integer LSTMs:
// - QUANTIZED_LSTM (feature level 4): int8 input and output state, int16
//   cell state, int8 symmetric weights, int32 biases, optional CIFG,
//   peephole, projection and layer normalization; gates are int16 fixed
//   point (Q3.12 into sigmoid/tanh, Q0.15 out), as TFLite's 8x8_16 integer
//   LSTM that the reference follows.
// - QUANTIZED_16BIT_LSTM (feature level 3): one step of TFLite's quantized
//   LstmCell: uint8 input and output (scale 1/128, zero point 128), int16
//   cell state in Q4.11, gate pre-activations in Q3.12.
// Both use the 16-bit gemmlowp arithmetic of util/fixed_point16.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "ops/operation.h"
#include "ops/util/activation_fixed_point.h"
#include "ops/util/fixed_point16.h"
#include "ops/util/lstm_cell.h"
#include "ops/util/quantization.h"
#include "ops/util/recurrent.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::quantized_lstm {
namespace {

using fixed16::Q;
using ops::lstm::Config;
using ops::lstm::kCellGate;
using ops::lstm::kForgetGate;
using ops::lstm::kInputGate;
using ops::lstm::kOutputGate;

// output[b][r] = saturate(output[b][r] + zp + M(bias[r] + sum_c input[b][c] * weights[r][c])).
template <typename T>
void matmulAccumulate(const int8_t* input, const int32_t* bias, const int8_t* weights,
                      QuantizedMultiplier multiplier, uint32_t batch, uint32_t inputSize,
                      uint32_t outputSize, int32_t outputZeroPoint, T* output) {
  for (uint32_t b = 0; b < batch; ++b) {
    for (uint32_t r = 0; r < outputSize; ++r) {
      int32_t acc = bias[r];
      for (uint32_t c = 0; c < inputSize; ++c) {
        acc += int32_t{input[size_t{b} * inputSize + c]} * weights[size_t{r} * inputSize + c];
      }
      acc = multiplyByQuantizedMultiplier(acc, multiplier) + outputZeroPoint;
      T& out = output[size_t{b} * outputSize + r];
      out = saturateCast<T>(acc + out);
    }
  }
}

// ---- QUANTIZED_LSTM ----------------------------------------------------------

namespace integer {

constexpr uint32_t kInput = 0, kOutputStateIn = 18, kCellStateIn = 19, kLayerNorm = 20,
                   kCellClip = 24, kProjClip = 25, kIntermediateScale = 26, kHiddenZeroPoint = 30,
                   kHiddenScale = 31;
constexpr uint32_t kOutputStateOut = 0, kCellStateOut = 1, kOutput = 2;

Result<void> validate(const ValidationContext& context) {
  using enum OperandType;
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {TENSOR_QUANT8_ASYMM_SIGNED,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_INT32,
                                                     TENSOR_INT32,
                                                     TENSOR_INT32,
                                                     TENSOR_INT32,
                                                     TENSOR_QUANT8_SYMM,
                                                     TENSOR_INT32,
                                                     TENSOR_QUANT8_ASYMM_SIGNED,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     TENSOR_QUANT16_SYMM,
                                                     FLOAT32,
                                                     FLOAT32,
                                                     FLOAT32,
                                                     FLOAT32,
                                                     FLOAT32,
                                                     FLOAT32,
                                                     INT32,
                                                     FLOAT32}));
  return validateOutputTypes(
      context, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM_SIGNED});
}

Result<Config> config(const ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(
      context, {kInput, kCellClip, kProjClip, kIntermediateScale, kIntermediateScale + 1,
                kIntermediateScale + 2, kIntermediateScale + 3, kHiddenZeroPoint, kHiddenScale}));
  const Shape& input = context.inputShape(kInput);
  ANNRT_CHECK(rank(input) == 2, "input has rank {}, expected 2", rank(input));
  return ops::lstm::checkTensors(context, ops::lstm::standardIndices(kLayerNorm), input.dims[0],
                                 input.dims[1], false, 0);
}

// log2 of the cell state scale, which must be a power of two.
Result<int> cellShift(const ExecutionContext& context) {
  const float scale = context.inputShape(kCellStateIn).scale;
  ANNRT_CHECK(scale > 0.0f, "cell state scale {} must be positive", scale);
  const float log2 = std::log(scale) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2);
  ANNRT_CHECK(std::abs(log2 - rounded) < 1e-3f, "cell state scale {} is not a power of two", scale);
  const int shift = static_cast<int>(rounded);
  ANNRT_CHECK(shift <= -9 && shift >= -15, "cell state scale 2^{} is not in [2^-15, 2^-9]", shift);
  return shift;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Config c, config(context));
  ANNRT_RETURN_IF_ERROR(cellShift(context));
  ANNRT_CHECK(context.scalar<float>(kHiddenScale) > 0.0f, "hidden state scale must be positive");
  ANNRT_RETURN_IF_ERROR(
      recurrent::setOutputDims(context, kOutputStateOut, {c.batch, c.outputSize}));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, kCellStateOut, {c.batch, c.cells}));
  return recurrent::setOutputDims(context, kOutput, {c.batch, c.outputSize});
}

// One gate's quantization: the effective multipliers of its input, recurrent
// and peephole products, and its layer normalization; zero-point
// corrections (and, without layer norm, the bias) folded into per-row biases.
struct GateQuant {
  QuantizedMultiplier input, recurrent, peephole, layerNorm;
  std::vector<int32_t> inputBias, recurrentBias;
  int32_t varianceLimit = 0;
};

// bias[r] + zeroPoint * sum_c weights[r][c] (bias may be null).
std::vector<int32_t> foldZeroPoint(int32_t zeroPoint, const int8_t* weights, const int32_t* bias,
                                   uint32_t rows, uint32_t cols) {
  std::vector<int32_t> result(rows, 0);
  for (uint32_t r = 0; r < rows; ++r) {
    int32_t sum = 0;
    for (uint32_t c = 0; c < cols; ++c) sum += weights[size_t{r} * cols + c];
    result[r] = (bias != nullptr ? bias[r] : 0) + sum * zeroPoint;
  }
  return result;
}

// Integer layer normalization of each batch row of `gate` (TFLite's
// ApplyLayerNorm): mean and variance in Q10, 1/stddev as a fixed-point
// multiplier, then weights, bias and the layer norm scale.
void layerNorm(int16_t* gate, uint32_t batch, uint32_t cells, const int16_t* weights,
               const int32_t* bias, const GateQuant& q) {
  for (uint32_t b = 0; b < batch; ++b) {
    int16_t* row = gate + size_t{b} * cells;
    int64_t sum = 0;
    int64_t sumSquares = 0;
    for (uint32_t i = 0; i < cells; ++i) {
      sum += row[i];
      sumSquares += int64_t{row[i]} * row[i];
    }
    const auto mean = static_cast<int32_t>(sum * 1024 / cells);
    const int32_t perElement = (1 << 20) / static_cast<int32_t>(cells);
    const int64_t variance = sumSquares * perElement - int64_t{mean} * mean;
    auto variance2 = static_cast<int32_t>(variance / (1 << 20));
    if (variance2 < 1) variance2 = q.varianceLimit;
    const QuantizedMultiplier inverseStddev = fixed_point::inverseSqrtMultiplier(variance2);
    const QuantizedMultiplier scale{q.layerNorm.multiplier, q.layerNorm.shift + 12};
    for (uint32_t i = 0; i < cells; ++i) {
      const int32_t shifted = 1024 * int32_t{row[i]} - mean;
      const int32_t rescaled = multiplyByQuantizedMultiplier(shifted, inverseStddev);
      const int64_t weighted = int64_t{rescaled} * weights[i] + bias[i];
      const auto rounded =
          static_cast<int32_t>((weighted > 0 ? weighted + 512 : weighted - 512) / 1024);
      row[i] = saturateCast<int16_t>(multiplyByQuantizedMultiplier(rounded, scale));
    }
  }
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Config c, config(context));
  ANNRT_ASSIGN_OR_RETURN(int shift, cellShift(context));
  const ops::lstm::TensorIndices t = ops::lstm::standardIndices(kLayerNorm);
  const Shape& input = context.inputShape(kInput);
  const Shape& outputStateIn = context.inputShape(kOutputStateIn);
  const float hiddenScale = context.scalar<float>(kHiddenScale);
  const int32_t hiddenZeroPoint = context.scalar<int32_t>(kHiddenZeroPoint);
  const uint32_t n = c.batch;
  const size_t size = size_t{n} * c.cells;

  std::array<GateQuant, 4> q;
  for (uint32_t g = 0; g < 4; ++g) {
    if (g == kInputGate && c.cifg) continue;
    const float intermediate = context.scalar<float>(kIntermediateScale + g);
    ANNRT_CHECK(intermediate > 0.0f, "intermediate scale {} must be positive", intermediate);
    const Shape& w = context.inputShape(t.inputWeights[g]);
    const Shape& r = context.inputShape(t.recurrentWeights[g]);
    q[g].input = quantizeMultiplier(w.scale * input.scale / intermediate);
    q[g].recurrent = quantizeMultiplier(r.scale * outputStateIn.scale / intermediate);
    if (c.peephole && g != kCellGate) {
      q[g].peephole = quantizeMultiplier(static_cast<float>(
          std::pow(2.0, shift) * context.inputShape(t.peephole[g]).scale / intermediate));
    }
    if (c.layerNorm) {
      const float scale = context.inputShape(t.layerNorm[g]).scale;
      q[g].layerNorm = quantizeMultiplier(scale);
      q[g].varianceLimit = std::min(1, static_cast<int32_t>(10000 * scale));
    }
    const int32_t* bias = c.layerNorm ? nullptr : context.input<int32_t>(t.bias[g]);
    q[g].inputBias = foldZeroPoint(-input.zeroPoint, context.input<int8_t>(t.inputWeights[g]), bias,
                                   c.cells, c.inputSize);
    q[g].recurrentBias =
        foldZeroPoint(-outputStateIn.zeroPoint, context.input<int8_t>(t.recurrentWeights[g]),
                      nullptr, c.cells, c.outputSize);
  }

  const int8_t* x = context.input<int8_t>(kInput);
  const int8_t* h = context.input<int8_t>(kOutputStateIn);
  const int16_t* cellIn = context.input<int16_t>(kCellStateIn);
  int16_t* cellOut = context.output<int16_t>(kCellStateOut);

  // Pre-activation of gate g in Q3.12 (peepholes read `cellState`).
  std::array<std::vector<int16_t>, 4> gates;
  auto computeGate = [&](uint32_t g, const int16_t* cellState) {
    std::vector<int16_t>& gate = gates[g];
    gate.assign(size, 0);
    matmulAccumulate(x, q[g].inputBias.data(), context.input<int8_t>(t.inputWeights[g]), q[g].input,
                     n, c.inputSize, c.cells, 0, gate.data());
    matmulAccumulate(h, q[g].recurrentBias.data(), context.input<int8_t>(t.recurrentWeights[g]),
                     q[g].recurrent, n, c.outputSize, c.cells, 0, gate.data());
    if (c.peephole && g != kCellGate) {
      const int16_t* weights = context.input<int16_t>(t.peephole[g]);
      for (size_t i = 0; i < size; ++i) {
        const int32_t product = multiplyByQuantizedMultiplier(
            int32_t{weights[i % c.cells]} * cellState[i], q[g].peephole);
        gate[i] = saturateCast<int16_t>(product + gate[i]);
      }
    }
    if (c.layerNorm) {
      layerNorm(gate.data(), n, c.cells, context.input<int16_t>(t.layerNorm[g]),
                context.input<int32_t>(t.bias[g]), q[g]);
    }
  };
  auto sigmoid = [](std::vector<int16_t>& gate) {
    for (int16_t& v : gate) v = fixed16::logistic(Q<3>{v}).raw;
  };

  computeGate(kForgetGate, cellIn);
  sigmoid(gates[kForgetGate]);
  computeGate(kCellGate, cellIn);
  for (int16_t& v : gates[kCellGate]) v = fixed16::tanh(Q<3>{v}).raw;
  if (c.cifg) {
    gates[kInputGate].resize(size);
    for (size_t i = 0; i < size; ++i) {
      gates[kInputGate][i] = static_cast<int16_t>(32767 - gates[kForgetGate][i]);
    }
  } else {
    computeGate(kInputGate, cellIn);
    sigmoid(gates[kInputGate]);
  }

  // c = f * c_prev + i * g, in the cell state's Q format.
  const float cellClip = context.scalar<float>(kCellClip);
  const float cellScale = context.inputShape(kCellStateIn).scale;
  const auto quantizedCellClip = static_cast<int16_t>(
      cellClip > 0.0f ? std::min(std::max(cellClip / cellScale, -32768.0f), 32767.0f) : 0.0f);
  for (size_t i = 0; i < size; ++i) {
    const auto kept =
        static_cast<int16_t>(roundingDivideByPOT(int32_t{gates[kForgetGate][i]} * cellIn[i], 15));
    const auto added = static_cast<int16_t>(
        roundingDivideByPOT(int32_t{gates[kInputGate][i]} * gates[kCellGate][i], 30 + shift));
    int16_t value = saturateCast<int16_t>(int32_t{kept} + added);
    if (quantizedCellClip > 0) {
      value =
          std::clamp<int16_t>(value, static_cast<int16_t>(-quantizedCellClip), quantizedCellClip);
    }
    cellOut[i] = value;
  }

  computeGate(kOutputGate, cellOut);
  sigmoid(gates[kOutputGate]);

  // Hidden state o * tanh(c), requantized to int8 (the reference subtracts
  // the hidden zero point here and adds it back through the projection bias).
  const QuantizedMultiplier hiddenMultiplier =
      quantizeMultiplier(static_cast<float>(std::pow(2.0, -15) / hiddenScale * std::pow(2.0, -15)));
  std::vector<int8_t> hidden(size);
  for (size_t i = 0; i < size; ++i) {
    int16_t activated = 0;
    fixed16::tanhRaw(15 + shift, cellOut[i], &activated);
    int32_t value =
        multiplyByQuantizedMultiplier(int32_t{gates[kOutputGate][i]} * activated, hiddenMultiplier);
    hidden[i] = saturateCast<int8_t>(value - hiddenZeroPoint);
  }

  int8_t* output = context.output<int8_t>(kOutput);
  const size_t outputCount = size_t{n} * c.outputSize;
  if (c.projection) {
    const Shape& projection = context.inputShape(t.projection);
    const QuantizedMultiplier projectionMultiplier =
        quantizeMultiplier(projection.scale * hiddenScale / outputStateIn.scale);
    const std::vector<int32_t> projectionBias =
        foldZeroPoint(hiddenZeroPoint, context.input<int8_t>(t.projection),
                      c.projectionBias ? context.input<int32_t>(t.projectionBias) : nullptr,
                      c.outputSize, c.cells);
    std::fill(output, output + outputCount, 0);
    matmulAccumulate(hidden.data(), projectionBias.data(), context.input<int8_t>(t.projection),
                     projectionMultiplier, n, c.cells, c.outputSize, outputStateIn.zeroPoint,
                     output);
    const float projClip = context.scalar<float>(kProjClip);
    if (projClip > 0.0f) {
      const auto limit =
          static_cast<int8_t>(std::min(std::max(projClip / projection.scale, -128.0f), 127.0f));
      if (limit > 0) {
        for (size_t i = 0; i < outputCount; ++i) {
          output[i] = std::clamp<int8_t>(output[i], static_cast<int8_t>(-limit), limit);
        }
      }
    }
  } else {
    std::copy(hidden.begin(), hidden.begin() + static_cast<std::ptrdiff_t>(outputCount), output);
  }
  std::copy(output, output + outputCount, context.output<int8_t>(kOutputStateOut));
  return {};
}

}  // namespace integer

// ---- QUANTIZED_16BIT_LSTM ------------------------------------------------------

namespace legacy {

constexpr uint32_t kInput = 0, kInputWeights = 1, kRecurrentWeights = 5, kBias = 9,
                   kPrevCellState = 13, kPrevOutput = 14;
constexpr uint32_t kCellStateOut = 0, kOutput = 1;
// Gate order of the weight and bias inputs.
constexpr uint32_t kGates = 4;

Result<void> validate(const ValidationContext& context) {
  using enum OperandType;
  ANNRT_RETURN_IF_ERROR(validateInputTypes(
      context, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM,
                TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM,
                TENSOR_QUANT8_ASYMM, TENSOR_INT32, TENSOR_INT32, TENSOR_INT32, TENSOR_INT32,
                TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM}));
  return validateOutputTypes(context, {TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM});
}

struct Sizes {
  uint32_t batch = 0, inputSize = 0, outputSize = 0;
};

Result<Sizes> sizes(const ExecutionContext& context) {
  const Shape& input = context.inputShape(kInput);
  ANNRT_CHECK(rank(input) == 2, "input has rank {}, expected 2", rank(input));
  Sizes s{input.dims[0], input.dims[1], 0};
  const Shape& weights = context.inputShape(kInputWeights);
  ANNRT_CHECK(rank(weights) == 2, "weights have rank {}, expected 2", rank(weights));
  s.outputSize = weights.dims[0];
  for (uint32_t g = 0; g < kGates; ++g) {
    const Shape& w = context.inputShape(kInputWeights + g);
    const Shape& r = context.inputShape(kRecurrentWeights + g);
    ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kInputWeights + g,
                                               {s.outputSize, s.inputSize}, "input weights"));
    ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kRecurrentWeights + g,
                                               {s.outputSize, s.outputSize}, "recurrent weights"));
    ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kBias + g, {s.outputSize}, "bias"));
    ANNRT_CHECK(w.scale == weights.scale && w.zeroPoint == weights.zeroPoint &&
                    r.scale == weights.scale && r.zeroPoint == weights.zeroPoint,
                "all weights must share one scale and zero point");
    const Shape& bias = context.inputShape(kBias + g);
    ANNRT_CHECK(bias.zeroPoint == 0 &&
                    std::abs(bias.scale - weights.scale * input.scale) <= 1e-6f * bias.scale,
                "bias scale {} is not input scale * weights scale", bias.scale);
  }
  ANNRT_RETURN_IF_ERROR(recurrent::checkDims(context, kPrevCellState, {s.batch, s.outputSize},
                                             "previous cell state"));
  ANNRT_RETURN_IF_ERROR(
      recurrent::checkDims(context, kPrevOutput, {s.batch, s.outputSize}, "previous output"));
  const Shape& prevOutput = context.inputShape(kPrevOutput);
  const Shape& prevCell = context.inputShape(kPrevCellState);
  ANNRT_CHECK(input.scale == 1.0f / 128 && input.zeroPoint == 128 &&
                  prevOutput.scale == 1.0f / 128 && prevOutput.zeroPoint == 128,
              "input and output must have scale 1/128 and zero point 128");
  ANNRT_CHECK(prevCell.scale == 1.0f / 2048 && prevCell.zeroPoint == 0,
              "the cell state must have scale 1/2048 and zero point 0");
  return s;
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Sizes s, sizes(context));
  ANNRT_RETURN_IF_ERROR(recurrent::setOutputDims(context, kCellStateOut, {s.batch, s.outputSize}));
  return recurrent::setOutputDims(context, kOutput, {s.batch, s.outputSize});
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Sizes s, sizes(context));
  const QuantizedMultiplier accumulator =
      quantizeMultiplier(4096.0 * context.inputShape(kBias).scale);
  const int32_t weightsZeroPoint = context.inputShape(kInputWeights).zeroPoint;
  const uint8_t* input = context.input<uint8_t>(kInput);
  const uint8_t* prevOutput = context.input<uint8_t>(kPrevOutput);
  const int16_t* prevCell = context.input<int16_t>(kPrevCellState);
  int16_t* cellOut = context.output<int16_t>(kCellStateOut);
  uint8_t* output = context.output<uint8_t>(kOutput);

  // Fully connected into Q3.12, per gate, exactly as the reference lays it
  // out: it concatenates [input, previous output] but builds each weight row
  // as [recurrent weights, input weights], so the two line up column by
  // column only when inputSize == outputSize. The conformance vectors follow
  // the reference, and so does this.
  const uint32_t depth = s.inputSize + s.outputSize;
  std::vector<int32_t> concatenated(depth), row(depth);
  auto preActivation = [&](uint32_t gate, uint32_t b, uint32_t unit) {
    const uint8_t* w = context.input<uint8_t>(kInputWeights + gate) + size_t{unit} * s.inputSize;
    const uint8_t* r =
        context.input<uint8_t>(kRecurrentWeights + gate) + size_t{unit} * s.outputSize;
    for (uint32_t i = 0; i < s.outputSize; ++i) row[i] = int32_t{r[i]} - weightsZeroPoint;
    for (uint32_t i = 0; i < s.inputSize; ++i) {
      row[s.outputSize + i] = int32_t{w[i]} - weightsZeroPoint;
    }
    for (uint32_t i = 0; i < s.inputSize; ++i) {
      concatenated[i] = int32_t{input[size_t{b} * s.inputSize + i]} - 128;
    }
    for (uint32_t i = 0; i < s.outputSize; ++i) {
      concatenated[s.inputSize + i] = int32_t{prevOutput[size_t{b} * s.outputSize + i]} - 128;
    }
    int32_t acc = context.input<int32_t>(kBias + gate)[unit];
    for (uint32_t d = 0; d < depth; ++d) acc += concatenated[d] * row[d];
    return Q<3>{saturateCast<int16_t>(multiplyByQuantizedMultiplier(acc, accumulator))};
  };

  for (uint32_t b = 0; b < s.batch; ++b) {
    for (uint32_t u = 0; u < s.outputSize; ++u) {
      const Q<0> inputGate = fixed16::logistic(preActivation(kInputGate, b, u));
      const Q<0> modulation = fixed16::tanh(preActivation(kCellGate, b, u));
      const Q<0> forgetGate = fixed16::logistic(preActivation(kForgetGate, b, u));
      const Q<0> outputGate = fixed16::logistic(preActivation(kOutputGate, b, u));
      const size_t index = size_t{b} * s.outputSize + u;
      const Q<4> kept = forgetGate * Q<4>{prevCell[index]};
      const Q<4> state = fixed16::saturatingAdd(fixed16::rescale<4>(inputGate * modulation), kept);
      const Q<0> activation = outputGate * fixed16::tanh(fixed16::rescale<3>(state));
      cellOut[index] = state.raw;
      const int32_t rescaled = roundingDivideByPOT(activation.raw, 8);
      output[index] = static_cast<uint8_t>(128 + std::clamp(rescaled, -128, 127));
    }
  }
  return {};
}

}  // namespace legacy

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::QUANTIZED_16BIT_LSTM,
     .name = "QUANTIZED_16BIT_LSTM",
     .validate = legacy::validate,
     .prepare = legacy::prepare,
     .execute = legacy::execute},
    {.type = OperationType::QUANTIZED_LSTM,
     .name = "QUANTIZED_LSTM",
     .validate = integer::validate,
     .prepare = integer::prepare,
     .execute = integer::execute,
     .allowOmittedOperand = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::quantized_lstm
