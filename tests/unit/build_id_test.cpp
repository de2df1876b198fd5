// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/build_id.h"

#include <gtest/gtest.h>

#include <cctype>

namespace annrt::runtime {
namespace {

// Debian's linker writes a build ID by default (a SHA-1: 40 hex digits);
// without one, cache keys would not tell two builds of one version apart.
TEST(BuildIdTest, TheRuntimeHasABuildId) {
  const std::string& id = runtimeBuildId();
  ASSERT_GE(id.size(), 16u) << "no GNU build ID found: link with --build-id";
  for (char c : id) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c))) << id;
  EXPECT_EQ(&runtimeBuildId(), &id);
}

}  // namespace
}  // namespace annrt::runtime
