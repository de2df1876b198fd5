// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "run_stat.h"

#include <cmath>
#include <sstream>

namespace annrt::tools {

void RunStat::add(int64_t value) {
  if (count_ == 0) {
    first_ = min_ = max_ = value;
  } else {
    min_ = value < min_ ? value : min_;
    max_ = value > max_ ? value : max_;
  }
  newest_ = value;
  ++count_;
  sum_ += static_cast<double>(value);
  squaredSum_ += static_cast<double>(value) * static_cast<double>(value);
}

double RunStat::avg() const {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

int64_t RunStat::stdDeviation() const {
  if (allSame()) return 0;
  const double mean = avg();
  const double variance = squaredSum_ / static_cast<double>(count_) - mean * mean;
  return static_cast<int64_t>(std::sqrt(variance > 0 ? variance : 0));
}

std::string RunStat::toString() const {
  std::ostringstream stream;
  if (empty()) {
    stream << "count=0";
  } else if (allSame()) {
    stream << "count=" << count_ << " curr=" << newest_;
    if (count_ > 1) stream << "(all same)";
  } else {
    stream << "count=" << count_ << " first=" << first_ << " curr=" << newest_ << " min=" << min_
           << " max=" << max_ << " avg=" << avg() << " std=" << stdDeviation();
  }
  return stream.str();
}

}  // namespace annrt::tools
