// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The external-delegate entry points (annrt_tflite_delegate.h).
#include <string>
#include <utility>
#include <vector>

#include "annrt_tflite_delegate.h"
#include "common/log.h"
#include "tflite_delegate/delegate.h"

namespace {

using annrt::tflite::delegate::Delegate;

void reportError(void (*report)(const char*), const std::string& message) {
  const std::string line = "annrt TFLite delegate: " + message;
  if (report != nullptr) {
    report(line.c_str());
  } else {
    annrt::logError("{}", line);
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) TfLiteDelegate* tflite_plugin_create_delegate(
    char** keys, char** values, size_t count, void (*report_error)(const char*)) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 0; i < count; ++i) {
    if (keys == nullptr || values == nullptr || keys[i] == nullptr || values[i] == nullptr) {
      reportError(report_error, "option " + std::to_string(i) + " is null");
      return nullptr;
    }
    pairs.emplace_back(keys[i], values[i]);
  }
  auto options = annrt::tflite::delegate::parseOptions(pairs);
  if (!options.ok()) {
    reportError(report_error, options.error().message);
    return nullptr;
  }
  auto delegate = Delegate::create(std::move(options).value());
  if (!delegate.ok()) {
    reportError(report_error, delegate.error().message);
    return nullptr;
  }
  return std::move(delegate).value().release()->base();
}

extern "C" __attribute__((visibility("default"))) void tflite_plugin_destroy_delegate(
    TfLiteDelegate* delegate) {
  if (delegate != nullptr) delete Delegate::of(delegate);
}

extern "C" __attribute__((visibility("default"))) void annrt_tflite_delegate_stats(
    AnnrtTfliteDelegateStats* stats) {
  if (stats == nullptr) return;
  const auto& c = annrt::tflite::delegate::counters();
  *stats = {c.nodes.load(),      c.delegatedNodes.load(), c.weightNodes.load(),
            c.partitions.load(), c.builds.load(),         c.invocations.load()};
}
