// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/input_plan.h"

#include <fmt/format.h>

#include <algorithm>

namespace annrt::tflite {
namespace {

std::vector<uint32_t> declaredDims(const std::vector<int32_t>& shape) {
  return {shape.begin(), shape.end()};  // ModelReader checked they are >= 0
}

std::vector<uint32_t> signatureDims(const TensorView& tensor) {
  std::vector<uint32_t> dims;
  for (size_t d = 0; d < tensor.shape.size(); ++d) {
    dims.push_back(tensor.signature[d] < 0 ? 0 : static_cast<uint32_t>(tensor.shape[d]));
  }
  return dims;
}

Result<std::vector<uint32_t>> resized(size_t i, const TensorView& tensor,
                                      const std::vector<uint32_t>& dims, bool strict) {
  ANNRT_CHECK(dims.size() == tensor.shape.size(),
              "input {} shape override has rank {}, the model input has rank {}", i, dims.size(),
              tensor.shape.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    ANNRT_CHECK(dims[d] > 0, "input {} '{}': dimension {} of the new shape [{}] is 0", i,
                tensor.name, d, fmt::join(dims, ","));
    const int32_t signature = tensor.signature[d];
    ANNRT_CHECK(!strict || signature < 0 || static_cast<uint32_t>(signature) == dims[d],
                "input {} '{}': cannot resize dimension {} from {} to {}: only dimensions whose "
                "shape_signature is -1 may change (shape_signature [{}]), as with TFLite's "
                "ResizeInputTensorStrict; ImportOptions::strictResize = false allows it, as "
                "ResizeInputTensor does",
                i, tensor.name, d, signature, dims[d], fmt::join(tensor.signature, ","));
  }
  return dims;
}

}  // namespace

Result<InputPlan> planInputs(const SubgraphView& main, const ImportOptions& options) {
  const auto& overrides = options.inputShapes;
  ANNRT_CHECK(overrides.empty() || !options.keepDynamicDims,
              "ImportOptions: give inputShapes or keepDynamicDims, not both");
  ANNRT_CHECK(overrides.empty() || overrides.size() == main.inputs.size(),
              "{} input shapes given for a model with {} inputs", overrides.size(),
              main.inputs.size());
  InputPlan plan;
  for (size_t i = 0; i < main.inputs.size(); ++i) {
    const TensorView& tensor = main.tensors[main.inputs[i]];
    ANNRT_CHECK(!tensor.isConstant(), "subgraph 0 input tensor {} is a constant", tensor.index);
    std::vector<uint32_t> dims = declaredDims(tensor.shape);
    if (!overrides.empty()) {
      ANNRT_ASSIGN_OR_RETURN(dims, resized(i, tensor, overrides[i], options.strictResize));
    } else if (options.keepDynamicDims) {
      dims = signatureDims(tensor);
    }
    plan.declaredShapes = plan.declaredShapes && dims == declaredDims(tensor.shape);
    plan.allKnown = plan.allKnown && std::find(dims.begin(), dims.end(), 0u) == dims.end();
    plan.dims.push_back(std::move(dims));
  }
  return plan;
}

}  // namespace annrt::tflite
