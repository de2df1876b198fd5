// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The delegate's options, as the external-delegate interface passes them
// (key/value strings, e.g. benchmark_model's
// --external_delegate_options='devices:annrt-cpu;num_threads:2'). Every key
// and value is checked: a wrong one is an error, never ignored.
// docs/tflite-delegate.md lists them with their defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"

namespace annrt::tflite::delegate {

enum class LogLevel { ERROR, WARNING, INFO, VERBOSE };

struct DelegateOptions {
  std::vector<std::string> devices;   // empty: the runtime's own choice
  uint32_t numThreads = 0;            // 0: the runtime's default
  std::optional<int32_t> preference;  // PreferenceCode; unset: NNAPI's default
  int maxPartitions = 3;              // 0: no limit
  int minNodesPerPartition = 1;
  std::string cacheDir, modelToken;  // compilation caching needs both
  bool allowFp16 = false;
  LogLevel logLevel = LogLevel::INFO;
  std::set<int32_t> skipOps;  // builtin codes left to TFLite
  std::set<std::string> skipCustomOps;
};

Result<DelegateOptions> parseOptions(const std::vector<std::pair<std::string, std::string>>& pairs);

}  // namespace annrt::tflite::delegate
