// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "benchmark_report.h"

#include <sstream>

namespace annrt::tools {

std::string modelSizeLine(uint64_t bytes) {
  std::ostringstream line;
  line << "The input model file size (MB): " << static_cast<double>(bytes) / 1e6;
  return line.str();
}

std::string initializedLine(int64_t initUs) {
  std::ostringstream line;
  line << "Initialized session in " << static_cast<double>(initUs) / 1e3 << "ms.";
  return line.str();
}

std::string runHeaderLine(int32_t minRuns, float minSecs, float maxSecs) {
  std::ostringstream line;
  line << "Running benchmark for at least " << minRuns << " iterations and at least " << minSecs
       << " seconds but terminate if exceeding " << maxSecs << " seconds.";
  return line.str();
}

std::string inferenceTimingsLine(int64_t initUs, const RunStat& warmup, const RunStat& inference) {
  std::ostringstream line;
  line << "Inference timings in us: Init: " << initUs << ", First inference: " << warmup.first()
       << ", Warmup (avg): " << warmup.avg() << ", Inference (avg): " << inference.avg();
  return line.str();
}

std::vector<std::string> memoryLines(const ProcessMemory& start, const ProcessMemory& afterInit,
                                     const ProcessMemory& end) {
  if (!start.valid || !afterInit.valid || !end.valid) return {};
  std::vector<std::string> lines;
  lines.emplace_back(
      "Note: as the benchmark tool itself affects memory footprint, the following is only "
      "APPROXIMATE to the actual memory footprint of the model at runtime. Take the information "
      "at your discretion.");
  // Deltas of the resident high-water mark, as benchmark_model computes them
  // from getrusage's ru_maxrss: transient allocations count, not only what is
  // still resident at the end.
  std::ostringstream delta;
  delta << "Memory footprint delta from the start of the tool (MB): init="
        << static_cast<double>(afterInit.peakKb - start.peakKb) / 1024.0
        << " overall=" << static_cast<double>(end.peakKb - start.peakKb) / 1024.0;
  lines.push_back(delta.str());
  std::ostringstream peak;
  peak << "Overall peak memory footprint (MB) via periodic monitoring: "
       << static_cast<float>(end.peakKb / 1024.0);
  lines.push_back(peak.str());
  return lines;
}

}  // namespace annrt::tools
