// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The default models the model tests run: the .tflite files of the source
// tree's models/ (scripts/fetch-models.sh), or of ANNRT_MODELS_DIR.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace annrt::test {

inline std::filesystem::path modelsDir() {
  const char* env = std::getenv("ANNRT_MODELS_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(ANNRT_SOURCE_DIR) / "models";
}

// The models' names (file stems), sorted; none when the directory is missing.
inline std::vector<std::string> defaultModels() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(modelsDir(), error)) {
    if (entry.path().extension() == ".tflite") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string modelPath(const std::string& name) {
  return (modelsDir() / (name + ".tflite")).string();
}

}  // namespace annrt::test
