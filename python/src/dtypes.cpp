// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "dtypes.h"

#include <android/NeuralNetworks.h>
#include <fmt/format.h>

namespace py = pybind11;

namespace annrt::python {

py::dtype numpyDtype(int32_t operandType) {
  switch (operandType) {
    case ANEURALNETWORKS_TENSOR_FLOAT32: return py::dtype::of<float>();
    case ANEURALNETWORKS_TENSOR_INT32: return py::dtype::of<int32_t>();
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: return py::dtype::of<uint8_t>();
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: return py::dtype::of<int8_t>();
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: return py::dtype::of<int16_t>();
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return py::dtype::of<uint16_t>();
    case ANEURALNETWORKS_TENSOR_BOOL8: return py::dtype::of<bool>();
    case ANEURALNETWORKS_TENSOR_FLOAT16: return py::dtype("float16");
    default:
      throw py::value_error(
          fmt::format("tensors of NNAPI type {} have no NumPy dtype", operandType));
  }
}

std::string tfliteTypeName(int32_t operandType) {
  return tfliteTypeName(numpyDtype(operandType));
}

std::string tfliteTypeName(const py::dtype& dtype) {
  const auto bits = std::to_string(dtype.itemsize() * 8);
  switch (dtype.kind()) {
    case 'f': return "FLOAT" + bits;
    case 'i': return "INT" + bits;
    case 'u': return "UINT" + bits;
    case 'b': return "BOOL";
    case 'c': return "COMPLEX" + bits;
    case 'U':
    case 'S': return "STRING";
    default: return py::str(static_cast<const py::handle&>(dtype)).cast<std::string>();
  }
}

}  // namespace annrt::python
