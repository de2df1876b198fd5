// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The finished, validated model that the runtime hands to drivers: subgraphs
// of operands and operations, constant data, and shared memory pools.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"

namespace annrt {

enum class Lifetime : int32_t {
  TEMPORARY_VARIABLE = 0,
  SUBGRAPH_INPUT = 1,
  SUBGRAPH_OUTPUT = 2,
  CONSTANT_COPY = 3,       // bytes in Model::operandValues
  CONSTANT_REFERENCE = 4,  // bytes in Model::pools[location.pool]
  NO_VALUE = 5,            // omitted optional operand
  SUBGRAPH = 6,            // location.offset is an index into Model::referenced
};

// Where constant data lives.
struct DataLocation {
  uint32_t pool = 0;
  size_t offset = 0;
  size_t length = 0;
};

struct Operand {
  Shape shape;
  Lifetime lifetime = Lifetime::TEMPORARY_VARIABLE;
  DataLocation location;
  std::vector<uint8_t> extensionData;
  uint32_t consumers = 0;  // number of operation inputs reading this operand
};

struct Operation {
  OperationType type = OperationType::ADD;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Subgraph {
  std::vector<Operand> operands;
  std::vector<Operation> operations;  // in a valid execution order
  std::vector<uint32_t> inputIndexes;
  std::vector<uint32_t> outputIndexes;
};

// A block of memory a model's constants may reference (an fd mapping, or a
// runtime-owned buffer). Pools outlive every prepared model that uses them.
class MemoryPool {
 public:
  virtual ~MemoryPool() = default;
  virtual uint8_t* data() const = 0;
  virtual size_t size() const = 0;
};

struct ExtensionPrefix {
  std::string name;
  uint16_t prefix = 0;
};

// Each CONSTANT_COPY value starts at a multiple of this in Model::operandValues,
// so drivers may read any scalar type in place.
inline constexpr size_t kOperandValueAlignment = 8;

struct Model {
  Subgraph main;
  std::vector<Subgraph> referenced;
  std::vector<uint8_t> operandValues;
  std::vector<std::shared_ptr<const MemoryPool>> pools;
  bool relaxComputationFloat32toFloat16 = false;
  std::vector<ExtensionPrefix> extensions;

  // Pointer to a constant operand's bytes, or nullptr if it has none.
  const uint8_t* constantData(const Operand& operand) const;
  // Levels of subgraphs from main down (1: no control flow). Counting stops
  // past `cap`, so a malformed model (a cycle, a huge nesting) costs little.
  uint32_t nestingDepth(uint32_t cap) const;
};

}  // namespace annrt
