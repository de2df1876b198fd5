// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-trace summary FILE.json: reads a trace written with ANNRT_TRACE and
// prints the NNAPI timing summary: wall-clock milliseconds per lifecycle phase
// (columns) and layer (rows), like Android's NNAPI systrace summary.
#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace {

constexpr std::array<const char*, 8> kPhases = {"initialization", "preparation", "compilation",
                                                "input_output",   "compute",     "results",
                                                "execution",      "termination"};
constexpr std::array<const char*, 8> kHeadings = {
    "Initialization", "Preparation", "Compilation", "I/O",
    "Compute",        "Results",     "Ex. total",   "Termination"};
constexpr std::array<const char*, 3> kLayers = {"application", "runtime", "driver"};

using Totals = std::map<std::string, std::map<std::string, double>>;  // layer -> phase -> ms

int usage() {
  std::fputs("usage: annrt-trace summary TRACE.json\n", stderr);
  return 2;
}

bool load(const char* path, Totals& totals, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot open {}", path);
    return false;
  }
  const nlohmann::json trace = nlohmann::json::parse(in, nullptr, false);
  if (trace.is_discarded() || !trace.contains("traceEvents") || !trace["traceEvents"].is_array()) {
    error = fmt::format("{} is not a Chrome trace JSON file with traceEvents", path);
    return false;
  }
  for (const auto& event : trace["traceEvents"]) {
    if (!event.is_object() || event.value("ph", "") != "X" || !event.contains("args")) continue;
    const auto& args = event["args"];
    const std::string layer = args.value("layer", "");
    const std::string phase = args.value("phase", "");
    totals[layer][phase] += event.value("dur", 0.0) / 1000.0;
  }
  return true;
}

double at(Totals::const_iterator layer, const Totals& totals, const std::string& phase) {
  if (layer == totals.end()) return 0;
  auto it = layer->second.find(phase);
  return it == layer->second.end() ? 0 : it->second;
}

void print(const Totals& totals) {
  std::string header = fmt::format("{:<13}", "");
  std::string rule = fmt::format("{:<13}", "");
  for (const char* heading : kHeadings) {
    header += fmt::format("{:>15}", heading);
    rule += fmt::format("{:>15}", std::string(std::string(heading).size(), '-'));
  }
  fmt::print("NNAPI timing summary (total time, ms wall-clock)\n{}{:>15}\n{}{:>15}\n", header,
             "Total", rule, "-----");
  for (const char* layer : kLayers) {
    auto found = totals.find(layer);
    const auto initial = static_cast<char>(std::toupper(static_cast<unsigned char>(layer[0])));
    std::string row = fmt::format("{:<13}", std::string(1, initial) + (layer + 1));
    double total = 0;
    for (const char* phase : kPhases) {
      const std::string name = phase;
      const bool part = name == "input_output" || name == "compute" || name == "results";
      double ms = at(found, totals, name);
      // Without an execution span of its own, a layer's execution is its parts.
      if (name == "execution" && ms == 0) {
        ms = at(found, totals, "input_output") + at(found, totals, "compute") +
             at(found, totals, "results");
      }
      if (!part) total += ms;
      row += ms > 0 ? fmt::format("{:>15.2f}", ms) : fmt::format("{:>15}", "-");
    }
    fmt::print("{}{:>15.2f}\n", row, total);
  }
}

int run(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "summary") return usage();
  Totals totals;
  std::string error;
  if (!load(argv[2], totals, error)) {
    fmt::print(stderr, "annrt-trace: {}\n", error);
    return 1;
  }
  print(totals);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "annrt-trace: %s\n", e.what());
    return 1;
  }
}
