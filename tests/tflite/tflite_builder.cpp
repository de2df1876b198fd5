// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_builder.h"

namespace annrt::tflite::testing {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<fb::Tensor> tensor(FlatBufferBuilder& b, const TensorSpec& t) {
  Offset<fb::QuantizationParameters> quantization = 0;
  if (!t.scales.empty()) {
    quantization = fb::CreateQuantizationParameters(
        b, 0, 0, b.CreateVector(t.scales), b.CreateVector(t.zeroPoints),
        fb::QuantizationDetails::NONE, 0, t.quantizedDimension);
  }
  Offset<flatbuffers::Vector<int32_t>> signature = 0;
  if (!t.signature.empty()) signature = b.CreateVector(t.signature);
  return fb::CreateTensor(b, b.CreateVector(t.shape), t.type, t.buffer, b.CreateString(t.name),
                          quantization, false, 0, signature);
}

Offset<fb::Operator> op(FlatBufferBuilder& b, const OperatorSpec& o) {
  Offset<void> options = o.options.create ? o.options.create(b) : 0;
  Offset<flatbuffers::Vector<uint8_t>> custom = 0;
  if (!o.customOptions.empty()) custom = b.CreateVector(o.customOptions);
  return fb::CreateOperator(b, o.opcode, b.CreateVector(o.inputs), b.CreateVector(o.outputs),
                            o.options.type, options, custom);
}

Offset<fb::SubGraph> subgraph(FlatBufferBuilder& b, const SubgraphSpec& s) {
  std::vector<Offset<fb::Tensor>> tensors;
  tensors.reserve(s.tensors.size());
  for (const TensorSpec& t : s.tensors) tensors.push_back(tensor(b, t));
  std::vector<Offset<fb::Operator>> operators;
  operators.reserve(s.operators.size());
  for (const OperatorSpec& o : s.operators) operators.push_back(op(b, o));
  return fb::CreateSubGraph(b, b.CreateVector(tensors), b.CreateVector(s.inputs),
                            b.CreateVector(s.outputs), b.CreateVector(operators));
}

}  // namespace

std::vector<uint8_t> serialize(const ModelSpec& spec) {
  FlatBufferBuilder b;
  std::vector<Offset<fb::OperatorCode>> opcodes;
  opcodes.reserve(spec.opcodes.size());
  for (const OpcodeSpec& c : spec.opcodes) {
    opcodes.push_back(fb::CreateOperatorCode(b, static_cast<int8_t>(std::min(c.builtin, 127)),
                                             c.custom.empty() ? 0 : b.CreateString(c.custom),
                                             c.version, c.builtin));
  }
  std::vector<Offset<fb::SubGraph>> subgraphs;
  subgraphs.reserve(spec.subgraphs.size());
  for (const SubgraphSpec& s : spec.subgraphs) subgraphs.push_back(subgraph(b, s));
  std::vector<Offset<fb::Buffer>> buffers;
  buffers.reserve(spec.buffers.size());
  for (const BufferSpec& buffer : spec.buffers) {
    buffers.push_back(fb::CreateBuffer(b, buffer.data.empty() ? 0 : b.CreateVector(buffer.data),
                                       buffer.offset, buffer.size));
  }
  b.Finish(fb::CreateModel(b, spec.version, b.CreateVector(opcodes), b.CreateVector(subgraphs),
                           b.CreateString("annrt test model"), b.CreateVector(buffers)),
           fb::ModelIdentifier());
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

ModelSpec addModel() {
  ModelSpec spec;
  const uint32_t constant = spec.addBuffer(std::vector<float>{1, 2, 3, 4});
  spec.addOpcode(0);  // ADD
  SubgraphSpec main;
  main.tensors = {{{1, 2, 2, 1}, 0, 0, "input"},
                  {{1, 2, 2, 1}, 0, constant, "constant"},
                  {{1, 2, 2, 1}, 0, 0, "output"}};
  OperatorSpec add{0, {0, 1}, {2}};
  add.options = {fb::BuiltinOptions::AddOptions,
                 [](FlatBufferBuilder& b) { return fb::CreateActivationOptions(b).Union(); }};
  main.operators = {add};
  main.inputs = {0};
  main.outputs = {2};
  spec.subgraphs = {main};
  return spec;
}

}  // namespace annrt::tflite::testing
