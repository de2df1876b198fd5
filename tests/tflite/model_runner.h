// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Test helpers: run an imported (or hand-built) NNAPI model on one device
// through the public NNAPI API, with the tflite-oracle's deterministic inputs.
#pragma once

#include <android/NeuralNetworks.h>

#include <string>
#include <vector>

#include "common/result.h"
#include "tflite/importer.h"

namespace annrt::tflite::testing {

// The oracle's "sin01" input k: float32 sin(i*0.01 + k)*0.5 + 0.5 (computed in
// double), uint8 (i*7 + 13k) mod 256, int8 that minus 128.
std::vector<uint8_t> oracleInput(const TensorInfo& info, size_t k);

// Compiles `model` for the named device (or, with an empty name, for the
// runtime's own plan over all devices) on `threads` threads
// (ANNRT_COMPILATION_NUM_THREADS; 0: the devices' choice) and runs it once;
// returns each output's bytes (sized from `outputs`' dims).
Result<std::vector<std::vector<uint8_t>>> runModel(ANeuralNetworksModel* model,
                                                   const std::vector<std::vector<uint8_t>>& inputs,
                                                   const std::vector<TensorInfo>& outputs,
                                                   const std::string& device = "nnapi-reference",
                                                   uint32_t threads = 0);

struct RunOutput {
  std::vector<uint32_t> dims;  // from ANeuralNetworksExecution_getOutputOperandDimensions
  std::vector<uint8_t> bytes;  // the whole buffer given to the execution
};

// Runs once with each input's dims given at execution time (the operand type
// of ANeuralNetworksExecution_setInput), for models whose inputs have
// unknown dims; every output gets a buffer of `outputBytes` (so their dims
// must be unknown too: NNAPI wants a known output's exact size).
Result<std::vector<RunOutput>> runWithInputDims(ANeuralNetworksModel* model,
                                                const std::vector<TensorInfo>& inputs,
                                                const std::vector<std::vector<uint8_t>>& data,
                                                size_t outputCount, size_t outputBytes,
                                                const std::string& device = "nnapi-reference");

}  // namespace annrt::tflite::testing
