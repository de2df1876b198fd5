// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The dicts tflite_runtime's get_input_details()/get_output_details() return,
// for annrt's model inputs and outputs.
#pragma once

#include <pybind11/pybind11.h>

#include "tflite/importer.h"

namespace annrt::python {

// {name, index, shape, shape_signature, dtype, quantization,
//  quantization_parameters, sparsity_parameters}
pybind11::dict tensorDetails(const tflite::TensorInfo& info, int index);

}  // namespace annrt::python
