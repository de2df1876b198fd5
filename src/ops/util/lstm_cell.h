// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The float LSTM cell shared by LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
// BIDIRECTIONAL_SEQUENCE_LSTM, as the NNAPI reference computes it (TFLite's
// float LSTM step): optional CIFG (coupled input and forget gates), peephole
// connections, projection with bias and clipping, layer normalization and an
// auxiliary input. One direction's tensors are named by operand indices so
// that each operation maps its own input list onto the same checks and math.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include "ops/operation.h"
#include "ops/util/recurrent.h"

namespace annrt::ops::lstm {

enum Gate : uint32_t { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };
inline constexpr uint32_t kNoOperand = std::numeric_limits<uint32_t>::max();

// The operand indices of one direction's tensors; kNoOperand where the
// operation has no such input. Peepholes are indexed by gate but exist only
// for the input, forget and output gates.
struct TensorIndices {
  std::array<uint32_t, 4> inputWeights{};      // [cells, inputSize]
  std::array<uint32_t, 4> recurrentWeights{};  // [cells, outputSize]
  std::array<uint32_t, 4> peephole{};          // [cells]; kCellGate unused
  std::array<uint32_t, 4> bias{};              // [cells]
  uint32_t projection = kNoOperand;            // [outputSize, cells]
  uint32_t projectionBias = kNoOperand;        // [outputSize]
  uint32_t outputStateIn = kNoOperand;         // [batch, outputSize]
  uint32_t cellStateIn = kNoOperand;           // [batch, cells]
  std::array<uint32_t, 4> auxWeights{kNoOperand, kNoOperand, kNoOperand, kNoOperand};
  std::array<uint32_t, 4> layerNorm{kNoOperand, kNoOperand, kNoOperand, kNoOperand};
};

// The indices of the standard layout (LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM:
// weights from 1, states at 18 and 19, layer norm weights at `layerNormFirst`
// or none).
TensorIndices standardIndices(uint32_t layerNormFirst);

// Which optional parts one direction uses, and its sizes.
struct Config {
  bool cifg = false;
  bool peephole = false;
  bool layerNorm = false;
  bool projection = false;
  bool projectionBias = false;
  bool aux = false;
  uint32_t batch = 0, inputSize = 0, auxInputSize = 0, cells = 0, outputSize = 0;
};

// Checks one direction's tensors against each other and against an input of
// `inputSize` (and an aux input of `auxInputSize` when `useAux`), as the
// reference's CheckInputTensorDimensions does, plus the state inputs.
Result<Config> checkTensors(const ExecutionContext& context, const TensorIndices& indices,
                            uint32_t batch, uint32_t inputSize, bool useAux, uint32_t auxInputSize);

struct Params {
  recurrent::Activation activation = recurrent::Activation::TANH;
  float cellClip = 0.0f;  // 0: no clipping
  float projClip = 0.0f;
};

// Reads and checks the activation and clipping scalars.
Result<Params> readParams(const ExecutionContext& context, uint32_t activation, uint32_t cellClip,
                          uint32_t projClip);

// Float views of one direction's tensors.
struct Weights {
  Weights(const ExecutionContext& context, const TensorIndices& indices);
  std::array<recurrent::FloatInput, 4> inputWeights, recurrentWeights, peephole, bias, auxWeights,
      layerNorm;
  recurrent::FloatInput projection, projectionBias, outputStateIn, cellStateIn;
};

// One direction's state across time steps: the output state [batch,
// outputSize] and cell state [batch, cells], initialized from the inputs.
struct State {
  State(const Config& config, const Weights& weights);
  std::vector<float> output, cell;
};

// Runs one direction over a sequence (backwards when !forward), updating
// `state`. `scratch`, when not null, receives the last step's gate buffers
// (batch * cells * (cifg ? 3 : 4) values).
void runSequence(const Config& config, const Weights& weights, const Params& params,
                 const recurrent::SequenceLayout& layout, const float* input, const float* auxInput,
                 bool forward, recurrent::SequenceOutput output, State& state,
                 float* scratch = nullptr);

}  // namespace annrt::ops::lstm
