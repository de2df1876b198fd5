// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Densification of TFLite sparse constant tensors (TACO-style format: a
// traversal order over the dimensions and optional blocks, each level dense
// or CSR-compressed). NNAPI has no sparse operands, so the importer stores
// the dense tensor.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"
#include "tflite/model_reader.h"

namespace annrt::tflite {

// The size of a sparse tensor's dense bytes.
Result<size_t> denseByteSize(const TensorView& tensor);
// Writes the dense bytes of a constant tensor with sparsity parameters into
// `dense` (zeroed, of denseByteSize), validating every index against the
// tensor's shape.
Result<void> densifyTensor(const TensorView& tensor, std::span<uint8_t> dense);
// The same, into a vector of its own.
Result<std::vector<uint8_t>> densifyTensor(const TensorView& tensor);

}  // namespace annrt::tflite
