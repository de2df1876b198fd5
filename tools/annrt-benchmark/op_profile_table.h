// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The --enable_op_profiling report in benchmark_model's layout
// ("Operator-wise Profiling Info for Regular Benchmark Runs:", then "Run
// Order", "Top by Computation Time" and "Summary by node type" tables with
// benchmark_model's tab-separated, right-aligned columns), plus:
//   - a [device] column before [Name]: the device that ran the operation;
//   - a "Summary by partition" table: each step of the execution plan, its
//     device, operations and share of the time.
// Times come from the runtime's per-operation profile, which covers every
// execution of the compilation (first, warm-up and regular runs): [avg ms] is
// total/count, [first] equals [avg ms] (the profile has no per-run series),
// [start] is the sum of the average times of the operations before it in run
// order, [mem KB] is 0 (not measured) and [times called] is count/executions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model_source.h"
#include "op_profile.h"

namespace annrt::tools {

// `labels`: the model's operations (type and name per index); `executions`:
// how many times the compilation was executed.
std::string formatOperatorProfile(const CompilationProfile& profile,
                                  const std::vector<OperationLabel>& labels, int64_t executions);

}  // namespace annrt::tools
