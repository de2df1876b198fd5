// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// tflite_builtin_variant IN.tflite OUT.tflite: rewrites MediaPipe's custom
// Convolution2DTransposeBias operators as builtin TRANSPOSE_CONV (version 3,
// with bias), which computes the same function, so that stock TensorFlow Lite
// (the tflite-oracle) can produce reference outputs for the selfie
// segmentation models. Uses the importer's schema subset with the flatbuffers
// object API: fields outside the subset (metadata, signatures) are dropped,
// which TFLite does not need to run the model.
#include <fmt/format.h>

#include <cstring>

#include "tflite_object_file.h"

namespace fb = annrt::tflite::fb;

namespace {

constexpr int32_t kTransposeConv = 67;

uint32_t transposeConvOpcode(fb::ModelT& model) {
  auto code = std::make_unique<fb::OperatorCodeT>();
  code->deprecated_builtin_code = kTransposeConv;
  code->builtin_code = kTransposeConv;
  code->version = 3;
  model.operator_codes.push_back(std::move(code));
  return static_cast<uint32_t>(model.operator_codes.size() - 1);
}

// A new constant INT32 [4] tensor holding `shape`.
int32_t shapeTensor(fb::ModelT& model, fb::SubGraphT& subgraph, const std::vector<int32_t>& shape) {
  auto buffer = std::make_unique<fb::BufferT>();
  buffer->data.resize(shape.size() * 4);
  std::memcpy(buffer->data.data(), shape.data(), buffer->data.size());
  model.buffers.push_back(std::move(buffer));
  auto tensor = std::make_unique<fb::TensorT>();
  tensor->shape = {static_cast<int32_t>(shape.size())};
  tensor->type = 2;  // INT32
  tensor->buffer = static_cast<uint32_t>(model.buffers.size() - 1);
  tensor->name = "transpose_conv_output_shape";
  subgraph.tensors.push_back(std::move(tensor));
  return static_cast<int32_t>(subgraph.tensors.size() - 1);
}

bool rewrite(fb::ModelT& model, fb::SubGraphT& subgraph, fb::OperatorT& op, uint32_t& opcode) {
  if (op.custom_options.size() < 12 || op.inputs.size() != 3) return false;
  int32_t params[3];
  std::memcpy(params, op.custom_options.data(), sizeof(params));
  if (opcode == UINT32_MAX) opcode = transposeConvOpcode(model);
  auto options = std::make_unique<fb::TransposeConvOptionsT>();
  options->padding = params[0] == 2 ? fb::Padding::VALID : fb::Padding::SAME;
  options->stride_w = params[1];
  options->stride_h = params[2];
  const int32_t output = op.outputs[0];
  const int32_t shape = shapeTensor(model, subgraph, subgraph.tensors[output]->shape);
  op.opcode_index = opcode;
  op.inputs = {shape, op.inputs[1], op.inputs[0], op.inputs[2]};
  op.builtin_options.Reset();  // aliased union members: no Set() is generated
  op.builtin_options.type = fb::BuiltinOptions::TransposeConvOptions;
  op.builtin_options.value = options.release();
  op.custom_options.clear();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return annrt::tflite::testing::rewriteModelFile(
      argc, argv, "tflite_builtin_variant", [](fb::ModelT& model, const std::string& out) {
        uint32_t opcode = UINT32_MAX;
        int rewritten = 0;
        for (auto& subgraph : model.subgraphs) {
          for (auto& op : subgraph->operators) {
            const auto& code = model.operator_codes[op->opcode_index];
            if (code->custom_code == "Convolution2DTransposeBias") {
              rewritten += rewrite(model, *subgraph, *op, opcode);
            }
          }
        }
        fmt::print("{}: {} Convolution2DTransposeBias -> TRANSPOSE_CONV\n", out, rewritten);
        return true;
      });
}
