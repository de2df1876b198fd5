// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Builds small .tflite files for tests, with the importer's own schema subset:
// every field the importer reads can be set, including invalid values.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "schema_generated.h"

namespace annrt::tflite::testing {

namespace fb = ::annrt::tflite::fb;

// A builtin's options, created when the file is serialized.
struct Options {
  fb::BuiltinOptions type = fb::BuiltinOptions::NONE;
  std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)> create;
};

struct TensorSpec {
  TensorSpec() = default;
  TensorSpec(std::vector<int32_t> shape, int8_t type, uint32_t buffer, std::string name)
      : shape(std::move(shape)), type(type), buffer(buffer), name(std::move(name)) {}

  std::vector<int32_t> shape;
  std::vector<int32_t> signature;  // shape_signature, written when not empty
  int8_t type = 0;                 // FLOAT32
  uint32_t buffer = 0;
  std::string name;
  std::vector<float> scales;
  std::vector<int64_t> zeroPoints;
  int32_t quantizedDimension = 0;
};

struct OperatorSpec {
  OperatorSpec() = default;
  OperatorSpec(uint32_t opcode, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
               Options options = {})
      : opcode(opcode),
        inputs(std::move(inputs)),
        outputs(std::move(outputs)),
        options(std::move(options)) {}

  uint32_t opcode = 0;
  std::vector<int32_t> inputs, outputs;
  Options options;
  std::vector<uint8_t> customOptions;
};

struct SubgraphSpec {
  std::vector<TensorSpec> tensors;
  std::vector<OperatorSpec> operators;
  std::vector<int32_t> inputs, outputs;
};

struct OpcodeSpec {
  int32_t builtin = 0;
  int32_t version = 1;
  std::string custom;
};

struct BufferSpec {
  std::vector<uint8_t> data;
  uint64_t offset = 0, size = 0;  // data outside the flatbuffer
};

struct ModelSpec {
  uint32_t version = 3;
  std::vector<OpcodeSpec> opcodes;
  std::vector<SubgraphSpec> subgraphs;
  std::vector<BufferSpec> buffers{BufferSpec{}};  // buffer 0: the empty sentinel

  uint32_t addBuffer(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    buffers.push_back({std::vector<uint8_t>(bytes, bytes + size)});
    return static_cast<uint32_t>(buffers.size() - 1);
  }
  template <typename T>
  uint32_t addBuffer(const std::vector<T>& values) {
    return addBuffer(values.data(), values.size() * sizeof(T));
  }
  uint32_t addOpcode(int32_t builtin, int32_t version = 1, std::string custom = "") {
    opcodes.push_back({builtin, version, std::move(custom)});
    return static_cast<uint32_t>(opcodes.size() - 1);
  }
};

std::vector<uint8_t> serialize(const ModelSpec& spec);

// input [1,2,2,1] + constant [1,2,2,1] -> output, one ADD (v1) in subgraph 0.
ModelSpec addModel();

}  // namespace annrt::tflite::testing
