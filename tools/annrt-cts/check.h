// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Output comparison with AOSP's default checker rules (README "Tolerances"):
// |actual - expected| <= atol + rtol * |expected| per element, BOOL8 exact,
// and the statistical check of RANDOM_MULTINOMIAL cases.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "test_case.h"

namespace annrt::cts {

struct Mismatch {
  uint32_t output = 0;  // execution output index
  size_t element = 0;
  double expected = 0.0;
  double actual = 0.0;
  double tolerance = 0.0;
};

struct CheckFailure {
  std::string message;
  std::optional<Mismatch> mismatch = std::nullopt;
};

// Compares the output buffers (one per main output, in execution order) of
// `testCase` with its expected values. Returns nullopt when they all match.
std::optional<CheckFailure> checkOutputs(const TestCase& testCase,
                                         const std::vector<std::vector<uint8_t>>& outputs);

}  // namespace annrt::cts
