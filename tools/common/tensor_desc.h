// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A model input or output as the tools see it: name, NNAPI operand type,
// dimensions (0 = unknown) and quantization.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace annrt::tools {

struct TensorDesc {
  std::string name;
  int32_t type = 0;  // NNAPI OperandCode
  std::vector<uint32_t> dims;
  float scale = 0;
  int32_t zeroPoint = 0;

  bool fullySpecified() const;
  size_t elementCount() const;  // product of dims (1 for a scalar)
  size_t byteSize() const;      // elementCount() * element size
};

// Bytes per element of an NNAPI operand type; 0 for types the tools cannot
// hold (e.g. MODEL or extension types).
size_t elementSize(int32_t operandType);
// "TENSOR_FLOAT32", ...; "type N" for unknown codes.
std::string operandTypeName(int32_t operandType);
// "1,224,224,3" (the --input_layer_shape notation).
std::string formatDims(const std::vector<uint32_t>& dims);

}  // namespace annrt::tools
