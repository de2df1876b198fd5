// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/kernel_file.h"

#include <array>
#include <cstdio>

namespace annrt::cpu {

std::optional<std::string> readFirstLine(const char* path) {
  std::FILE* file = std::fopen(path, "re");
  if (file == nullptr) return std::nullopt;
  std::array<char, 256> line{};
  const bool read = std::fgets(line.data(), line.size(), file) != nullptr;
  std::fclose(file);
  if (!read) return std::nullopt;
  return std::string(line.data());
}

}  // namespace annrt::cpu
