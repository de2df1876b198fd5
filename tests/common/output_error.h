// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The accuracy tests' figure of an output against TensorFlow Lite's:
// max|actual - expected| / max(1, max|expected|), at most kAccuracyTolerance
// (tests/tflite/accuracy_test.cpp; the TFLite delegate's tests use it too).
#pragma once

#include <algorithm>
#include <cmath>

namespace annrt::test {

inline constexpr double kAccuracyTolerance = 5e-3;

// Accumulates one output's pairs of values.
struct OutputDifference {
  double maxDifference = 0;  // infinite once a difference is NaN
  double maxReference = 0;

  void add(double actual, double expected) {
    maxReference = std::max(maxReference, std::abs(expected));
    const double difference = std::abs(actual - expected);
    maxDifference = std::isnan(difference) ? INFINITY : std::max(maxDifference, difference);
  }
  double error() const { return maxDifference / std::max(1.0, maxReference); }
};

}  // namespace annrt::test
