// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "tensor_details.h"

#include <pybind11/numpy.h>

#include "dtypes.h"

namespace py = pybind11;

namespace annrt::python {
namespace {

template <typename T, typename Container>
py::array_t<T> toArray(const Container& values) {
  py::array_t<T> array(static_cast<py::ssize_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) array.mutable_at(i) = static_cast<T>(values[i]);
  return array;
}

// TFLite reports float tensors with scale 0 and empty per-channel lists.
py::dict quantizationParameters(const tflite::TensorInfo& info) {
  const bool quantized = info.scale != 0;
  py::dict parameters;
  parameters["scales"] =
      quantized ? toArray<float>(std::vector<float>{info.scale}) : py::array_t<float>(0);
  parameters["zero_points"] =
      quantized ? toArray<int32_t>(std::vector<int32_t>{info.zeroPoint}) : py::array_t<int32_t>(0);
  parameters["quantized_dimension"] = 0;
  return parameters;
}

}  // namespace

py::dict tensorDetails(const tflite::TensorInfo& info, int index) {
  py::dict details;
  details["name"] = info.name;
  details["index"] = index;
  details["shape"] = toArray<int32_t>(info.dims);
  details["shape_signature"] = toArray<int32_t>(
      info.signature.empty() ? std::vector<int32_t>(info.dims.begin(), info.dims.end())
                             : info.signature);
  details["dtype"] = numpyDtype(info.type).attr("type");
  details["quantization"] = py::make_tuple(info.scale, info.zeroPoint);
  details["quantization_parameters"] = quantizationParameters(info);
  details["sparsity_parameters"] = py::dict();
  return details;
}

}  // namespace annrt::python
