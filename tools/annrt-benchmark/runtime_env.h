// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Flags that reach the runtime through its environment variables. They must
// be set before the first NNAPI call, which is when the runtime reads them
// (--num_threads is not one: it is a compilation attribute, see compilation.h):
//   --max_delegated_partitions=N (N > 0)  -> ANNRT_MAX_PARTITIONS=N
//   --min_nodes_per_partition=N (N > 0)   -> ANNRT_MIN_NODES_PER_PARTITION=N
//   --enable_op_profiling=true            -> ANNRT_PROFILE=<temporary file> (a file
//                                            already named there is kept)
//   always                                -> ANNRT_STATS=<temporary file> (likewise),
//                                            the per-device counters shown after the run
// The partition flags apply only with --use_nnapi=true (otherwise the runtime
// runs with its defaults).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "benchmark_params.h"
#include "common/result.h"

namespace annrt::tools {

// A file this tool created; removed when its owner goes, whether the
// benchmark got to read it or failed on the way.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  TemporaryFile(TemporaryFile&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  TemporaryFile& operator=(TemporaryFile&&) = delete;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile();

 private:
  std::string path_;
};

struct RuntimeEnvironment {
  std::vector<std::string> assignments;  // "NAME=value" lines that were set
  std::string profilePath;               // where the runtime writes the profile, or ""
  bool profileIsTemporary = false;       // created here, removed with this
  std::string statsPath;                 // where the runtime writes its counters
  bool statsIsTemporary = false;
  std::vector<TemporaryFile> temporaries;
};

// The NAME=value pairs `params` asks for, without touching the environment
// (the profile path excluded).
std::vector<std::pair<std::string, std::string>> runtimeVariables(const BenchmarkParams& params);

Result<RuntimeEnvironment> applyRuntimeEnvironment(const BenchmarkParams& params);

}  // namespace annrt::tools
