// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// NNAPI operand types as NumPy dtypes and as the type names TensorFlow Lite's
// Python errors use ("FLOAT32", "UINT8", ...).
#pragma once

#include <pybind11/numpy.h>

#include <cstdint>
#include <string>

namespace annrt::python {

// The dtype of a tensor of `operandType`; ValueError for types NumPy cannot hold.
pybind11::dtype numpyDtype(int32_t operandType);
// TFLite's name of the type of a tensor of `operandType`.
std::string tfliteTypeName(int32_t operandType);
// TFLite's name of a NumPy dtype ("FLOAT64" for float64, ...).
std::string tfliteTypeName(const pybind11::dtype& dtype);

}  // namespace annrt::python
