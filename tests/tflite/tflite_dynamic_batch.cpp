// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// tflite_dynamic_batch IN.tflite OUT.tflite: a copy of the model whose main
// subgraph inputs have a dynamic batch, shape_signature[0] = -1, as models
// converted with a batch of None (MediaPipe's own) carry; `shape` keeps the
// declared batch. Inputs without a shape_signature get one (their shape). The
// other tensors are left as they are: their stored shapes hold for the
// declared batch only, as in such files. For the importer, tool and accuracy
// tests of dynamic shapes.
#include <fmt/format.h>

#include "tflite_object_file.h"

namespace fb = annrt::tflite::fb;

namespace {

// Gives every main input shape_signature[0] = -1; false (after saying why)
// when the model has no main subgraph or an input without a batch.
bool makeBatchDynamic(fb::ModelT& model, const std::string& out) {
  if (model.subgraphs.empty()) {
    fmt::print(stderr, "{}: the model has no subgraph\n", out);
    return false;
  }
  fb::SubGraphT& main = *model.subgraphs[0];
  int added = 0;
  for (int32_t index : main.inputs) {
    if (index < 0 || static_cast<size_t>(index) >= main.tensors.size()) {
      fmt::print(stderr, "input tensor {} does not exist\n", index);
      return false;
    }
    fb::TensorT& tensor = *main.tensors[index];
    if (tensor.shape.empty()) {
      fmt::print(stderr, "input '{}' is a scalar; it has no batch\n", tensor.name);
      return false;
    }
    if (tensor.shape_signature.empty()) {
      tensor.shape_signature = tensor.shape;
      ++added;
    }
    tensor.shape_signature[0] = -1;
    fmt::print("{}: input '{}' shape [{}] shape_signature [{}]\n", out, tensor.name,
               fmt::join(tensor.shape, ","), fmt::join(tensor.shape_signature, ","));
  }
  fmt::print("{}: {} of {} inputs had no shape_signature\n", out, added, main.inputs.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return annrt::tflite::testing::rewriteModelFile(argc, argv, "tflite_dynamic_batch",
                                                  makeBatchDynamic);
}
