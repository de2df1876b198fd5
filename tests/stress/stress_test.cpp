// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Load and concurrency (docs/reliability.md): kThreads threads each run
// ANNRT_STRESS_EXECUTIONS iterations (default 1000) over compilations and
// ANeuralNetworksMemory objects they all share. Each iteration computes one
// way: compute, startCompute + wait, a fenced chain of executions each reading
// the previous one's output memory, a burst, a reusable execution, an
// execution with setTimeout and setLoopTimeout, or a fresh compilation of the
// same model. Every output is checked against arithmetic on the known inputs,
// and the device counters against the plug-ins' share of the work.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "api/test_models.h"
#include "common/device_lookup.h"
#include "common/temp_path.h"

namespace annrt::test {
namespace {

const TempPath& statsFile() {
  static const TempPath path("annrt_stress_stats.json");
  return path;
}

nlohmann::json readDeviceCounters() {
  std::ifstream in(statsFile().str());
  const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(stats.is_discarded()) << "no device counters in " << statsFile().str();
  return stats.is_discarded() ? nlohmann::json::object() : stats;
}

// One device counter, 0 when the device never counted.
uint64_t counter(const nlohmann::json& stats, const char* device, const char* name) {
  const auto devices = stats.find("devices");
  if (devices == stats.end() || !devices->contains(device)) return 0;
  return (*devices)[device].value(name, uint64_t{0});
}

const TempPath& cacheDirectory() {
  static const TempPath path("annrt_stress_cache");
  return path;
}

// Must run before the runtime's device registry is built (first NNAPI call).
const bool kEnvironmentReady = [] {
  // An automatic compilation cache of its own, empty at first, which the
  // threads that compile fill side by side.
  setenv("ANNRT_CACHE_PATH", cacheDirectory().str().c_str(), 1);
  // Device counters, to see that the plug-ins ran.
  setenv("ANNRT_STATS", statsFile().str().c_str(), 1);
  setenv("ANNRT_DRIVER_PATH", ANNRT_SAMPLE_DRIVER_DIR, 1);
  // sample-failing fails every execution, each of which falls back to the CPU.
  setenv("ANNRT_SAMPLE_FAILING_MODE", "execute", 1);
  // Keeps the two-device plans the cost model would reject for tiny models.
  setenv("ANNRT_COST_MODEL", "0", 1);
  return true;
}();

constexpr int kThreads = 8;
constexpr uint32_t kElements = 16;
constexpr size_t kBytes = kElements * sizeof(float);
constexpr int kInputSlots = 32;
constexpr float kIterations = 3.0f;  // of the WHILE model
constexpr int kChainLength = 3;
// Timeouts that a healthy run never reaches, even under TSan on 2 cores.
constexpr uint64_t kTimeoutNs = 60'000'000'000;
constexpr uint64_t kLoopTimeoutNs = 15'000'000'000;  // the maximum
constexpr int kReportedFailures = 20;
// Indexes of the plans with plug-ins in Shared::subjects.
constexpr size_t kPlanFast = 2, kPlanFailing = 3, kPlanFailingWhile = 5;

size_t iterationsPerThread() {
  const char* env = std::getenv("ANNRT_STRESS_EXECUTIONS");
  return env != nullptr && *env != '\0' ? std::strtoul(env, nullptr, 10) : 1000;
}

enum class Kind { FLOOR_ADD, WHILE };

float apply(Kind kind, float x) {
  return kind == Kind::FLOOR_ADD ? std::floor(x + 1.5f) : x + kIterations;
}

float inputValue(int slot, uint32_t element) {
  return static_cast<float>((slot * 5 + static_cast<int>(element)) % 40) * 0.25f - 5.0f;
}

// y = FLOOR(x + 1.5); plans with sample-float-fast give it the ADD.
Model floorAddModel() {
  client::GraphBuilder b;
  const std::vector<uint32_t> dims = {kElements};
  const uint32_t x = b.addTensor(dims), sum = b.addTensor(dims), y = b.addTensor(dims);
  b.addOperation(ANEURALNETWORKS_ADD, {x, b.addFloatConstant({1}, {1.5f}), b.addInt32Scalar(0)},
                 {sum});
  b.addOperation(ANEURALNETWORKS_FLOOR, {sum}, {y});
  b.finish({x}, {y});
  return built(b);
}

// One compilation under stress, and what it was made of.
struct Subject {
  std::string name;
  Kind kind;
  ANeuralNetworksModel* model;
  std::vector<const ANeuralNetworksDevice*> devices;  // none: ANeuralNetworksCompilation_create
  Compilation compilation;

  bool singleDevice() const { return devices.size() == 1; }  // setTimeout is allowed
  Compilation compileAgain() const {
    return devices.empty() ? compile(model) : compileForDevices(model, devices);
  }
};

enum Mode { COMPUTE, START_COMPUTE, FENCED_CHAIN, BURST, REUSABLE, TIMEOUT, COMPILE, MODE_COUNT };
constexpr const char* kModeNames[MODE_COUNT] = {
    "compute",  "startCompute+wait", "fenced chain",   "burst",
    "reusable", "timeouts",          "compile+compute"};

// What the threads share: the compilations, one memory of inputs every thread
// reads, one memory of outputs in which each thread has its own regions, and
// the counts.
struct Shared {
  std::vector<Subject> subjects;
  SharedMemory inputs{kInputSlots * kBytes};
  SharedMemory outputs{size_t{kThreads} * kChainLength * kBytes};
  std::atomic<uint64_t> perMode[MODE_COUNT] = {};
  std::vector<std::atomic<uint64_t>> perSubject;
  std::atomic<uint64_t> failures{0};

  void fail(const std::string& message) {
    if (failures.fetch_add(1) < kReportedFailures) ADD_FAILURE() << message;
  }
};

class Worker {
 public:
  Worker(int id, Shared& shared)
      : id_(id),
        shared_(shared),
        bursts_(shared.subjects.size()),
        reusables_(shared.subjects.size()),
        reusableOutputs_(shared.subjects.size(), std::vector<float>(kElements)) {}

  void run(size_t iterations) {
    for (size_t i = 0; i < iterations; ++i) {
      const auto mode = static_cast<Mode>((i + id_) % MODE_COUNT);
      // Every mode on one compilation, then the next: each thread meets every pair.
      size_t index = (i / MODE_COUNT + id_) % shared_.subjects.size();
      while (mode == TIMEOUT && !shared_.subjects[index].singleDevice()) {
        index = (index + 1) % shared_.subjects.size();
      }
      const int slot = static_cast<int>((i * 7 + id_) % kInputSlots);
      const int executions = runMode(mode, index, slot);
      shared_.perMode[mode] += executions;
      shared_.perSubject[index] += executions;
    }
  }

 private:
  int runMode(Mode mode, size_t index, int slot) {
    const Subject& subject = shared_.subjects[index];
    switch (mode) {
      case COMPUTE: compute(subject, subject.compilation.get(), slot); return 1;
      case START_COMPUTE: startCompute(subject, slot); return 1;
      case FENCED_CHAIN: fencedChain(subject, slot); return kChainLength;
      case BURST: burst(index, slot); return 1;
      case REUSABLE: reusable(index); return 1;
      case TIMEOUT: withTimeouts(subject, slot); return 1;
      case COMPILE: compileAndCompute(subject, slot); return 1;
      case MODE_COUNT: break;
    }
    return 0;
  }

  bool ok(int code, const Subject& subject, const char* call) {
    if (code == ANEURALNETWORKS_NO_ERROR) return true;
    shared_.fail(subject.name + ": " + call + " returned " + resultName(code));
    return false;
  }

  // `out` must be `steps` applications of the model to input `slot`.
  void expectOutput(const Subject& subject, const char* mode, int slot, int steps,
                    const float* out) {
    for (uint32_t j = 0; j < kElements; ++j) {
      float expected = inputValue(slot, j);
      for (int k = 0; k < steps; ++k) expected = apply(subject.kind, expected);
      if (out[j] != expected) {
        shared_.fail(subject.name + " (" + mode + "): element " + std::to_string(j) + " is " +
                     std::to_string(out[j]) + ", expected " + std::to_string(expected));
        return;
      }
    }
  }

  size_t regionOffset(int step) const {
    return (static_cast<size_t>(id_) * kChainLength + step) * kBytes;
  }
  float* region(int step) const { return shared_.outputs.floats() + regionOffset(step) / 4; }
  static void clear(float* out) {
    std::fill(out, out + kElements, std::numeric_limits<float>::quiet_NaN());
  }

  bool bindInputSlot(ANeuralNetworksExecution* e, const Subject& s, int slot) {
    return ok(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, shared_.inputs.get(),
                                                          slot * kBytes, kBytes),
              s, "setInputFromMemory");
  }
  bool bindOutputRegion(ANeuralNetworksExecution* e, const Subject& s, int step) {
    return ok(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, shared_.outputs.get(),
                                                           regionOffset(step), kBytes),
              s, "setOutputFromMemory");
  }

  // Input from the shared memory, output to a buffer of this thread.
  void compute(const Subject& s, ANeuralNetworksCompilation* compilation, int slot) {
    Execution e = newExecution(compilation);
    std::vector<float> out(kElements);
    clear(out.data());
    if (!bindInputSlot(e.get(), s, slot) ||
        !ok(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, out.data(), kBytes), s,
            "setOutput") ||
        !ok(ANeuralNetworksExecution_compute(e.get()), s, "compute")) {
      return;
    }
    expectOutput(s, "compute", slot, 1, out.data());
  }

  // Input from a buffer, output to this thread's region of the shared memory.
  void startCompute(const Subject& s, int slot) {
    std::vector<float> in(kElements);
    for (uint32_t j = 0; j < kElements; ++j) in[j] = inputValue(slot, j);
    clear(region(0));
    Execution e = newExecution(s.compilation.get());
    if (!ok(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, in.data(), kBytes), s,
            "setInput") ||
        !bindOutputRegion(e.get(), s, 0)) {
      return;
    }
    ANeuralNetworksEvent* raw = nullptr;
    if (!ok(ANeuralNetworksExecution_startCompute(e.get(), &raw), s, "startCompute")) return;
    Event event(raw);
    if (!ok(ANeuralNetworksEvent_wait(event.get()), s, "Event_wait")) return;
    expectOutput(s, "startCompute", slot, 1, region(0));
  }

  // Execution k reads the output memory region of execution k - 1 once its
  // event signals.
  void fencedChain(const Subject& s, int slot) {
    for (int k = 0; k < kChainLength; ++k) clear(region(k));
    std::vector<Execution> executions;
    std::vector<Event> events;
    for (int k = 0; k < kChainLength; ++k) {
      Execution& e = executions.emplace_back(newExecution(s.compilation.get()));
      const bool bound =
          k == 0 ? bindInputSlot(e.get(), s, slot)
                 : ok(ANeuralNetworksExecution_setInputFromMemory(
                          e.get(), 0, nullptr, shared_.outputs.get(), regionOffset(k - 1), kBytes),
                      s, "setInputFromMemory");
      if (!bound || !bindOutputRegion(e.get(), s, k)) return;
      const ANeuralNetworksEvent* previous = k == 0 ? nullptr : events.back().get();
      ANeuralNetworksEvent* raw = nullptr;
      if (!ok(ANeuralNetworksExecution_startComputeWithDependencies(e.get(), &previous,
                                                                    k == 0 ? 0 : 1, 0, &raw),
              s, "startComputeWithDependencies")) {
        return;
      }
      events.emplace_back(raw);
    }
    if (!ok(ANeuralNetworksEvent_wait(events.back().get()), s, "Event_wait")) return;
    for (int k = 0; k < kChainLength; ++k) expectOutput(s, "fenced chain", slot, k + 1, region(k));
  }

  // One burst per thread and compilation, as the API requires bursts not to overlap.
  void burst(size_t index, int slot) {
    const Subject& s = shared_.subjects[index];
    if (!bursts_[index]) bursts_[index] = newBurst(s.compilation.get());
    std::vector<float> in(kElements), out(kElements);
    for (uint32_t j = 0; j < kElements; ++j) in[j] = inputValue(slot, j);
    clear(out.data());
    Execution e = newExecution(s.compilation.get());
    if (!ok(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, in.data(), kBytes), s,
            "setInput") ||
        !ok(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, out.data(), kBytes), s,
            "setOutput") ||
        !ok(ANeuralNetworksExecution_burstCompute(e.get(), bursts_[index].get()), s,
            "burstCompute")) {
      return;
    }
    expectOutput(s, "burst", slot, 1, out.data());
  }

  // One reusable execution per thread and compilation, bound once, computed
  // every time this mode picks it.
  void reusable(size_t index) {
    const Subject& s = shared_.subjects[index];
    const int slot = id_ % kInputSlots;
    std::vector<float>& out = reusableOutputs_[index];
    if (!reusables_[index]) {
      reusables_[index] = newExecution(s.compilation.get());
      ANeuralNetworksExecution* e = reusables_[index].get();
      if (!ok(ANeuralNetworksExecution_setReusable(e, true), s, "setReusable") ||
          !bindInputSlot(e, s, slot) ||
          !ok(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), kBytes), s,
              "setOutput")) {
        return;
      }
    }
    clear(out.data());
    if (!ok(ANeuralNetworksExecution_compute(reusables_[index].get()), s, "compute (reusable)")) {
      return;
    }
    expectOutput(s, "reusable", slot, 1, out.data());
  }

  // A compilation of this thread's own while the others compute.
  void compileAndCompute(const Subject& s, int slot) {
    Compilation compilation = s.compileAgain();
    if (compilation == nullptr) return shared_.fail(s.name + ": compiling again failed");
    compute(s, compilation.get(), slot);
  }

  // Single-device compilations only: setTimeout needs one.
  void withTimeouts(const Subject& s, int slot) {
    Execution e = newExecution(s.compilation.get());
    if (!ok(ANeuralNetworksExecution_setTimeout(e.get(), kTimeoutNs), s, "setTimeout") ||
        !ok(ANeuralNetworksExecution_setLoopTimeout(e.get(), kLoopTimeoutNs), s,
            "setLoopTimeout") ||
        !bindInputSlot(e.get(), s, slot) || !bindOutputRegion(e.get(), s, 0)) {
      return;
    }
    clear(region(0));
    if (!ok(ANeuralNetworksExecution_compute(e.get()), s, "compute (timeouts)")) return;
    expectOutput(s, "timeouts", slot, 1, region(0));
  }

  const int id_;
  Shared& shared_;
  std::vector<Burst> bursts_;
  std::vector<Execution> reusables_;
  std::vector<std::vector<float>> reusableOutputs_;
};

const ANeuralNetworksDevice* device(const char* name) {
  const ANeuralNetworksDevice* found = findDevice(name);
  EXPECT_NE(found, nullptr) << name;
  return found;
}

TEST(Stress, ThreadsShareCompilationsAndMemories) {
  ASSERT_TRUE(kEnvironmentReady);
  const Model floorAdd = floorAddModel();
  const WhileLoop loop = whileLoopModel({kElements}, kIterations);
  const ANeuralNetworksDevice* reference = device("nnapi-reference");
  const ANeuralNetworksDevice* cpu = device("annrt-cpu");
  const ANeuralNetworksDevice* fast = device("sample-float-fast");
  ASSERT_NE(device("sample-failing"), nullptr);
  ASSERT_TRUE(reference && cpu && fast);

  Shared shared;
  auto add = [&](std::string name, Kind kind, ANeuralNetworksModel* model,
                 std::vector<const ANeuralNetworksDevice*> devices) {
    Subject subject{std::move(name), kind, model, std::move(devices), nullptr};
    subject.compilation = subject.compileAgain();
    ASSERT_NE(subject.compilation, nullptr) << subject.name;
    shared.subjects.push_back(std::move(subject));
  };
  add("nnapi-reference FLOOR(ADD)", Kind::FLOOR_ADD, floorAdd.get(), {reference});
  add("annrt-cpu FLOOR(ADD)", Kind::FLOOR_ADD, floorAdd.get(), {cpu});
  // The reference is slower than the sample, which so takes the ADD (annrt-cpu
  // would take both operations).
  add("plan sample-float-fast + nnapi-reference FLOOR(ADD)", Kind::FLOOR_ADD, floorAdd.get(),
      {fast, reference});
  // ANeuralNetworksCompilation_create puts everything on sample-failing.
  add("plan sample-failing (fallback) FLOOR(ADD)", Kind::FLOOR_ADD, floorAdd.get(), {});
  add("nnapi-reference WHILE", Kind::WHILE, loop.main.get(), {reference});
  add("plan sample-failing (fallback) WHILE", Kind::WHILE, loop.main.get(), {});
  ASSERT_FALSE(HasFailure());
  shared.perSubject = std::vector<std::atomic<uint64_t>>(shared.subjects.size());
  for (int slot = 0; slot < kInputSlots; ++slot) {
    for (uint32_t j = 0; j < kElements; ++j) {
      shared.inputs.floats()[slot * kElements + j] = inputValue(slot, j);
    }
  }

  const size_t iterations = iterationsPerThread();
  const auto start = std::chrono::steady_clock::now();
  {
    std::vector<Worker> workers;
    workers.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) workers.emplace_back(t, shared);
    std::vector<std::thread> threads;
    threads.reserve(workers.size());
    for (Worker& worker : workers)
      threads.emplace_back([&worker, iterations] { worker.run(iterations); });
    for (std::thread& thread : threads) thread.join();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  uint64_t total = 0;
  std::printf("stress: %d threads x %zu iterations in %.2f s\n", kThreads, iterations, seconds);
  for (int m = 0; m < MODE_COUNT; ++m) {
    std::printf("  %-20s %8llu executions\n", kModeNames[m],
                static_cast<unsigned long long>(shared.perMode[m].load()));
    total += shared.perMode[m];
  }
  for (size_t i = 0; i < shared.subjects.size(); ++i) {
    std::printf("  %-52s %8llu executions\n", shared.subjects[i].name.c_str(),
                static_cast<unsigned long long>(shared.perSubject[i].load()));
  }
  std::printf("  total %llu executions (%.0f/s), %llu failures\n",
              static_cast<unsigned long long>(total), total / seconds,
              static_cast<unsigned long long>(shared.failures.load()));
  EXPECT_EQ(shared.failures, 0u);
  EXPECT_GE(total, kThreads * iterations);

  // The plug-ins did run: freeing the compilations writes the device counters.
  std::vector<uint64_t> perSubject;
  perSubject.reserve(shared.perSubject.size());
  for (const auto& count : shared.perSubject) perSubject.push_back(count);
  shared.subjects.clear();
  const nlohmann::json stats = readDeviceCounters();
  EXPECT_GE(counter(stats, "sample-float-fast", "inferences"), perSubject[kPlanFast]);
  EXPECT_GE(counter(stats, "sample-failing", "fallbacks"),
            perSubject[kPlanFailing] + perSubject[kPlanFailingWhile]);
}

}  // namespace
}  // namespace annrt::test
