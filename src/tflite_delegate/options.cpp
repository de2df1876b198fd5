// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/options.h"

#include <android/NeuralNetworks.h>

#include <charconv>
#include <functional>
#include <map>
#include <string_view>

#include "tflite/builtin_names.h"

namespace annrt::tflite::delegate {
namespace {

using Setter = std::function<Result<void>(DelegateOptions&, const std::string&)>;

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

Result<int> parseInt(const std::string& key, const std::string& value, int low, int high) {
  int number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || number < low || number > high) {
    return makeError(ErrorCode::BAD_DATA, "option {}: '{}' is not an integer in {}..{}", key, value,
                     low, high);
  }
  return number;
}

Result<bool> parseBool(const std::string& key, const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return makeError(ErrorCode::BAD_DATA, "option {}: '{}' is not true or false", key, value);
}

template <typename T>
Result<T> parseChoice(const std::string& key, const std::string& value,
                      const std::map<std::string, T>& choices) {
  if (auto found = choices.find(value); found != choices.end()) return found->second;
  std::string names;
  for (const auto& [name, unused] : choices) names += (names.empty() ? "" : ", ") + name;
  return makeError(ErrorCode::BAD_DATA, "option {}: '{}' is not one of {}", key, value, names);
}

// Operator names as TFLite spells them (CONV_2D); anything else is a custom code.
void addSkippedOp(DelegateOptions& options, const std::string& name) {
  for (int32_t code = 0; code < 256; ++code) {
    if (builtinName(code) == name) {
      options.skipOps.insert(code);
      return;
    }
  }
  options.skipCustomOps.insert(name);
}

const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> kSetters = {
      {"devices",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         o.devices = splitList(v);
         if (o.devices.empty()) return makeError(ErrorCode::BAD_DATA, "option devices: empty");
         return {};
       }},
      {"num_threads",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         ANNRT_ASSIGN_OR_RETURN(const int threads, parseInt("num_threads", v, 1, 256));
         o.numThreads = static_cast<uint32_t>(threads);
         return {};
       }},
      {"execution_preference",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         ANNRT_ASSIGN_OR_RETURN(
             o.preference, parseChoice<int32_t>(
                               "execution_preference", v,
                               {{"low_power", ANEURALNETWORKS_PREFER_LOW_POWER},
                                {"fast_single_answer", ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER},
                                {"sustained_speed", ANEURALNETWORKS_PREFER_SUSTAINED_SPEED}}));
         return {};
       }},
      {"max_partitions",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         ANNRT_ASSIGN_OR_RETURN(o.maxPartitions, parseInt("max_partitions", v, 0, 1 << 20));
         return {};
       }},
      {"min_nodes_per_partition",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         ANNRT_ASSIGN_OR_RETURN(o.minNodesPerPartition,
                                parseInt("min_nodes_per_partition", v, 1, 1 << 20));
         return {};
       }},
      {"cache_dir",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         o.cacheDir = v;
         return {};
       }},
      {"model_token",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         o.modelToken = v;
         return {};
       }},
      {"allow_fp16",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         ANNRT_ASSIGN_OR_RETURN(o.allowFp16, parseBool("allow_fp16", v));
         return {};
       }},
      {"log_level",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         ANNRT_ASSIGN_OR_RETURN(o.logLevel,
                                parseChoice<LogLevel>("log_level", v,
                                                      {{"error", LogLevel::ERROR},
                                                       {"warning", LogLevel::WARNING},
                                                       {"info", LogLevel::INFO},
                                                       {"verbose", LogLevel::VERBOSE}}));
         return {};
       }},
      {"skip_ops",
       [](DelegateOptions& o, const std::string& v) -> Result<void> {
         for (const std::string& name : splitList(v)) addSkippedOp(o, name);
         return {};
       }},
  };
  return kSetters;
}

}  // namespace

Result<DelegateOptions> parseOptions(
    const std::vector<std::pair<std::string, std::string>>& pairs) {
  DelegateOptions options;
  for (const auto& [key, value] : pairs) {
    const auto setter = setters().find(key);
    if (setter == setters().end()) {
      std::string keys;
      for (const auto& [name, unused] : setters()) keys += (keys.empty() ? "" : ", ") + name;
      return makeError(ErrorCode::BAD_DATA, "unknown option '{}' (options: {})", key, keys);
    }
    ANNRT_RETURN_IF_ERROR(setter->second(options, value));
  }
  if (options.cacheDir.empty() != options.modelToken.empty()) {
    return makeError(ErrorCode::BAD_DATA,
                     "options cache_dir and model_token go together (caching needs both)");
  }
  return options;
}

}  // namespace annrt::tflite::delegate
