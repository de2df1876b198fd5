// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/log.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace annrt {
namespace {

struct AreaName {
  std::string_view name;
  unsigned mask;
};

constexpr unsigned kAllAreas = 0x3f;
constexpr AreaName kAreaNames[] = {
    {"model", static_cast<unsigned>(LogArea::MODEL)},
    {"compilation", static_cast<unsigned>(LogArea::COMPILATION)},
    {"execution", static_cast<unsigned>(LogArea::EXECUTION)},
    {"cpuexe", static_cast<unsigned>(LogArea::CPUEXE)},
    {"manager", static_cast<unsigned>(LogArea::MANAGER)},
    {"driver", static_cast<unsigned>(LogArea::DRIVER)},
    {"all", kAllAreas},
    {"1", kAllAreas},
};

unsigned vlogMask() {
  // Read once: the environment is fixed for the process's lifetime in practice,
  // and this is on every hot path that logs.
  static const unsigned mask = [] {
    const char* env = std::getenv("ANNRT_VLOG");
    return env ? parseVlogAreas(env) : 0u;
  }();
  return mask;
}

}  // namespace

unsigned parseVlogAreas(std::string_view spec) {
  unsigned mask = 0;
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t end = spec.find_first_of(" ,:", pos);
    if (end == std::string_view::npos) end = spec.size();
    const std::string_view word = spec.substr(pos, end - pos);
    for (const auto& area : kAreaNames) {
      if (word == area.name) mask |= area.mask;
    }
    pos = end + 1;
  }
  return mask;
}

bool vlogEnabled(LogArea area) {
  return (vlogMask() & static_cast<unsigned>(area)) != 0;
}

const char* logAreaTag(LogArea area) {
  switch (area) {
    case LogArea::MODEL: return "model";
    case LogArea::COMPILATION: return "compilation";
    case LogArea::EXECUTION: return "execution";
    case LogArea::CPUEXE: return "cpuexe";
    case LogArea::MANAGER: return "manager";
    case LogArea::DRIVER: return "driver";
  }
  return "annrt";
}

void logLine(std::string_view level, std::string_view tag, std::string_view message) {
  static std::mutex mutex;
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now).count();
  const std::string line = fmt::format("{}.{:03d} {:5d} {} {}: {}\n", ms / 1000, ms % 1000,
                                       static_cast<int>(getpid()), level, tag, message);
  std::lock_guard<std::mutex> lock(mutex);
  std::fputs(line.c_str(), stderr);
}

}  // namespace annrt
