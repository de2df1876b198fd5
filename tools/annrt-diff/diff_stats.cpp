// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "diff_stats.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "tool_result.h"

namespace annrt::tools {
namespace {

// NaN on one side only counts as an infinite difference; NaN on both as none.
double absDifference(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b) ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (a == b) return 0.0;  // also equal infinities
  return std::fabs(a - b);
}

}  // namespace

Result<void> DiffStat::add(const std::vector<double>& reference, const std::vector<double>& test) {
  ANNRT_CHECK(reference.size() == test.size(),
              "the outputs differ in size: {} values on the reference device, {} on the test "
              "device",
              reference.size(), test.size());
  for (size_t i = 0; i < reference.size(); ++i) {
    const double difference = absDifference(reference[i], test[i]);
    if (count_ == 0) {
      max_ = min_ = difference;
    } else {
      max_ = std::max(max_, difference);
      min_ = std::min(min_, difference);
    }
    ++count_;
    sum_ += difference;
    squaredSum_ += difference * difference;
  }
  return {};
}

double DiffStat::avg() const {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

double DiffStat::stdDeviation() const {
  if (count_ == 0 || std::isinf(sum_)) return count_ == 0 ? 0.0 : sum_;
  const double mean = avg();
  const double variance = squaredSum_ / static_cast<double>(count_) - mean * mean;
  return std::sqrt(variance > 0 ? variance : 0.0);
}

std::string latencyLine(const std::string& side, const RunStat& stat) {
  std::ostringstream line;
  line << side << " run latency: avg=" << stat.avg() << "(us), std_dev=" << stat.stdDeviation()
       << "(us)";
  return line.str();
}

std::string outputDiffLine(size_t index, const std::string& name, const DiffStat& stat) {
  std::ostringstream line;
  line << "OutputDiff[" << index << "] " << name << ": max=" << stat.max() << " min=" << stat.min()
       << " avg=" << stat.avg() << " std_dev=" << stat.stdDeviation() << " (" << stat.count()
       << " values)";
  return line.str();
}

}  // namespace annrt::tools
