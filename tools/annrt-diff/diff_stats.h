// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Statistics of |reference - test| over every element of one output across
// all runs, and annrt-diff's report lines (in the spirit of TFLite's
// inference_diff: latency per side, then one line per output).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "run_stat.h"

namespace annrt::tools {

class DiffStat {
 public:
  // Adds |reference[i] - test[i]| for every i; the sizes must match.
  Result<void> add(const std::vector<double>& reference, const std::vector<double>& test);

  int64_t count() const { return count_; }
  double max() const { return max_; }
  double min() const { return min_; }
  double avg() const;
  double stdDeviation() const;  // population

 private:
  int64_t count_ = 0;
  double max_ = 0;
  double min_ = 0;
  double sum_ = 0;
  double squaredSum_ = 0;
};

// "Reference run latency: avg=123.4(us), std_dev=5(us)"
std::string latencyLine(const std::string& side, const RunStat& stat);
// "OutputDiff[0] probabilities: max=0 min=0 avg=0 std_dev=0 (500 values)"
std::string outputDiffLine(size_t index, const std::string& name, const DiffStat& stat);

}  // namespace annrt::tools
