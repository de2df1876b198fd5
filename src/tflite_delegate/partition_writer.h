// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Writes a set of TFLite nodes as a one-subgraph .tflite file, so that annrt's
// importer (the one mapping from TFLite operators to NNAPI) converts a
// delegated partition exactly as it converts a whole file. Constant tensors
// are copied into the file's buffers.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "tensorflow/lite/c/common.h"

namespace annrt::tflite::delegate {

struct WrittenPartition {
  std::vector<uint8_t> file;               // the .tflite bytes
  std::vector<int> inputs;                 // TFLite tensor indices of subgraph 0's inputs, in order
  std::vector<int> outputs;                // ... and of its outputs
  std::vector<std::string> operatorNames;  // per node, e.g. "CONV_2D"
  size_t weightNodes = 0;                  // copies of weight nodes, first in operatorNames
};

// Constant weights TFLite computes once from constants: DEQUANTIZE (of
// float16) and DENSIFY (of sparse tensors) of constants or of such weights;
// by the tensor they write, with the node writing it. TFLite keeps
// these nodes; a partition reading their output writes its own copy of them,
// so that the importer sees constant weights (and keeps them float16).
using WeightProducers = std::map<int, int>;  // tensor -> DEQUANTIZE node

// `nodes`: node indices of the context's graph; `outputs`: the tensors read
// after them. The inputs are the non-constant tensors the nodes read and do
// not produce. Fails for a node whose parameters or tensors cannot be written.
Result<WrittenPartition> writePartition(TfLiteContext* context, std::span<const int> nodes,
                                        std::span<const int> outputs,
                                        const WeightProducers& weights);

}  // namespace annrt::tflite::delegate
