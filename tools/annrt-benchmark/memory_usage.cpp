// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "memory_usage.h"

#include <cstdlib>
#include <string>

#include "text_file.h"

namespace annrt::tools {
namespace {

// The value of "Key:   1234 kB" lines, or -1.
int64_t fieldKb(std::string_view text, std::string_view key) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (line.starts_with(key) && line.size() > key.size() && line[key.size()] == ':') {
      return std::strtoll(std::string(line.substr(key.size() + 1)).c_str(), nullptr, 10);
    }
    pos = end + 1;
  }
  return -1;
}

}  // namespace

ProcessMemory parseProcStatus(std::string_view text) {
  ProcessMemory memory;
  memory.rssKb = fieldKb(text, "VmRSS");
  memory.peakKb = fieldKb(text, "VmHWM");
  memory.valid = memory.rssKb >= 0 && memory.peakKb >= 0;
  return memory;
}

ProcessMemory readProcessMemory() {
  Result<std::string> text = readTextFile("/proc/self/status", "process status");
  return text.ok() ? parseProcStatus(*text) : ProcessMemory{};
}

}  // namespace annrt::tools
