// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The dims the imported model's inputs get, with TensorFlow Lite's semantics:
// an input has the `shape` the file declares (what the interpreter allocates
// before any resize); `shape_signature` only says which dims may be resized
// (-1). ImportOptions::inputShapes resizes them, checked like TFLite's
// ResizeInputTensorStrict (or, with strictResize = false, like
// ResizeInputTensor, which benchmark_model uses). ImportOptions::
// keepDynamicDims leaves the -1 dims unknown (0) for execution time.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "tflite/importer.h"
#include "tflite/model_reader.h"

namespace annrt::tflite {

struct InputPlan {
  std::vector<std::vector<uint32_t>> dims;  // per subgraph 0 input (0 = unknown)
  // The inputs have the shapes the file declares, so its stored shapes of
  // every other tensor hold.
  bool declaredShapes = true;
  bool allKnown = true;  // no input dim is left unknown
};

Result<InputPlan> planInputs(const SubgraphView& main, const ImportOptions& options);

}  // namespace annrt::tflite
