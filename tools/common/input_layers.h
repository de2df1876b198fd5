// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// benchmark_model's input flags:
//   --input_layer=a,b                 input names, in model input order
//   --input_layer_shape=1,224,224,3:1,20   one shape per --input_layer name
//   --input_layer_value_files=a:a.bin,b:b.bin   raw bytes per input
// Shapes are positional (the i-th shape is for the i-th model input), as in
// benchmark_model. In a value-file item the name ends at the last ':', so
// TFLite-style names such as "serving_default_x:0" work.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "tensor_desc.h"

namespace annrt::tools {

struct InputLayerFlags {
  std::vector<std::string> names;
  std::vector<std::vector<uint32_t>> shapes;
  std::vector<std::pair<std::string, std::string>> valueFiles;  // (input name, path)
};

Result<InputLayerFlags> parseInputLayerFlags(const std::string& names, const std::string& shapes,
                                             const std::string& valueFiles);

// Splits on `delimiter`; an empty string gives no items.
std::vector<std::string> splitList(const std::string& text, char delimiter);

// Checks the flags against the model inputs; returns warnings (benchmark_model
// warns when --input_layer names differ from the model's).
Result<std::vector<std::string>> checkInputLayers(const InputLayerFlags& flags,
                                                  const std::vector<TensorDesc>& modelInputs);

// The value file of each model input ("" = random data). A name matches an
// --input_layer name (positionally) or else a model input name.
Result<std::vector<std::string>> resolveValueFiles(const InputLayerFlags& flags,
                                                   const std::vector<TensorDesc>& modelInputs);

// The model inputs with the --input_layer_shape dims applied.
std::vector<TensorDesc> applyInputShapes(const InputLayerFlags& flags,
                                         std::vector<TensorDesc> modelInputs);

}  // namespace annrt::tools
