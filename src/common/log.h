// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Logging. Errors and warnings always go to stderr; verbose lines only for the
// areas named in ANNRT_VLOG (like Android's debug.nn.vlog): "model",
// "compilation", "execution", "cpuexe", "manager", "driver", or "all"/"1",
// separated by spaces, commas or colons.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace annrt {

enum class LogArea : unsigned {
  MODEL = 1u << 0,
  COMPILATION = 1u << 1,
  EXECUTION = 1u << 2,
  CPUEXE = 1u << 3,
  MANAGER = 1u << 4,
  DRIVER = 1u << 5,
};

// Parses an ANNRT_VLOG value into a mask of LogArea bits.
unsigned parseVlogAreas(std::string_view spec);
bool vlogEnabled(LogArea area);
const char* logAreaTag(LogArea area);
void logLine(std::string_view level, std::string_view tag, std::string_view message);

template <typename... Args>
void logError(fmt::format_string<Args...> format, Args&&... args) {
  logLine("E", "annrt", fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void logWarning(fmt::format_string<Args...> format, Args&&... args) {
  logLine("W", "annrt", fmt::format(format, std::forward<Args>(args)...));
}

// Events worth knowing once each (a specialization, an eviction); always
// shown, like warnings.
template <typename... Args>
void logInfo(fmt::format_string<Args...> format, Args&&... args) {
  logLine("I", "annrt", fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace annrt

// Verbose log; the arguments are only evaluated when the area is enabled.
#define ANNRT_VLOG(area, ...)                                            \
  do {                                                                   \
    if (::annrt::vlogEnabled(::annrt::LogArea::area)) {                  \
      ::annrt::logLine("V", ::annrt::logAreaTag(::annrt::LogArea::area), \
                       fmt::format(__VA_ARGS__));                        \
    }                                                                    \
  } while (0)
