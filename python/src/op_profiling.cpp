// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "op_profiling.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "errors.h"
#include "op_profile.h"

namespace annrt::python {
namespace {

std::atomic<bool> runtimeUsed{false};

// ANNRT_PROFILE's value when it names a file, else "" ("1" only logs).
std::string profileVariable() {
  const char* value = std::getenv("ANNRT_PROFILE");
  const std::string set = value ? value : "";
  return set == "0" || set == "1" ? "" : set;
}

}  // namespace

void noteRuntimeUse() {
  runtimeUsed = true;
}

std::string enableOperationProfiling(const std::optional<std::string>& path) {
  if (std::string set = profileVariable(); !set.empty()) return set;
  if (runtimeUsed) {
    throw std::runtime_error(
        "annrt.enable_op_profiling() must come before the first Interpreter or annrt.devices(): "
        "the runtime reads ANNRT_PROFILE once, when it starts");
  }
  std::string file = path ? *path
                          : (std::filesystem::temp_directory_path() /
                             fmt::format("annrt-profile-{}.json", getpid()))
                                .string();
  setenv("ANNRT_PROFILE", file.c_str(), 1);
  return file;
}

std::string profileFile() {
  std::string file = profileVariable();
  if (file.empty()) {
    throw std::runtime_error(
        "per-operation profiling is off: call annrt.enable_op_profiling() before the first "
        "Interpreter (or set ANNRT_PROFILE to a file)");
  }
  return file;
}

std::vector<OperationTime> readOperationTimes(const std::string& file,
                                              const tflite::ImportedModel& model) {
  const auto profiles = unwrap(tools::readProfileFile(file));
  const tools::CompilationProfile* profile =
      tools::findCompilation(profiles, model.operations().size());
  if (profile == nullptr) {
    throw std::runtime_error("the runtime wrote no profile of this model to " + file);
  }
  std::vector<OperationTime> times;
  for (const tools::ProfiledOperation& op : profile->operations) {
    OperationTime time{op.index, op.type, "", 0, op.device, op.count, op.totalNs};
    if (op.index < model.operations().size()) {
      time.tfliteType = model.operations()[op.index].tfliteName;
      time.tfliteIndex = model.operations()[op.index].tfliteIndex;
    }
    times.push_back(std::move(time));
  }
  return times;
}

}  // namespace annrt::python
