// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the runtime tells about itself: per-device counters (ANNRT_STATS=file
// writes them as JSON as each compilation is freed, and at exit if they
// changed since) and per-operation profiles of compilations
// (ANNRT_PROFILE=1 logs them, ANNRT_PROFILE=file.json also writes them there
// each time a compilation is freed).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace annrt::runtime {

struct DeviceCounters {
  uint64_t compilations = 0;
  uint64_t inferences = 0;
  uint64_t cacheHits = 0;
  uint64_t cacheMisses = 0;
  uint64_t fallbacks = 0;
  // ANNRT_DRIVER_ISOLATION: the device's driver host crashed, hung or was
  // killed (once per host failure), and hosts started again after one.
  uint64_t hostFailures = 0;
  uint64_t hostRestarts = 0;
};

struct OperationProfile {
  uint32_t index = 0;
  std::string type;
  std::string device;
  uint64_t count = 0;
  uint64_t totalNs = 0;
};

struct CompilationProfile {
  uint32_t modelOperations = 0;
  struct Step {
    std::string device;
    std::vector<uint32_t> operations;
  };
  std::vector<Step> steps;
  std::vector<OperationProfile> operations;
};

class Telemetry {
 public:
  Telemetry();
  ~Telemetry();  // writes ANNRT_STATS if the counters changed since the last write

  // Also written as each compilation is freed, so that a tool can read the
  // counters of its own run without waiting for the process to exit.
  void writeStats() const;

  bool profilingEnabled() const { return profiling_; }
  void countCompilation(const std::string& device);
  void countInference(const std::string& device);
  void countFallback(const std::string& device);
  void countCache(const std::string& device, bool hit);
  void countHostFailure(const std::string& device);
  void countHostRestart(const std::string& device);
  void addProfile(CompilationProfile profile);
  std::map<std::string, DeviceCounters> counters() const;

  std::string statsJson() const;
  std::string profilesJson() const;

 private:
  void count(const std::string& device, uint64_t DeviceCounters::*counter);
  void writeFile(const std::string& path, const std::string& text) const;

  mutable std::mutex mutex_;
  std::map<std::string, DeviceCounters> counters_;
  std::vector<CompilationProfile> profiles_;
  bool profiling_ = false;
  std::string profilePath_;
  std::string statsPath_;
  mutable bool statsChanged_ = false;  // counted since the last writeStats
};

}  // namespace annrt::runtime
