// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Trace events in Chrome trace JSON (loadable in Perfetto and chrome://tracing)
// when ANNRT_TRACE names a file; written at exit. Each span has a layer
// (application = the NNAPI call, runtime, driver) and a lifecycle phase
// (initialization, preparation, compilation, execution, input_output,
// compute, results, termination), like Android's NNAPI systrace sections.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace annrt::runtime {

enum class TraceLayer { APPLICATION, RUNTIME, DRIVER };
enum class TracePhase {
  INITIALIZATION,
  PREPARATION,
  COMPILATION,
  EXECUTION,
  INPUT_OUTPUT,
  COMPUTE,
  RESULTS,
  TERMINATION,
};

const char* traceLayerName(TraceLayer layer);
const char* tracePhaseName(TracePhase phase);

class TraceRecorder {
 public:
  static TraceRecorder& get();
  bool enabled() const { return !path_.empty(); }
  void record(TraceLayer layer, TracePhase phase, std::string name, uint64_t beginUs,
              uint64_t durationUs);
  std::string json() const;
  ~TraceRecorder();  // writes the file

 private:
  TraceRecorder();
  struct Event {
    TraceLayer layer;
    TracePhase phase;
    std::string name;
    uint64_t beginUs;
    uint64_t durationUs;
    uint64_t thread;
  };
  std::string path_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

// Records a span from construction to destruction (only when tracing).
class TraceSpan {
 public:
  TraceSpan(TraceLayer layer, TracePhase phase, const char* name);
  ~TraceSpan();
  TraceSpan(const TraceSpan&) = delete;
  TraceSpan& operator=(const TraceSpan&) = delete;

 private:
  TraceLayer layer_;
  TracePhase phase_;
  const char* name_;
  std::chrono::steady_clock::time_point begin_;
  bool active_;
};

}  // namespace annrt::runtime
