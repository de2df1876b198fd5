// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/telemetry.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/log.h"

namespace annrt::runtime {

Telemetry::Telemetry() {
  if (const char* profile = std::getenv("ANNRT_PROFILE"); profile && *profile) {
    profiling_ = std::string(profile) != "0";
    if (profiling_ && std::string(profile) != "1") profilePath_ = profile;
  }
  if (const char* stats = std::getenv("ANNRT_STATS"); stats && *stats) statsPath_ = stats;
}

Telemetry::~Telemetry() {
  bool changed = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    changed = statsChanged_;
  }
  // Unchanged counters are already in the file; writing them again at exit
  // would bring back a file its reader has read and removed.
  if (changed) writeStats();
}

void Telemetry::writeStats() const {
  if (statsPath_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    statsChanged_ = false;
  }
  writeFile(statsPath_, statsJson());
}

void Telemetry::countCompilation(const std::string& device) {
  count(device, &DeviceCounters::compilations);
}

void Telemetry::countInference(const std::string& device) {
  count(device, &DeviceCounters::inferences);
}

void Telemetry::countFallback(const std::string& device) {
  count(device, &DeviceCounters::fallbacks);
}

void Telemetry::countCache(const std::string& device, bool hit) {
  count(device, hit ? &DeviceCounters::cacheHits : &DeviceCounters::cacheMisses);
}

void Telemetry::count(const std::string& device, uint64_t DeviceCounters::*counter) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++(counters_[device].*counter);
  statsChanged_ = true;
}

void Telemetry::countHostFailure(const std::string& device) {
  count(device, &DeviceCounters::hostFailures);
}

void Telemetry::countHostRestart(const std::string& device) {
  count(device, &DeviceCounters::hostRestarts);
}

std::map<std::string, DeviceCounters> Telemetry::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_;
}

void Telemetry::addProfile(CompilationProfile profile) {
  for (const OperationProfile& op : profile.operations) {
    if (op.count == 0 || !profilePath_.empty()) continue;
    logLine("I", "profile",
            fmt::format("op {:4d} {:<28} on {:<16} {:>10.3f} ms avg over {} runs", op.index,
                        op.type, op.device, op.totalNs / 1e6 / op.count, op.count));
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    profiles_.push_back(std::move(profile));
    if (profilePath_.empty()) return;
  }
  writeFile(profilePath_, profilesJson());
}

std::string Telemetry::statsJson() const {
  nlohmann::json devices = nlohmann::json::object();
  for (const auto& [name, c] : counters()) {
    devices[name] = {{"compilations", c.compilations}, {"inferences", c.inferences},
                     {"cache_hits", c.cacheHits},      {"cache_misses", c.cacheMisses},
                     {"fallbacks", c.fallbacks},       {"host_failures", c.hostFailures},
                     {"host_restarts", c.hostRestarts}};
  }
  return nlohmann::json{{"devices", devices}}.dump(2);
}

std::string Telemetry::profilesJson() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json compilations = nlohmann::json::array();
  for (const CompilationProfile& profile : profiles_) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : profile.steps) {
      steps.push_back({{"device", step.device}, {"operations", step.operations}});
    }
    nlohmann::json operations = nlohmann::json::array();
    for (const OperationProfile& op : profile.operations) {
      operations.push_back({{"index", op.index},
                            {"type", op.type},
                            {"device", op.device},
                            {"count", op.count},
                            {"total_ns", op.totalNs}});
    }
    compilations.push_back({{"model_operations", profile.modelOperations},
                            {"steps", steps},
                            {"operations", operations}});
  }
  return nlohmann::json{{"compilations", compilations}}.dump(2);
}

void Telemetry::writeFile(const std::string& path, const std::string& text) const {
  std::ofstream out(path, std::ios::trunc);
  out << text << '\n';
  if (!out) logError("cannot write {}", path);
}

}  // namespace annrt::runtime
