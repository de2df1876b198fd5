// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Where the benchmarked model comes from. The tools only need a finished
// ANeuralNetworksModel plus a description of its inputs, outputs and
// operations; ModelSource hides whether it was imported from a .tflite file
// (annrt::tflite, when built) or constructed in-process (the built-in models,
// --graph=builtin:NAME).
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "tensor_desc.h"

namespace annrt::tools {

// One NNAPI operation of the model, in model order: `type` is what
// benchmark_model shows as [node type] (the TFLite op, or the NNAPI op of a
// built-in model), `name` what it shows as [Name].
struct OperationLabel {
  std::string type;
  std::string name;
};

class ModelSource {
 public:
  virtual ~ModelSource() = default;
  // Finished model, owned by the source.
  virtual ANeuralNetworksModel* model() const = 0;
  virtual const std::vector<TensorDesc>& inputs() const = 0;
  virtual const std::vector<TensorDesc>& outputs() const = 0;
  virtual const std::vector<OperationLabel>& operations() const = 0;
  // Size of the model file in bytes; for a built-in model, of its constants.
  virtual uint64_t sizeBytes() const = 0;
};

struct ModelSourceOptions {
  bool relaxFloat32toFloat16 = false;              // --nnapi_allow_fp16
  std::vector<std::vector<uint32_t>> inputShapes;  // --input_layer_shape, may be empty
};

inline constexpr const char* kBuiltinPrefix = "builtin:";

// `graph` is "builtin:NAME" or the path of a .tflite file.
Result<std::unique_ptr<ModelSource>> openModelSource(const std::string& graph,
                                                     const ModelSourceOptions& options);

// Whether .tflite files can be opened (the importer was built in).
bool tfliteSupported();

}  // namespace annrt::tools
