// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "op_profile.h"

#include <nlohmann/json.hpp>

#include "text_file.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

using nlohmann::json;

ProfiledStep parseStep(const json& step) {
  ProfiledStep parsed;
  parsed.device = step.value("device", "");
  if (step.contains("operations")) {
    parsed.operations = step.at("operations").get<std::vector<uint32_t>>();
  }
  return parsed;
}

ProfiledOperation parseOperation(const json& op) {
  ProfiledOperation parsed;
  parsed.index = op.at("index").get<uint32_t>();
  parsed.type = op.value("type", "");
  parsed.device = op.value("device", "");
  parsed.count = op.value("count", int64_t{0});
  parsed.totalNs = op.value("total_ns", int64_t{0});
  return parsed;
}

CompilationProfile parseCompilation(const json& compilation) {
  CompilationProfile parsed;
  parsed.modelOperations = compilation.value("model_operations", 0u);
  for (const json& step : compilation.value("steps", json::array())) {
    parsed.steps.push_back(parseStep(step));
  }
  for (const json& op : compilation.value("operations", json::array())) {
    parsed.operations.push_back(parseOperation(op));
  }
  return parsed;
}

}  // namespace

Result<std::vector<CompilationProfile>> parseProfileJson(std::string_view text) {
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  ANNRT_CHECK(!document.is_discarded(), "the profile is not valid JSON");
  ANNRT_CHECK(document.is_object() && document.contains("compilations") &&
                  document.at("compilations").is_array(),
              "the profile has no \"compilations\" array");
  std::vector<CompilationProfile> profiles;
  try {
    for (const json& compilation : document.at("compilations")) {
      profiles.push_back(parseCompilation(compilation));
    }
  } catch (const json::exception& e) {
    return toolError("malformed profile: {}", e.what());
  }
  return profiles;
}

Result<std::vector<CompilationProfile>> readProfileFile(const std::string& path) {
  ANNRT_ASSIGN_OR_RETURN(std::string text, readTextFile(path, "profile"));
  return parseProfileJson(text);
}

const CompilationProfile* findCompilation(const std::vector<CompilationProfile>& profiles,
                                          size_t operationCount) {
  for (auto it = profiles.rbegin(); it != profiles.rend(); ++it) {
    if (it->modelOperations == operationCount) return &*it;
  }
  return nullptr;
}

CompilationProfile unprofiledCompilation(const std::vector<OperationLabel>& operations,
                                         const std::string& device) {
  CompilationProfile profile;
  profile.modelOperations = static_cast<uint32_t>(operations.size());
  ProfiledStep step{device, {}};
  for (uint32_t i = 0; i < operations.size(); ++i) {
    step.operations.push_back(i);
    profile.operations.push_back(ProfiledOperation{i, operations[i].type, device, 0, 0});
  }
  profile.steps.push_back(std::move(step));
  return profile;
}

}  // namespace annrt::tools
