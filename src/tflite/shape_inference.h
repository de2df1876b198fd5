// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Shape inference over a converted subgraph, for resized inputs: what
// TFLite's AllocateTensors does after ResizeInputTensor: the writer's graph
// handed to the static shape inference the runtime uses too
// (ops/shape_inference.h: each operation's `prepare`, in model order).
// Known dims let every device, annrt-cpu included, claim the model; the
// dims the .tflite file stores were computed for its own input shapes and
// are not used once an input is resized.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"
#include "tflite/importer.h"
#include "tflite/nnapi_writer.h"

namespace annrt::tflite {

// The dims of every operand of `writer`'s model with the inputs' dims as
// written: for each non-constant operand the inferred dims, or an empty
// vector where they stay unknown. Operations whose output shapes depend on
// values only known at execution time (a non-constant INT32 or BOOL operand,
// BOX_WITH_NMS_LIMIT, IF/WHILE) are left unknown, with everything computed
// from them; the runtime sizes those at execution time. An operation that
// rejects its input shapes is an error naming it (`operations` are the
// OperationInfo of the writer's operations, in order).
Result<std::vector<std::vector<uint32_t>>> inferShapes(const NnapiWriter& writer, bool relaxed,
                                                       std::span<const OperationInfo> operations);

}  // namespace annrt::tflite
