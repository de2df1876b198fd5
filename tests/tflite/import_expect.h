// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// gtest check shared by the importer tests: a file the importer must refuse.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tflite/importer.h"

namespace annrt::tflite::testing {

// Importing `bytes` with `options` fails with BAD_DATA and a message
// containing `expected`.
inline void expectRejected(const std::vector<uint8_t>& bytes, const std::string& expected,
                           const ImportOptions& options = {}) {
  auto imported = importBuffer(bytes, options);
  ASSERT_FALSE(imported.ok()) << "accepted a bad model; expected: " << expected;
  EXPECT_EQ(imported.error().code, ErrorCode::BAD_DATA);
  EXPECT_NE(imported.error().message.find(expected), std::string::npos)
      << "message: " << imported.error().message << "\nexpected to contain: " << expected;
}

}  // namespace annrt::tflite::testing
