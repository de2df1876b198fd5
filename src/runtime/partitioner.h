// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Decides which device runs each operation of a model and groups consecutive
// operations of one device into steps. A cost model compares the partitioned
// plan with the best single device and keeps the faster.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/device.h"
#include "runtime/supported_operations.h"

namespace annrt::runtime {

// ANNRT_PARTITION / debug.nn.partition values.
enum class PartitionMode { NO_PARTITIONING = 0, WITH_FALLBACK = 1, NO_FALLBACK = 2 };

struct PartitionOptions {
  int32_t preference = 1;  // PreferenceCode
  PartitionMode mode = PartitionMode::WITH_FALLBACK;
  // 0: unlimited. Partitions on non-CPU devices beyond this go to the CPU.
  uint32_t maxAcceleratorPartitions = 0;
  // Partitions on non-CPU devices with fewer operations go to the CPU.
  uint32_t minOperationsPerPartition = 1;
  // false: keep the partitioned plan even when one device looks faster
  // (ANNRT_COST_MODEL=0; for testing and debugging partitions).
  bool useCostModel = true;

  // Reads ANNRT_PARTITION, ANNRT_MAX_PARTITIONS, ANNRT_MIN_NODES_PER_PARTITION,
  // ANNRT_COST_MODEL.
  static PartitionOptions fromEnvironment(int32_t preference);
};

struct PlannedStep {
  std::shared_ptr<Device> device;
  std::vector<uint32_t> operations;  // indexes into model.main.operations, in order
};

struct PartitionPlan {
  std::vector<PlannedStep> steps;
  double estimatedCost = 0;  // relative units (reference CPU = 1 per unit of work)
  std::string decision;      // why this plan, for logs
};

// Partitions `supported.model()`. `devices`: the candidates in preference
// order; `cpu`: the device ops fall back to (nullptr when fallback is not
// allowed).
Result<PartitionPlan> partitionModel(SupportedOperations& supported,
                                     const std::vector<std::shared_ptr<Device>>& devices,
                                     const std::shared_ptr<Device>& cpu,
                                     const PartitionOptions& options);

// Relative amount of work of one operation, from its declared shapes.
double operationWork(const Model& model, const Operation& operation);

}  // namespace annrt::runtime
