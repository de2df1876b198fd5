// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/trace.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/log.h"

namespace annrt::runtime {
namespace {

uint64_t microseconds(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

}  // namespace

const char* traceLayerName(TraceLayer layer) {
  switch (layer) {
    case TraceLayer::APPLICATION: return "application";
    case TraceLayer::RUNTIME: return "runtime";
    case TraceLayer::DRIVER: return "driver";
  }
  return "unknown";
}

const char* tracePhaseName(TracePhase phase) {
  switch (phase) {
    case TracePhase::INITIALIZATION: return "initialization";
    case TracePhase::PREPARATION: return "preparation";
    case TracePhase::COMPILATION: return "compilation";
    case TracePhase::EXECUTION: return "execution";
    case TracePhase::INPUT_OUTPUT: return "input_output";
    case TracePhase::COMPUTE: return "compute";
    case TracePhase::RESULTS: return "results";
    case TracePhase::TERMINATION: return "termination";
  }
  return "unknown";
}

TraceRecorder& TraceRecorder::get() {
  static TraceRecorder recorder;
  return recorder;
}

TraceRecorder::TraceRecorder() {
  if (const char* path = std::getenv("ANNRT_TRACE"); path && *path) path_ = path;
}

TraceRecorder::~TraceRecorder() {
  if (path_.empty()) return;
  std::ofstream out(path_, std::ios::trunc);
  out << json() << '\n';
  if (!out) logError("cannot write the trace to {}", path_);
}

void TraceRecorder::record(TraceLayer layer, TracePhase phase, std::string name, uint64_t beginUs,
                           uint64_t durationUs) {
  const auto thread = static_cast<uint64_t>(gettid());
  std::lock_guard<std::mutex> lock(mutex_);
  events_.push_back({layer, phase, std::move(name), beginUs, durationUs, thread});
}

std::string TraceRecorder::json() const {
  nlohmann::json events = nlohmann::json::array();
  const int pid = getpid();
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Event& e : events_) {
    events.push_back(
        {{"name", e.name},
         {"cat", traceLayerName(e.layer)},
         {"ph", "X"},
         {"ts", e.beginUs},
         {"dur", e.durationUs},
         {"pid", pid},
         {"tid", e.thread},
         {"args", {{"layer", traceLayerName(e.layer)}, {"phase", tracePhaseName(e.phase)}}}});
  }
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump();
}

TraceSpan::TraceSpan(TraceLayer layer, TracePhase phase, const char* name)
    : layer_(layer), phase_(phase), name_(name), active_(TraceRecorder::get().enabled()) {
  if (active_) begin_ = std::chrono::steady_clock::now();
}

TraceSpan::~TraceSpan() {
  if (!active_) return;
  const auto end = std::chrono::steady_clock::now();
  TraceRecorder::get().record(layer_, phase_, name_, microseconds(begin_),
                              microseconds(end) - microseconds(begin_));
}

}  // namespace annrt::runtime
