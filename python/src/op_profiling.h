// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Per-operation profiles for Python: the runtime times each operation when
// ANNRT_PROFILE names a file, which it reads once, at its first use in the
// process, and writes as each compilation is freed (tools/annrt-benchmark's
// op_profile.h reads it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tflite/importer.h"

namespace annrt::python {

struct OperationTime {
  uint32_t index = 0;      // NNAPI operation index
  std::string type;        // NNAPI operation
  std::string tfliteType;  // the TFLite operator it came from
  int tfliteIndex = 0;
  std::string device;
  int64_t count = 0;
  int64_t totalNs = 0;
};

// Turns profiling on (ANNRT_PROFILE=path, or a temporary file): only before
// the runtime's first use (RuntimeError after). Returns the profile file.
std::string enableOperationProfiling(const std::optional<std::string>& path);
// Called before every first use of the runtime in this module.
void noteRuntimeUse();
// The file ANNRT_PROFILE names; RuntimeError when profiling is off.
std::string profileFile();
// The operations of the last compilation of `model` that `file` holds.
std::vector<OperationTime> readOperationTimes(const std::string& file,
                                              const tflite::ImportedModel& model);

}  // namespace annrt::python
