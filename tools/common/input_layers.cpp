// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "input_layers.h"

#include <fmt/format.h>

#include "flag_parser.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

Result<std::vector<uint32_t>> parseShape(const std::string& text) {
  std::vector<uint32_t> dims;
  for (const std::string& item : splitList(text, ',')) {
    ANNRT_ASSIGN_OR_RETURN(int32_t dim, parseInt(item, "--input_layer_shape"));
    ANNRT_CHECK(dim > 0,
                "--input_layer_shape: dimension {} in '{}' must be positive (replace unknown "
                "sizes, -1, with the size to benchmark)",
                dim, text);
    dims.push_back(static_cast<uint32_t>(dim));
  }
  return dims;
}

Result<std::pair<std::string, std::string>> parseValueFile(const std::string& item) {
  const size_t colon = item.rfind(':');
  ANNRT_CHECK(colon != std::string::npos && colon > 0 && colon + 1 < item.size(),
              "--input_layer_value_files: item '{}' is not NAME:FILE", item);
  return std::make_pair(item.substr(0, colon), item.substr(colon + 1));
}

std::string modelInputNames(const std::vector<TensorDesc>& inputs) {
  std::string names;
  for (const TensorDesc& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
  return names;
}

Result<size_t> findInput(const InputLayerFlags& flags, const std::vector<TensorDesc>& inputs,
                         const std::string& name) {
  for (size_t i = 0; i < flags.names.size() && i < inputs.size(); ++i) {
    if (flags.names[i] == name) return i;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name == name) return i;
  }
  return toolError("--input_layer_value_files names '{}', which is no input of the model ({})",
                   name, modelInputNames(inputs));
}

}  // namespace

std::vector<std::string> splitList(const std::string& text, char delimiter) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(delimiter, start);
    items.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return items;
}

Result<InputLayerFlags> parseInputLayerFlags(const std::string& names, const std::string& shapes,
                                             const std::string& valueFiles) {
  InputLayerFlags flags;
  flags.names = splitList(names, ',');
  const std::vector<std::string> shapeItems = splitList(shapes, ':');
  ANNRT_CHECK(flags.names.size() == shapeItems.size(),
              "--input_layer_shape has {} item(s) but --input_layer has {}; give one shape per "
              "name, e.g. --input_layer=input1,input2 --input_layer_shape=1,224,224,4:1,20",
              shapeItems.size(), flags.names.size());
  for (const std::string& item : shapeItems) {
    ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> dims, parseShape(item));
    flags.shapes.push_back(std::move(dims));
  }
  for (const std::string& item : splitList(valueFiles, ',')) {
    ANNRT_ASSIGN_OR_RETURN(auto pair, parseValueFile(item));
    flags.valueFiles.push_back(std::move(pair));
  }
  return flags;
}

Result<std::vector<std::string>> checkInputLayers(const InputLayerFlags& flags,
                                                  const std::vector<TensorDesc>& modelInputs) {
  std::vector<std::string> warnings;
  if (flags.names.empty()) return warnings;
  ANNRT_CHECK(flags.names.size() == modelInputs.size(),
              "--input_layer names {} input(s) but the model has {} ({})", flags.names.size(),
              modelInputs.size(), modelInputNames(modelInputs));
  for (size_t i = 0; i < modelInputs.size(); ++i) {
    if (flags.names[i] != modelInputs[i].name) {
      warnings.push_back(fmt::format("Tensor # {} is named {} but flags call it {}", i,
                                     modelInputs[i].name, flags.names[i]));
    }
    ANNRT_CHECK(flags.shapes[i].size() == modelInputs[i].dims.size(),
                "Input tensor #{} should have {} dimensions!", i, modelInputs[i].dims.size());
  }
  return warnings;
}

Result<std::vector<std::string>> resolveValueFiles(const InputLayerFlags& flags,
                                                   const std::vector<TensorDesc>& modelInputs) {
  std::vector<std::string> files(modelInputs.size());
  for (const auto& [name, path] : flags.valueFiles) {
    ANNRT_ASSIGN_OR_RETURN(size_t index, findInput(flags, modelInputs, name));
    files[index] = path;
  }
  return files;
}

std::vector<TensorDesc> applyInputShapes(const InputLayerFlags& flags,
                                         std::vector<TensorDesc> modelInputs) {
  for (size_t i = 0; i < flags.shapes.size() && i < modelInputs.size(); ++i) {
    modelInputs[i].dims = flags.shapes[i];
  }
  return modelInputs;
}

}  // namespace annrt::tools
