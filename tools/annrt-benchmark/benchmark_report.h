// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// benchmark_model's result lines, without the "INFO: " prefix.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory_usage.h"
#include "run_stat.h"

namespace annrt::tools {

// "The input model file size (MB): 0.123"
std::string modelSizeLine(uint64_t bytes);
// "Initialized session in 12.3ms."
std::string initializedLine(int64_t initUs);
// "Running benchmark for at least 50 iterations and at least 1 seconds but
// terminate if exceeding 150 seconds."
std::string runHeaderLine(int32_t minRuns, float minSecs, float maxSecs);
// "Inference timings in us: Init: 100, First inference: 20, Warmup (avg): 20,
// Inference (avg): 18.5"
std::string inferenceTimingsLine(int64_t initUs, const RunStat& warmup, const RunStat& inference);

// The note, "Memory footprint delta from the start of the tool (MB): init=..
// overall=.." and "Overall peak memory footprint (MB) via periodic
// monitoring: .." (the peak is VmHWM at the end).
std::vector<std::string> memoryLines(const ProcessMemory& start, const ProcessMemory& afterInit,
                                     const ProcessMemory& end);

}  // namespace annrt::tools
