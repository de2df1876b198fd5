// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "runtime_env.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstring>

#include "tool_result.h"

namespace annrt::tools {
namespace {

Result<std::string> makeTemporaryProfilePath() {
  const char* dir = getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
                     "/annrt-benchmark-profile-XXXXXX";
  const int fd = mkstemp(path.data());
  ANNRT_CHECK(fd >= 0, "cannot create a temporary profile file {}: {}", path, strerror(errno));
  close(fd);
  return path;
}

Result<void> setVariable(const std::string& name, const std::string& value) {
  ANNRT_CHECK(setenv(name.c_str(), value.c_str(), 1) == 0, "cannot set {}: {}", name,
              strerror(errno));
  return {};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> runtimeVariables(const BenchmarkParams& params) {
  std::vector<std::pair<std::string, std::string>> variables;
  if (params.numThreads > 0) {
    variables.emplace_back("ANNRT_NUM_THREADS", std::to_string(params.numThreads));
  }
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
    environment.assignments.push_back(name + "=" + value);
  }
  if (!params.enableOpProfiling) return environment;
  // An ANNRT_PROFILE file set by the user is kept; "0"/"1" (off / log only)
  // name no file, so they are replaced.
  const std::string existing = getenv("ANNRT_PROFILE") != nullptr ? getenv("ANNRT_PROFILE") : "";
  if (!existing.empty() && existing != "0" && existing != "1") {
    environment.profilePath = existing;
    return environment;
  }
  ANNRT_ASSIGN_OR_RETURN(environment.profilePath, makeTemporaryProfilePath());
  environment.profileIsTemporary = true;
  ANNRT_RETURN_IF_ERROR(setVariable("ANNRT_PROFILE", environment.profilePath));
  environment.assignments.push_back("ANNRT_PROFILE=" + environment.profilePath);
  return environment;
}

}  // namespace annrt::tools
