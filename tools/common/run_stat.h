// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Latency statistics of a series of runs, printed the way benchmark_model's
// Stat<int64_t> prints them:
//   count=50 first=2990 curr=2913 min=2727 max=3189 avg=2950.34 std=109
//   count=1 curr=3512                         (all values equal)
//   count=3 curr=7(all same)
#pragma once

#include <cstdint>
#include <string>

namespace annrt::tools {

class RunStat {
 public:
  void add(int64_t value);

  bool empty() const { return count_ == 0; }
  int64_t count() const { return count_; }
  int64_t first() const { return first_; }
  int64_t newest() const { return newest_; }
  int64_t min() const { return min_; }
  int64_t max() const { return max_; }
  double sum() const { return sum_; }
  double avg() const;            // 0 when empty
  int64_t stdDeviation() const;  // population standard deviation, truncated
  bool allSame() const { return count_ == 0 || min_ == max_; }

  std::string toString() const;

 private:
  int64_t count_ = 0;
  int64_t first_ = 0;
  int64_t newest_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
  double sum_ = 0;
  double squaredSum_ = 0;
};

}  // namespace annrt::tools
