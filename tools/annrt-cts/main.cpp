// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cts: runs the NNAPI generated conformance cases (JSON form, see
// shared/nnapi-cts/README.md) against libneuralnetworks.so through the public
// C API only. See --help.

#include <android/NeuralNetworks.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "client/devices.h"
#include "client/result_codes.h"
#include "pool.h"
#include "runner.h"
#include "test_case.h"

#ifndef ANNRT_CTS_DEFAULT_VECTORS
#define ANNRT_CTS_DEFAULT_VECTORS "../shared/nnapi-cts"
#endif

namespace annrt::cts {
namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitRegression = 1;
constexpr int kExitUsage = 2;
constexpr int kExitSkipped = 77;  // vectors directory missing (ctest SKIP_RETURN_CODE)

constexpr const char* kHelp = R"(Usage: annrt-cts [options]

Runs the NNAPI generated conformance cases (the JSON form described in
shared/nnapi-cts/README.md) through the public NNAPI C API of
libneuralnetworks.so, the way AOSP's CTS does: build the model (constants by
setOperandValue, CONSTANT_REFERENCE from one memfd-backed memory, subgraphs by
setOperandValueFromModel), compile, check the preferred memory
alignment/padding are powers of two, execute once as a single-use execution
and twice as a reusable one, check output shapes and values with the README's
tolerances.

Case selection:
  --vectors DIR          Folder with V1_0 ... AIDL_V3 (default: $ANNRT_CTS_VECTORS,
                         else the source tree's ../shared/nnapi-cts:
                         )" ANNRT_CTS_DEFAULT_VECTORS R"().
  --experimental         Also load experimental/ (DENSIFY).
  --filter REGEX         Only run cases whose name matches (std::regex search;
                         derived runs have suffixed names, see below).
  --shard I/N            Only run the cases in shard I of N (0 <= I < N): a
                         case is in the shard its name's FNV-1a hash modulo N
                         picks, with its derived runs, so shards are disjoint,
                         cover every case together, and keep their cases as
                         cases are added. The sanitizer builds run a third of
                         each suite this way (tests/conformance/CMakeLists.txt).
  --list                 Print the selected case names and exit.

Derived suites (off by default; base cases always run):
  --dynamic-output-shape Also run DynamicOutputShapeTest on the cases whose
                         harness flag says so (every SUBGRAPH_OUTPUT operand
                         declared with all dimensions 0); reported as
                         NAME#dynamic_output_shape.
  --quant-coupling       Also run QuantizationCouplingTest (TENSOR_QUANT8_ASYMM
                         rewritten to TENSOR_QUANT8_ASYMM_SIGNED); reported as
                         NAME#quant_coupling.
  --device-memory        Also run DeviceMemoryTest: inputs copied into and
                         outputs copied out of driver-allocated memories
                         (ANeuralNetworksMemoryDesc_*, Memory_createFromDesc,
                         Memory_copy); reported as NAME#device_memory.
  --derived              All three of the above.

What a base case runs:
  * valid cases (expectFailure false): GeneratedTests as above.
  * validation cases (expectFailure true): pass iff a step fails: a failure
    while adding operands/values/operations or identifying inputs/outputs
    passes; otherwise ANeuralNetworksModel_finish must succeed and then
    compilation, or else every execution step (create, setInput/setOutput,
    compute; single-use and reusable), must return an error.
  * the 5 isInfiniteLoopTimeoutTest cases (while_infinite_loop*), which AOSP
    leaves out of the validation suite, are run with
    ANeuralNetworksExecution_setLoopTimeout (--loop-timeout-ns, default
    1000000) and pass iff compute returns MISSED_DEADLINE_TRANSIENT or
    MISSED_DEADLINE_PERSISTENT.
  * a case is skipped when its minFeatureLevel is greater than
    ANeuralNetworks_getRuntimeFeatureLevel(), and in --mode fenced when it
    is outside FencedComputeTest (see --mode).

Device and execution:
  --device NAME          Compile for that device only (createForDevices).
  --devices A,B,...      Compile for those devices (createForDevices).
                         Neither: ANeuralNetworksCompilation_create.
  --list-devices         Print the devices the runtime reports and exit.
  --mode MODE            sync (compute, default), async (startCompute +
                         Event_wait), burst (Burst_create + burstCompute) or
                         fenced (startComputeWithDependencies(exec, NULL, 0, 0)
                         + Event_wait). As in AOSP, fenced computes run only
                         on FencedComputeTest cases: the others (outputs of
                         unspecified dimensions, #dynamic_output_shape) are
                         skipped, since NNAPI rejects those fenced.
  --cache                Also compile twice with setCaching (a temporary
                         directory per case, a token per case), check the
                         second compilation stored nothing new (it was
                         prepared from the first's entries) and run it;
                         prints how many cases were compiled from entries.
  --timeout-ms N         Per-compute watchdog (default 10000): a compute that
                         takes longer fails the case ("timeout").
  --step-timeout-ms N    Limit for any other stretch without progress (build,
                         compile; default max(120000, 6 x --timeout-ms)).
  -j N                   Worker processes (default 1).
  --no-fork              Run in this process: no crash or hang protection
                         (for debuggers). Cases run in worker processes
                         otherwise, so a crash or hang fails only that case.

Output:
  Prints a table of passed/failed/skipped per main operation (the first
  operation that is not a generator placeholder ADD), then exactly
  "N passed, M failed, K skipped".
  --report FILE          JSON report: every case with name, spec, status,
                         stage/code/message for failures and the first value
                         mismatch (output, element, expected, actual,
                         tolerance).
  -v, --verbose          Print each failure as it happens (-vv: every case).
  --quiet-runtime        Send the workers' stderr (the runtime's log) to
                         /dev/null.

Expected-pass gate:
  --expected-pass FILE   Names of cases that must pass (one per line, # comments).
  --check-expected       Exit 1 iff a listed case that was selected did not pass
                         (a regression, printed with its stage, result code and
                         first mismatch); also prints newly passing cases that
                         are not listed yet. A listed case that failed runs
                         once more, alone in a fresh worker; if it passes then,
                         it is printed as FLAKY with its first failure.
  --write-expected FILE  Write the sorted names of every passing case.

Exit status: 0 (even when cases fail, unless --check-expected finds a
regression), 1 regression, 2 usage or setup error, 77 the vectors directory
does not exist.
)";

struct Config {
  std::string vectors;
  bool experimental = false;
  std::optional<std::regex> filter;
  unsigned shard = 0;
  unsigned shards = 1;
  bool list = false;
  bool listDevices = false;
  bool dynamicOutputShape = false;
  bool quantCoupling = false;
  bool deviceMemory = false;
  std::vector<std::string> devices;
  ComputeMode mode = ComputeMode::kSync;
  bool cache = false;
  long timeoutMs = 10000;
  long stepTimeoutMs = 0;
  uint64_t loopTimeoutNs = 1'000'000;
  unsigned jobs = 1;
  bool noFork = false;
  int verbose = 0;
  bool quietRuntime = false;
  std::string report;
  std::string expectedPass;
  bool checkExpected = false;
  std::string writeExpected;
};

struct Job {
  size_t caseIndex;
  Variant variant;
  std::string name;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::optional<ComputeMode> parseMode(const std::string& text) {
  for (ComputeMode mode :
       {ComputeMode::kSync, ComputeMode::kAsync, ComputeMode::kBurst, ComputeMode::kFenced}) {
    if (text == modeName(mode)) return mode;
  }
  return std::nullopt;
}

// "I/N" with 0 <= I < N.
bool parseShard(const std::string& text, Config* config) {
  unsigned shard = 0;
  unsigned shards = 0;
  char end = '\0';
  if (sscanf(text.c_str(), "%u/%u%c", &shard, &shards, &end) != 2) return false;
  if (shards == 0 || shard >= shards) return false;
  config->shard = shard;
  config->shards = shards;
  return true;
}

// FNV-1a: stable across runs and platforms, unlike std::hash.
uint64_t nameHash(const std::string& name) {
  uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : name) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

bool inShard(const std::string& caseName, const Config& config) {
  return config.shards <= 1 || nameHash(caseName) % config.shards == config.shard;
}

// Applies option `arg` if it takes no value; false where it is not one of
// those.
bool applyFlag(const std::string& arg, Config* config) {
  if (arg == "--experimental") {
    config->experimental = true;
  } else if (arg == "--list") {
    config->list = true;
  } else if (arg == "--list-devices") {
    config->listDevices = true;
  } else if (arg == "--dynamic-output-shape") {
    config->dynamicOutputShape = true;
  } else if (arg == "--quant-coupling") {
    config->quantCoupling = true;
  } else if (arg == "--device-memory") {
    config->deviceMemory = true;
  } else if (arg == "--derived") {
    config->dynamicOutputShape = config->quantCoupling = config->deviceMemory = true;
  } else if (arg == "--cache") {
    config->cache = true;
  } else if (arg == "--no-fork") {
    config->noFork = true;
  } else if (arg == "-v" || arg == "--verbose") {
    config->verbose += 1;
  } else if (arg == "--quiet-runtime") {
    config->quietRuntime = true;
  } else if (arg == "-vv") {
    config->verbose += 2;
  } else if (arg == "--check-expected") {
    config->checkExpected = true;
  } else {
    return false;
  }
  return true;
}

// A whole non-negative decimal number, or -1.
long parseCount(const std::string& text) {
  char* end = nullptr;
  const long n = strtol(text.c_str(), &end, 10);
  return text.empty() || *end != '\0' || n < 0 ? -1 : n;
}

enum class ValueOption {
  APPLIED,
  REJECTED,  // not an option with a value, or a bad value: the caller says so
  REPORTED,  // a bad value, and why has been said
};

// Applies option `arg` with its value `text`.
ValueOption applyValueOption(const std::string& arg, const std::string& text, Config* config) {
  const long n = parseCount(text);
  if (arg == "--vectors") {
    config->vectors = text;
  } else if (arg == "--filter") {
    try {
      config->filter = std::regex(text);
    } catch (const std::regex_error& e) {
      std::cerr << "annrt-cts: bad --filter: " << e.what() << "\n";
      return ValueOption::REPORTED;
    }
  } else if (arg == "--shard") {
    if (!parseShard(text, config)) {
      std::cerr << "annrt-cts: bad --shard '" << text << "': expected I/N with 0 <= I < N\n";
      return ValueOption::REPORTED;
    }
  } else if (arg == "--device") {
    config->devices = {text};
  } else if (arg == "--devices") {
    config->devices = split(text, ',');
  } else if (arg == "--mode") {
    const std::optional<ComputeMode> mode = parseMode(text);
    if (!mode) return ValueOption::REJECTED;
    config->mode = *mode;
  } else if (arg == "--timeout-ms" && n > 0) {
    config->timeoutMs = n;
  } else if (arg == "--step-timeout-ms" && n > 0) {
    config->stepTimeoutMs = n;
  } else if (arg == "--loop-timeout-ns" && n >= 0) {
    config->loopTimeoutNs = static_cast<uint64_t>(n);
  } else if (arg == "-j" && n > 0) {
    config->jobs = static_cast<unsigned>(n);
  } else if (arg == "--report") {
    config->report = text;
  } else if (arg == "--expected-pass") {
    config->expectedPass = text;
  } else if (arg == "--write-expected") {
    config->writeExpected = text;
  } else {
    return ValueOption::REJECTED;
  }
  return ValueOption::APPLIED;
}

// Parses the command line; returns an exit code to stop with, or nullopt.
std::optional<int> parseArgs(int argc, char** argv, Config* config) {
  const char* env = getenv("ANNRT_CTS_VECTORS");
  config->vectors = env != nullptr && *env != '\0' ? env : ANNRT_CTS_DEFAULT_VECTORS;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << kHelp;
      return kExitOk;
    }
    if (applyFlag(arg, config)) continue;
    const ValueOption applied =
        i + 1 < argc ? applyValueOption(arg, argv[i + 1], config) : ValueOption::REJECTED;
    if (applied == ValueOption::APPLIED) {
      ++i;
      continue;
    }
    if (applied == ValueOption::REJECTED) {
      std::cerr << "annrt-cts: bad or incomplete option '" << arg << "' (see --help)\n";
    }
    return kExitUsage;
  }
  if (config->checkExpected && config->expectedPass.empty()) {
    std::cerr << "annrt-cts: --check-expected needs --expected-pass FILE\n";
    return kExitUsage;
  }
  if (config->shards > 1 && !config->writeExpected.empty()) {
    std::cerr << "annrt-cts: --write-expected needs every case: it cannot take --shard\n";
    return kExitUsage;
  }
  if (config->stepTimeoutMs == 0) {
    config->stepTimeoutMs = std::max(120000L, 6 * config->timeoutMs);
  }
  return std::nullopt;
}

std::vector<Job> makeJobs(const std::vector<TestCase>& cases, const Config& config) {
  std::vector<Job> jobs;
  auto add = [&](size_t index, Variant variant) {
    std::string name = cases[index].name + variantSuffix(variant);
    if (config.filter && !std::regex_search(name, *config.filter)) return;
    jobs.push_back({index, variant, std::move(name)});
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!inShard(cases[i].name, config)) continue;
    const Harness& harness = cases[i].harness;
    add(i, Variant::kBase);
    if (config.dynamicOutputShape && harness.dynamicOutputShapeTest) {
      add(i, Variant::kDynamicOutputShape);
    }
    if (config.quantCoupling && harness.quantizationCouplingTest) {
      add(i, Variant::kQuantizationCoupling);
    }
    if (config.deviceMemory && harness.deviceMemoryTest) add(i, Variant::kDeviceMemory);
  }
  return jobs;
}

// ---- Runtime setup (runs in each worker) ----

void silenceStderr() {
  const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;
  dup2(null, STDERR_FILENO);
  close(null);
}

WorkerHello setUpRuntime(const Config& config, RunOptions* options) {
  if (config.quietRuntime) silenceStderr();
  WorkerHello hello;
  hello.runtimeFeatureLevel = ANeuralNetworks_getRuntimeFeatureLevel();
  options->runtimeFeatureLevel = hello.runtimeFeatureLevel;
  auto devices = client::listDevices();
  if (!devices.ok()) {
    hello.ok = false;
    hello.error = devices.error().message;
    return hello;
  }
  for (const client::DeviceInfo& device : *devices) hello.devices.push_back(device.name);
  for (const std::string& wanted : config.devices) {
    auto it = std::find_if(devices->begin(), devices->end(),
                           [&](const client::DeviceInfo& device) { return device.name == wanted; });
    if (it == devices->end()) {
      hello.ok = false;
      hello.error = fmt::format("device '{}' not found; the runtime has: {}", wanted,
                                fmt::join(hello.devices, ", "));
      return hello;
    }
    options->devices.push_back(it->handle);
  }
  return hello;
}

// ---- Output ----

struct Counts {
  size_t passed = 0;
  size_t failed = 0;
  size_t skipped = 0;
  void add(Status status) {
    if (status == Status::kPassed) ++passed;
    if (status == Status::kFailed) ++failed;
    if (status == Status::kSkipped) ++skipped;
  }
};

void printTable(const std::vector<TestCase>& cases, const std::vector<Job>& jobs,
                const std::vector<CaseResult>& results) {
  std::map<std::string, Counts> perOperation;
  Counts total;
  for (size_t i = 0; i < jobs.size(); ++i) {
    perOperation[mainOperationName(cases[jobs[i].caseIndex])].add(results[i].status);
    total.add(results[i].status);
  }
  fmt::print("{:<40} {:>8} {:>8} {:>8}\n", "operation", "passed", "failed", "skipped");
  for (const auto& [name, counts] : perOperation) {
    fmt::print("{:<40} {:>8} {:>8} {:>8}\n", name, counts.passed, counts.failed, counts.skipped);
  }
  fmt::print("{} passed, {} failed, {} skipped\n", total.passed, total.failed, total.skipped);
}

// --cache: how many passing cases were compiled again from cache entries.
struct CacheSummary {
  size_t cases = 0;
  size_t entries = 0;
};

CacheSummary cacheSummary(const std::vector<CaseResult>& results) {
  CacheSummary summary;
  for (const CaseResult& result : results) {
    if (result.status != Status::kPassed || result.cacheEntries == 0) continue;
    ++summary.cases;
    summary.entries += result.cacheEntries;
  }
  return summary;
}

void printCacheSummary(const std::vector<CaseResult>& results) {
  const CacheSummary summary = cacheSummary(results);
  fmt::print("cache: {} passing cases compiled again from {} cache entries\n", summary.cases,
             summary.entries);
}

void printResult(const Job& job, const CaseResult& result, int verbose) {
  if (result.status == Status::kFailed && verbose >= 1) {
    fmt::print(stderr, "FAILED {} [{}] {}\n", job.name, result.stage, result.message);
  } else if (verbose >= 2) {
    fmt::print(stderr, "{} {}{}{}\n", statusName(result.status), job.name,
               result.message.empty() ? "" : ": ", result.message);
  }
}

// JSON has no NaN/Inf: report them as strings.
nlohmann::json number(double value) {
  if (std::isfinite(value)) return value;
  return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
}

// `flaky`: the first failure of each case that passed when run again.
bool writeReport(const std::string& path, const Config& config, const WorkerHello& hello,
                 const std::vector<TestCase>& cases, const std::vector<Job>& jobs,
                 const std::vector<CaseResult>& results,
                 const std::map<size_t, std::string>& flaky) {
  using nlohmann::json;
  json report;
  report["vectors"] = config.vectors;
  report["mode"] = modeName(config.mode);
  report["devices"] = config.devices;
  report["runtimeDevices"] = hello.devices;
  report["runtimeFeatureLevel"] = hello.runtimeFeatureLevel;
  Counts total;
  json entries = json::array();
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TestCase& testCase = cases[jobs[i].caseIndex];
    const CaseResult& result = results[i];
    total.add(result.status);
    json entry = {{"name", jobs[i].name},
                  {"spec", testCase.spec},
                  {"operation", mainOperationName(testCase)},
                  {"status", statusName(result.status)}};
    if (result.status != Status::kPassed || !result.message.empty()) {
      entry["message"] = result.message;
    }
    if (result.status == Status::kFailed) {
      entry["stage"] = result.stage;
      entry["code"] = result.code;
      entry["codeName"] = client::resultCodeName(result.code);
    }
    if (result.mismatch) {
      const Mismatch& m = *result.mismatch;
      entry["mismatch"] = {{"output", m.output},
                           {"element", m.element},
                           {"expected", number(m.expected)},
                           {"actual", number(m.actual)},
                           {"tolerance", number(m.tolerance)}};
    }
    if (auto first = flaky.find(i); first != flaky.end())
      entry["flakyFirstFailure"] = first->second;
    if (result.cacheEntries > 0) entry["cacheEntries"] = result.cacheEntries;
    entries.push_back(std::move(entry));
  }
  report["summary"] = {
      {"passed", total.passed}, {"failed", total.failed}, {"skipped", total.skipped}};
  if (config.cache) {
    const CacheSummary cache = cacheSummary(results);
    report["summary"]["fromCache"] = {{"cases", cache.cases}, {"entries", cache.entries}};
  }
  report["cases"] = std::move(entries);
  std::ofstream out(path);
  out << report.dump(1, ' ', false, json::error_handler_t::replace) << "\n";
  return static_cast<bool>(out);
}

// ---- Expected-pass list ----

std::optional<std::set<std::string>> readNameList(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::set<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    const size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos || line[begin] == '#') continue;
    const size_t end = line.find_last_not_of(" \t\r");
    names.insert(line.substr(begin, end - begin + 1));
  }
  return names;
}

// A regression says why, so that a CI log alone tells what broke.
std::string regressionLine(const Job& job, const CaseResult& result) {
  std::string line = fmt::format("{} ({}", job.name, statusName(result.status));
  if (!result.stage.empty()) line += fmt::format(" at {}", result.stage);
  if (result.code != 0) line += fmt::format(", {}", client::resultCodeName(result.code));
  if (!result.message.empty()) line += fmt::format(": {}", result.message);
  if (result.mismatch) {
    const Mismatch& m = *result.mismatch;
    line += fmt::format("; output {} element {}: expected {}, got {}, tolerance {}", m.output,
                        m.element, m.expected, m.actual, m.tolerance);
  }
  return line + ")";
}

// Returns the number of regressions.
size_t compareWithExpected(const std::set<std::string>& expected, const std::string& path,
                           const std::vector<Job>& jobs, const std::vector<CaseResult>& results,
                           bool filtered) {
  std::set<std::string> seen;
  std::vector<std::string> regressions;
  std::vector<std::string> newlyPassing;
  for (size_t i = 0; i < jobs.size(); ++i) {
    seen.insert(jobs[i].name);
    const bool listed = expected.count(jobs[i].name) > 0;
    const bool passed = results[i].status == Status::kPassed;
    if (listed && !passed) regressions.push_back(regressionLine(jobs[i], results[i]));
    if (!listed && passed) newlyPassing.push_back(jobs[i].name);
  }
  size_t unknown = 0;
  for (const std::string& name : expected) unknown += seen.count(name) == 0 ? 1 : 0;
  if (unknown > 0 && !filtered) {
    fmt::print("warning: {} case(s) listed in {} were not run (unknown names?)\n", unknown, path);
  }
  if (!newlyPassing.empty()) {
    fmt::print("{} passing case(s) not listed in {}:\n", newlyPassing.size(), path);
    for (const std::string& name : newlyPassing) fmt::print("  NEW PASS {}\n", name);
  }
  for (const std::string& name : regressions) fmt::print("REGRESSION {}\n", name);
  if (!regressions.empty()) {
    fmt::print("{} case(s) listed in {} did not pass\n", regressions.size(), path);
  }
  return regressions.size();
}

// Runs jobs [0, count) in worker processes, or in this one (--no-fork).
bool runJobs(bool noFork, size_t count, const WorkerCallbacks& callbacks,
             const PoolOptions& options, WorkerHello* hello, std::vector<CaseResult>* results) {
  return noFork ? runInProcess(count, callbacks, options, hello, results)
                : runInWorkers(count, callbacks, options, hello, results);
}

// A listed case that failed runs once more in a fresh worker, alone. One that
// passes then takes that result and is printed as flaky with its first
// failure, so the log and the report keep the evidence (returned by case);
// one that fails again is a regression.
std::map<size_t, std::string> rerunRegressions(const std::set<std::string>& expected,
                                               const std::vector<Job>& jobs,
                                               const WorkerCallbacks& callbacks,
                                               PoolOptions poolOptions, bool noFork,
                                               std::vector<CaseResult>* results) {
  std::map<size_t, std::string> flaky;
  std::vector<size_t> again;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (expected.count(jobs[i].name) > 0 && (*results)[i].status != Status::kPassed) {
      again.push_back(i);
    }
  }
  if (again.empty()) return flaky;
  WorkerCallbacks rerun = callbacks;
  rerun.runJob = [&](size_t index, std::function<void(bool)> onCompute) {
    return callbacks.runJob(again[index], std::move(onCompute));
  };
  poolOptions.workers = 1;
  poolOptions.onResult = nullptr;
  WorkerHello hello;
  std::vector<CaseResult> second;
  if (!runJobs(noFork, again.size(), rerun, poolOptions, &hello, &second)) return flaky;
  for (size_t k = 0; k < again.size(); ++k) {
    if (second[k].status != Status::kPassed) continue;
    const size_t i = again[k];
    flaky[i] = regressionLine(jobs[i], (*results)[i]);
    fmt::print("FLAKY {}; passed when run again\n", flaky[i]);
    (*results)[i] = second[k];
  }
  return flaky;
}

bool writeExpected(const std::string& path, const std::vector<Job>& jobs,
                   const std::vector<CaseResult>& results) {
  std::vector<std::string> names;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (results[i].status == Status::kPassed) names.push_back(jobs[i].name);
  }
  std::sort(names.begin(), names.end());
  std::ofstream out(path);
  for (const std::string& name : names) out << name << "\n";
  return static_cast<bool>(out);
}

// ---- Main ----

int listDevicesAndExit() {
  fmt::print("runtime feature level {}\n", ANeuralNetworks_getRuntimeFeatureLevel());
  auto devices = client::listDevices();
  if (!devices.ok()) {
    fmt::print(stderr, "annrt-cts: {}\n", devices.error().message);
    return kExitRegression;
  }
  for (const client::DeviceInfo& device : *devices) {
    fmt::print("{} (type {}, feature level {})\n", device.name, device.type, device.featureLevel);
  }
  return kExitOk;
}

// Temporary directory for --cache, removed on destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "annrt-cts-cache-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

int run(const Config& config) {
  if (config.listDevices) return listDevicesAndExit();
  if (!fs::is_directory(config.vectors)) {
    fmt::print(
        "annrt-cts: vectors directory '{}' does not exist; skipping (set --vectors or "
        "ANNRT_CTS_VECTORS)\n",
        config.vectors);
    return kExitSkipped;
  }
  std::vector<TestCase> cases;
  try {
    cases = loadTestCases(config.vectors, config.experimental);
  } catch (const std::exception& e) {
    fmt::print(stderr, "annrt-cts: {}\n", e.what());
    return kExitUsage;
  }
  if (cases.empty()) {
    fmt::print(stderr, "annrt-cts: no test cases under '{}'\n", config.vectors);
    return kExitUsage;
  }
  const std::vector<Job> jobs = makeJobs(cases, config);
  if (config.list) {
    for (const Job& job : jobs) fmt::print("{}\n", job.name);
    return kExitOk;
  }

  std::optional<std::set<std::string>> expected;
  if (!config.expectedPass.empty()) {
    expected = readNameList(config.expectedPass);
    if (!expected) {
      fmt::print(stderr, "annrt-cts: cannot read {}\n", config.expectedPass);
      return kExitUsage;
    }
  }

  TempDir cacheDir;
  if (config.cache && cacheDir.path().empty()) {
    fmt::print(stderr, "annrt-cts: cannot create a cache directory\n");
    return kExitUsage;
  }
  RunOptions options;
  options.mode = config.mode;
  options.cache = config.cache;
  options.cacheDir = cacheDir.path();
  options.loopTimeoutNs = config.loopTimeoutNs;

  WorkerCallbacks callbacks;
  callbacks.setUp = [&]() { return setUpRuntime(config, &options); };
  callbacks.runJob = [&](size_t index, std::function<void(bool)> onCompute) {
    RunOptions jobOptions = options;
    jobOptions.onCompute = std::move(onCompute);
    return runCase(cases[jobs[index].caseIndex], jobs[index].variant, jobOptions);
  };
  PoolOptions poolOptions;
  poolOptions.workers = config.jobs;
  poolOptions.computeTimeout = std::chrono::milliseconds(config.timeoutMs);
  poolOptions.stepTimeout = std::chrono::milliseconds(config.stepTimeoutMs);
  poolOptions.onResult = [&](size_t index, const CaseResult& result) {
    printResult(jobs[index], result, config.verbose);
  };

  WorkerHello hello;
  std::vector<CaseResult> results;
  const bool ok = runJobs(config.noFork, jobs.size(), callbacks, poolOptions, &hello, &results);
  if (!ok) {
    fmt::print(stderr, "annrt-cts: {}\n", hello.error);
    return kExitUsage;
  }

  std::map<size_t, std::string> flaky;
  if (expected && config.checkExpected) {
    flaky = rerunRegressions(*expected, jobs, callbacks, poolOptions, config.noFork, &results);
  }
  printTable(cases, jobs, results);
  if (config.cache) printCacheSummary(results);
  if (!config.report.empty() &&
      !writeReport(config.report, config, hello, cases, jobs, results, flaky)) {
    fmt::print(stderr, "annrt-cts: cannot write {}\n", config.report);
    return kExitUsage;
  }
  if (!config.writeExpected.empty() && !writeExpected(config.writeExpected, jobs, results)) {
    fmt::print(stderr, "annrt-cts: cannot write {}\n", config.writeExpected);
    return kExitUsage;
  }
  if (expected) {
    const size_t regressions = compareWithExpected(*expected, config.expectedPass, jobs, results,
                                                   config.filter.has_value() || config.shards > 1);
    if (config.checkExpected && regressions > 0) return kExitRegression;
  }
  return kExitOk;
}

}  // namespace
}  // namespace annrt::cts

int main(int argc, char** argv) {
  try {
    annrt::cts::Config config;
    if (auto exitCode = annrt::cts::parseArgs(argc, argv, &config)) return *exitCode;
    std::cout.flush();
    return annrt::cts::run(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "annrt-cts: %s\n", e.what());
    return annrt::cts::kExitUsage;  // "setup error" in --help
  }
}
