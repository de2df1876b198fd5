// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace annrt::test {

// annrt-cpu's outputs against nnapi-reference's: the same count and sizes,
// every element within 1e-4 + 1e-4 * |expected|. Wrap calls in
// ASSERT_NO_FATAL_FAILURE: the first mismatch ends the check.
inline void expectClose(const std::vector<std::vector<float>>& actual,
                        const std::vector<std::vector<float>>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t output = 0; output < expected.size(); ++output) {
    ASSERT_EQ(actual[output].size(), expected[output].size()) << "output " << output;
    for (size_t i = 0; i < expected[output].size(); ++i) {
      const float want = expected[output][i];
      ASSERT_NEAR(actual[output][i], want, 1e-4f + 1e-4f * std::fabs(want))
          << "output " << output << " element " << i;
    }
  }
}

}  // namespace annrt::test
