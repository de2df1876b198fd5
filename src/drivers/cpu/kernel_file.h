// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Reading the kernel's one-line files (/proc/stat, /proc/loadavg,
// /sys/kernel/mm/transparent_hugepage/*) with stdio: an std::ifstream's
// first use in a process sets up locales and stream buffers on a warm
// start's path.
#pragma once

#include <optional>
#include <string>

namespace annrt::cpu {

// The file's first line (up to 255 bytes, its newline kept), or nothing
// where it cannot be opened or is empty.
std::optional<std::string> readFirstLine(const char* path);

}  // namespace annrt::cpu
