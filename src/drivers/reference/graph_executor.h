// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Interprets a model operation by operation with the operation library's
// reference kernels: resolves dynamic shapes as it goes, allocates
// temporaries on first write and frees them after their last reader, and runs
// IF/WHILE over the model's referenced subgraphs.
#pragma once

#include "common/device.h"

namespace annrt::reference {

// Called after each operation with its index in model.main and elapsed time;
// lets drivers report per-operation profiles.
struct OperationTimer {
  virtual ~OperationTimer() = default;
  virtual void record(uint32_t operationIndex, uint64_t nanoseconds) = 0;
};

ExecutionOutcome executeModel(const Model& model, const Request& request,
                              const ExecutionOptions& options, OperationTimer* timer = nullptr);

}  // namespace annrt::reference
