// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "runtime_env.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "tool_result.h"

namespace annrt::tools {
namespace {

Result<std::string> makeTemporaryPath(const std::string& kind) {
  const char* dir = getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
                     "/annrt-benchmark-" + kind + "-XXXXXX";
  const int fd = mkstemp(path.data());
  ANNRT_CHECK(fd >= 0, "cannot create a temporary {} file {}: {}", kind, path, strerror(errno));
  close(fd);
  return path;
}

Result<void> setVariable(const std::string& name, const std::string& value) {
  ANNRT_CHECK(setenv(name.c_str(), value.c_str(), 1) == 0, "cannot set {}: {}", name,
              strerror(errno));
  return {};
}

// Points `variable` at a file the runtime writes: the user's own file when the
// variable already names one ("0"/"1" name no file), else a temporary one.
Result<void> useOutputFile(const char* variable, const std::string& kind, std::string& path,
                           bool& temporary, RuntimeEnvironment& environment) {
  const std::string existing = getenv(variable) != nullptr ? getenv(variable) : "";
  if (!existing.empty() && existing != "0" && existing != "1") {
    path = existing;
    return {};
  }
  ANNRT_ASSIGN_OR_RETURN(path, makeTemporaryPath(kind));
  environment.temporaries.emplace_back(path);
  temporary = true;
  ANNRT_RETURN_IF_ERROR(setVariable(variable, path));
  environment.assignments.push_back(std::string(variable) + "=" + path);
  return {};
}

}  // namespace

TemporaryFile::~TemporaryFile() {
  if (!path_.empty()) std::remove(path_.c_str());
}

std::vector<std::pair<std::string, std::string>> runtimeVariables(const BenchmarkParams& params) {
  std::vector<std::pair<std::string, std::string>> variables;
  if (params.useNnapi && params.maxDelegatedPartitions > 0) {
    variables.emplace_back("ANNRT_MAX_PARTITIONS", std::to_string(params.maxDelegatedPartitions));
  }
  if (params.useNnapi && params.minNodesPerPartition > 0) {
    variables.emplace_back("ANNRT_MIN_NODES_PER_PARTITION",
                           std::to_string(params.minNodesPerPartition));
  }
  return variables;
}

Result<RuntimeEnvironment> applyRuntimeEnvironment(const BenchmarkParams& params) {
  RuntimeEnvironment environment;
  for (const auto& [name, value] : runtimeVariables(params)) {
    ANNRT_RETURN_IF_ERROR(setVariable(name, value));
    environment.assignments.push_back(std::string(name).append("=").append(value));
  }
  ANNRT_RETURN_IF_ERROR(useOutputFile("ANNRT_STATS", "stats", environment.statsPath,
                                      environment.statsIsTemporary, environment));
  if (!params.enableOpProfiling) return environment;
  ANNRT_RETURN_IF_ERROR(useOutputFile("ANNRT_PROFILE", "profile", environment.profilePath,
                                      environment.profileIsTemporary, environment));
  return environment;
}

}  // namespace annrt::tools
