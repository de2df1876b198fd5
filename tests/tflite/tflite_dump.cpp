// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// tflite_dump MODEL.tflite...: lists the operators each model uses (builtin
// or custom code, version, count) and the subgraphs' inputs and outputs, to
// see which mappings the importer needs.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include "tflite/builtin_names.h"
#include "tflite/model_reader.h"

namespace {

using annrt::tflite::ModelReader;

std::string opName(const annrt::tflite::OperatorView& op) {
  if (op.builtinCode == annrt::tflite::kBuiltinCustom) return "CUSTOM:" + op.customCode;
  return annrt::tflite::builtinName(op.builtinCode);
}

void printTensor(const char* role, const annrt::tflite::TensorView& tensor) {
  fmt::print("  {} #{} '{}' {} [{}]\n", role, tensor.index, tensor.name,
             annrt::tflite::tensorTypeName(tensor.type), fmt::join(tensor.signature, ","));
}

int dump(const char* path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), {});
  auto reader = ModelReader::open(bytes);
  if (!reader.ok()) {
    fmt::print("{}: {}\n", path, reader.error().message);
    return 1;
  }
  fmt::print("{}: {} bytes, {} subgraphs\n", path, bytes.size(), reader->subgraphs().size());
  for (const auto& subgraph : reader->subgraphs()) {
    std::map<std::string, int> counts;
    size_t sparse = 0;
    for (const auto& op : subgraph.operators) {
      ++counts[fmt::format("{} v{}", opName(op), op.version)];
    }
    for (const auto& tensor : subgraph.tensors) sparse += tensor.sparsity != nullptr;
    fmt::print(" subgraph '{}': {} tensors ({} sparse), {} operators\n", subgraph.name,
               subgraph.tensors.size(), sparse, subgraph.operators.size());
    for (int32_t index : subgraph.inputs) printTensor("input", subgraph.tensors[index]);
    for (int32_t index : subgraph.outputs) printTensor("output", subgraph.tensors[index]);
    for (const auto& [name, count] : counts) fmt::print("  {:40} x{}\n", name, count);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int status = 0;
  for (int i = 1; i < argc; ++i) status |= dump(argv[i]);
  return status;
}
