// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace annrt::test {

// A file or directory name in the test temporary directory that no other
// process uses, removed (with what it holds) when this goes. ctest runs the
// tests of one binary as separate processes side by side, so a fixed name
// lets one test read the file while another truncates it.
class TempPath {
 public:
  explicit TempPath(std::string_view stem) {
    std::string dir = ::testing::TempDir();
    if (!dir.empty() && dir.back() != '/') dir += '/';
    path_ = dir + std::string(stem) + "." + std::to_string(getpid());
  }
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  ~TempPath() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

}  // namespace annrt::test
