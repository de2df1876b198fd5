// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/lstm_cell.h"

#include <algorithm>
#include <cmath>

namespace annrt::ops::lstm {
namespace {

constexpr float kLayerNormEpsilon = 1e-8f;
constexpr const char* kGateNames[] = {"input", "forget", "cell", "output"};

bool present(const ExecutionContext& context, uint32_t index) {
  return index != kNoOperand && index < context.inputCount() && !context.isOmittedInput(index);
}

Result<void> checkMatrix(const ExecutionContext& context, uint32_t index, uint32_t rows,
                         uint32_t cols, const char* what, const char* gate) {
  const std::vector<uint32_t>& dims = context.inputShape(index).dims;
  ANNRT_CHECK(dims.size() == 2 && dims[0] == rows && dims[1] == cols,
              "{} {} weights (input {}) have shape {}, expected [{}, {}]", gate, what, index,
              toString(dims), rows, cols);
  return {};
}

Result<void> checkVector(const ExecutionContext& context, uint32_t index, uint32_t size,
                         const char* what) {
  const std::vector<uint32_t>& dims = context.inputShape(index).dims;
  ANNRT_CHECK(dims.size() == 1 && dims[0] == size, "{} (input {}) has shape {}, expected [{}]",
              what, index, toString(dims), size);
  return {};
}

// result[b][r] += sum_c matrix[r][c] * vectors[b][c], the sum formed first.
void matrixBatchVectorAccumulate(const float* matrix, uint32_t rows, uint32_t cols,
                                 const float* vectors, uint32_t batch, float* result) {
  for (uint32_t b = 0; b < batch; ++b) {
    const float* v = vectors + size_t{b} * cols;
    for (uint32_t r = 0; r < rows; ++r) {
      const float* m = matrix + size_t{r} * cols;
      float dot = 0.0f;
      for (uint32_t c = 0; c < cols; ++c) dot += m[c] * v[c];
      result[size_t{b} * rows + r] += dot;
    }
  }
}

// Normalizes each batch row to zero mean and unit variance, then scales by
// `weights` and adds `bias`.
void layerNormalize(float* values, uint32_t size, uint32_t batch, const float* weights,
                    const float* bias) {
  for (uint32_t b = 0; b < batch; ++b) {
    float* row = values + size_t{b} * size;
    float sum = 0.0f;
    float sumSquares = 0.0f;
    for (uint32_t i = 0; i < size; ++i) {
      sum += row[i];
      sumSquares += row[i] * row[i];
    }
    const float mean = sum / static_cast<float>(size);
    const float variance = sumSquares / static_cast<float>(size) - mean * mean;
    const float inverseStddev = 1.0f / std::sqrt(variance == 0.0f ? kLayerNormEpsilon : variance);
    for (uint32_t i = 0; i < size; ++i) {
      row[i] = (row[i] - mean) * inverseStddev * weights[i] + bias[i];
    }
  }
}

void clip(float* values, size_t count, float limit) {
  if (limit <= 0.0f) return;
  for (size_t i = 0; i < count; ++i) values[i] = std::clamp(values[i], -limit, limit);
}

// Per-step buffers of the four gates, [batch, cells] each.
struct Gates {
  explicit Gates(size_t size) {
    for (auto& gate : values) gate.assign(size, 0.0f);
  }
  std::array<std::vector<float>, 4> values;
};

void step(const Config& c, const Weights& w, const Params& params, const float* input,
          const float* auxInput, const float* outputStateIn, const float* cellStateIn,
          float* output, float* cellStateOut, Gates& gates) {
  const uint32_t n = c.batch;
  const size_t size = size_t{n} * c.cells;
  for (uint32_t g = 0; g < 4; ++g) {
    if (g == kInputGate && c.cifg) continue;
    float* gate = gates.values[g].data();
    for (uint32_t b = 0; b < n; ++b) {
      for (uint32_t i = 0; i < c.cells; ++i) {
        gate[size_t{b} * c.cells + i] = c.layerNorm ? 0.0f : w.bias[g].data()[i];
      }
    }
    matrixBatchVectorAccumulate(w.inputWeights[g].data(), c.cells, c.inputSize, input, n, gate);
    if (c.aux && auxInput != nullptr) {
      matrixBatchVectorAccumulate(w.auxWeights[g].data(), c.cells, c.auxInputSize, auxInput, n,
                                  gate);
    }
    matrixBatchVectorAccumulate(w.recurrentWeights[g].data(), c.cells, c.outputSize, outputStateIn,
                                n, gate);
  }
  // Peephole connections, layer normalization and the gate nonlinearity.
  auto finishGate = [&](uint32_t g, const float* cellState, bool peephole) {
    float* gate = gates.values[g].data();
    if (peephole) {
      for (size_t i = 0; i < size; ++i) gate[i] += w.peephole[g].data()[i % c.cells] * cellState[i];
    }
    if (c.layerNorm) {
      layerNormalize(gate, c.cells, n, w.layerNorm[g].data(), w.bias[g].data());
    }
  };
  if (!c.cifg) {
    finishGate(kInputGate, cellStateIn, c.peephole);
    for (float& v : gates.values[kInputGate]) v = recurrent::sigmoid(v);
  }
  finishGate(kForgetGate, cellStateIn, c.peephole);
  for (float& v : gates.values[kForgetGate]) v = recurrent::sigmoid(v);
  finishGate(kCellGate, cellStateIn, false);

  const float* forget = gates.values[kForgetGate].data();
  float* cell = gates.values[kCellGate].data();
  const float* inputGate = gates.values[kInputGate].data();
  for (size_t i = 0; i < size; ++i) {
    cellStateOut[i] = forget[i] * cellStateIn[i];
    cell[i] = recurrent::applyActivation(params.activation, cell[i]);
    const float in = c.cifg ? 1.0f - forget[i] : inputGate[i];
    cellStateOut[i] += cell[i] * in;
  }
  clip(cellStateOut, size, params.cellClip);

  finishGate(kOutputGate, cellStateOut, c.peephole);
  float* outputGate = gates.values[kOutputGate].data();
  for (size_t i = 0; i < size; ++i) {
    outputGate[i] = recurrent::sigmoid(outputGate[i]) *
                    recurrent::applyActivation(params.activation, cellStateOut[i]);
  }

  const size_t outputCount = size_t{n} * c.outputSize;
  if (c.projection) {
    for (uint32_t b = 0; b < n; ++b) {
      for (uint32_t o = 0; o < c.outputSize; ++o) {
        output[size_t{b} * c.outputSize + o] = c.projectionBias ? w.projectionBias.data()[o] : 0.0f;
      }
    }
    matrixBatchVectorAccumulate(w.projection.data(), c.outputSize, c.cells, outputGate, n, output);
    clip(output, outputCount, params.projClip);
  } else {
    std::copy(outputGate, outputGate + outputCount, output);
  }
}

}  // namespace

TensorIndices standardIndices(uint32_t layerNormFirst) {
  TensorIndices t;
  for (uint32_t g = 0; g < 4; ++g) {
    t.inputWeights[g] = 1 + g;
    t.recurrentWeights[g] = 5 + g;
    t.bias[g] = 12 + g;
    t.layerNorm[g] = layerNormFirst == kNoOperand ? kNoOperand : layerNormFirst + g;
  }
  t.peephole = {9, 10, kNoOperand, 11};
  t.projection = 16;
  t.projectionBias = 17;
  t.outputStateIn = 18;
  t.cellStateIn = 19;
  return t;
}

Result<Config> checkTensors(const ExecutionContext& context, const TensorIndices& t, uint32_t batch,
                            uint32_t inputSize, bool useAux, uint32_t auxInputSize) {
  for (uint32_t g = kForgetGate; g <= kOutputGate; ++g) {
    ANNRT_CHECK(present(context, t.inputWeights[g]), "{} input weights are omitted", kGateNames[g]);
    ANNRT_CHECK(present(context, t.recurrentWeights[g]), "{} recurrent weights are omitted",
                kGateNames[g]);
    ANNRT_CHECK(present(context, t.bias[g]), "{} gate bias is omitted", kGateNames[g]);
  }
  ANNRT_CHECK(present(context, t.outputStateIn) && present(context, t.cellStateIn),
              "the state inputs are omitted");
  Config c;
  c.batch = batch;
  c.inputSize = inputSize;
  const std::vector<uint32_t>& toOutput = context.inputShape(t.inputWeights[kOutputGate]).dims;
  const std::vector<uint32_t>& recurrentToOutput =
      context.inputShape(t.recurrentWeights[kOutputGate]).dims;
  ANNRT_CHECK(toOutput.size() == 2 && recurrentToOutput.size() == 2,
              "output gate weights must have rank 2");
  c.cells = toOutput[0];
  c.outputSize = recurrentToOutput[1];
  c.cifg = !present(context, t.inputWeights[kInputGate]);
  ANNRT_CHECK(c.cifg == !present(context, t.recurrentWeights[kInputGate]),
              "input-to-input and recurrent-to-input weights must be both present or both "
              "omitted");
  for (uint32_t g = c.cifg ? 1 : 0; g < 4; ++g) {
    ANNRT_RETURN_IF_ERROR(
        checkMatrix(context, t.inputWeights[g], c.cells, inputSize, "input", kGateNames[g]));
    ANNRT_RETURN_IF_ERROR(checkMatrix(context, t.recurrentWeights[g], c.cells, c.outputSize,
                                      "recurrent", kGateNames[g]));
    ANNRT_RETURN_IF_ERROR(checkVector(context, t.bias[g], c.cells, "gate bias"));
  }
  ANNRT_CHECK(!c.cifg || !present(context, t.bias[kInputGate]),
              "the input gate bias is present although CIFG is used");

  const bool peepholeInput = present(context, t.peephole[kInputGate]);
  const bool peepholeForget = present(context, t.peephole[kForgetGate]);
  const bool peepholeOutput = present(context, t.peephole[kOutputGate]);
  ANNRT_CHECK(((peepholeInput || c.cifg) && peepholeForget && peepholeOutput) ||
                  (!peepholeInput && !peepholeForget && !peepholeOutput),
              "peephole weights must be all present or all omitted");
  c.peephole = peepholeOutput;
  for (uint32_t g : {kInputGate, kForgetGate, kOutputGate}) {
    if (present(context, t.peephole[g])) {
      ANNRT_RETURN_IF_ERROR(checkVector(context, t.peephole[g], c.cells, "peephole weights"));
    }
  }

  c.projection = present(context, t.projection);
  c.projectionBias = present(context, t.projectionBias);
  ANNRT_CHECK(c.projection || !c.projectionBias, "projection bias without projection weights");
  if (c.projection) {
    ANNRT_RETURN_IF_ERROR(
        checkMatrix(context, t.projection, c.outputSize, c.cells, "projection", "the"));
  } else {
    ANNRT_CHECK(c.outputSize == c.cells,
                "without projection the output size {} must equal the cell count {}", c.outputSize,
                c.cells);
  }
  if (c.projectionBias) {
    ANNRT_RETURN_IF_ERROR(checkVector(context, t.projectionBias, c.outputSize, "projection bias"));
  }

  c.layerNorm = present(context, t.layerNorm[kOutputGate]);
  for (uint32_t g = 0; g < 4; ++g) {
    const bool expected = c.layerNorm && !(g == kInputGate && c.cifg);
    ANNRT_CHECK(present(context, t.layerNorm[g]) == expected, "{} layer norm weights must be {}",
                kGateNames[g], expected ? "present" : "omitted");
    if (expected) {
      ANNRT_RETURN_IF_ERROR(checkVector(context, t.layerNorm[g], c.cells, "layer norm weights"));
    }
  }

  c.aux = useAux;
  c.auxInputSize = useAux ? auxInputSize : 0;
  for (uint32_t g = 0; g < 4; ++g) {
    const bool expected = useAux && !(g == kInputGate && c.cifg);
    ANNRT_CHECK(present(context, t.auxWeights[g]) == expected, "{} aux weights must be {}",
                kGateNames[g], expected ? "present" : "omitted");
    if (expected) {
      ANNRT_RETURN_IF_ERROR(
          checkMatrix(context, t.auxWeights[g], c.cells, auxInputSize, "aux", kGateNames[g]));
    }
  }

  const std::vector<uint32_t>& outputState = context.inputShape(t.outputStateIn).dims;
  const std::vector<uint32_t>& cellState = context.inputShape(t.cellStateIn).dims;
  ANNRT_CHECK(outputState == (std::vector<uint32_t>{batch, c.outputSize}),
              "output state {} is not [{}, {}]", toString(outputState), batch, c.outputSize);
  ANNRT_CHECK(cellState == (std::vector<uint32_t>{batch, c.cells}), "cell state {} is not [{}, {}]",
              toString(cellState), batch, c.cells);
  return c;
}

Result<Params> readParams(const ExecutionContext& context, uint32_t activation, uint32_t cellClip,
                          uint32_t projClip) {
  ANNRT_RETURN_IF_ERROR(recurrent::checkPresent(context, {activation, cellClip, projClip}));
  Params p;
  ANNRT_ASSIGN_OR_RETURN(p.activation,
                         recurrent::toActivation(context.scalar<int32_t>(activation), true));
  p.cellClip = recurrent::floatScalar(context, cellClip);
  p.projClip = recurrent::floatScalar(context, projClip);
  ANNRT_CHECK(p.cellClip >= 0.0f && p.projClip >= 0.0f,
              "clipping thresholds ({}, {}) must not be negative", p.cellClip, p.projClip);
  return p;
}

Weights::Weights(const ExecutionContext& context, const TensorIndices& t)
    : projection(context, t.projection),
      projectionBias(context, t.projectionBias),
      outputStateIn(context, t.outputStateIn),
      cellStateIn(context, t.cellStateIn) {
  for (uint32_t g = 0; g < 4; ++g) {
    auto load = [&](uint32_t index) {
      return index == kNoOperand ? recurrent::FloatInput() : recurrent::FloatInput(context, index);
    };
    inputWeights[g] = load(t.inputWeights[g]);
    recurrentWeights[g] = load(t.recurrentWeights[g]);
    peephole[g] = load(t.peephole[g]);
    bias[g] = load(t.bias[g]);
    auxWeights[g] = load(t.auxWeights[g]);
    layerNorm[g] = load(t.layerNorm[g]);
  }
}

State::State(const Config& config, const Weights& weights)
    : output(weights.outputStateIn.data(),
             weights.outputStateIn.data() + size_t{config.batch} * config.outputSize),
      cell(weights.cellStateIn.data(),
           weights.cellStateIn.data() + size_t{config.batch} * config.cells) {}

void runSequence(const Config& config, const Weights& weights, const Params& params,
                 const recurrent::SequenceLayout& layout, const float* input, const float* auxInput,
                 bool forward, recurrent::SequenceOutput output, State& state, float* scratch) {
  const size_t size = size_t{config.batch} * config.cells;
  Gates gates(size);
  std::vector<float> stepInput(size_t{config.batch} * config.inputSize);
  std::vector<float> stepAux(size_t{config.batch} * config.auxInputSize);
  std::vector<float> stepOutput(size_t{config.batch} * config.outputSize);
  std::vector<float> cellOut(size);
  for (uint32_t s = 0; s < layout.maxTime; ++s) {
    const uint32_t t = forward ? s : layout.maxTime - 1 - s;
    recurrent::gatherStep(input, layout, t, config.inputSize, stepInput.data());
    if (config.aux && auxInput != nullptr) {
      recurrent::gatherStep(auxInput, layout, t, config.auxInputSize, stepAux.data());
    }
    step(config, weights, params, stepInput.data(), config.aux ? stepAux.data() : nullptr,
         state.output.data(), state.cell.data(), stepOutput.data(), cellOut.data(), gates);
    state.output = stepOutput;
    state.cell.swap(cellOut);
    for (uint32_t b = 0; b < layout.batch; ++b) {
      const float* from = stepOutput.data() + size_t{b} * config.outputSize;
      std::copy(from, from + config.outputSize,
                output.data + layout.row(t, b) * output.stride + output.offset);
    }
  }
  if (scratch != nullptr) {
    for (uint32_t g : {kInputGate, kCellGate, kForgetGate, kOutputGate}) {
      if (g == kInputGate && config.cifg) continue;
      scratch = std::copy(gates.values[g].begin(), gates.values[g].end(), scratch);
    }
  }
}

}  // namespace annrt::ops::lstm
