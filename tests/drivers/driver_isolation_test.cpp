// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANNRT_DRIVER_ISOLATION=process: plug-ins run in annrt-driver-host children.
// A host that crashes, hangs, runs out of memory or overflows an output is
// killed and reaped; the application gets correct results from the fallback,
// a counter and one log line; the next compilation starts a new host.
#include <android/NeuralNetworks.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/test_models.h"
#include "common/default_models.h"
#include "common/device_lookup.h"
#include "common/sanitizers.h"
#include "common/scoped_environment.h"
#include "common/temp_path.h"
#include "tflite/importer.h"

namespace {

using annrt::test::findDevice;

const std::string& statsPath() {
  static const annrt::test::TempPath path("annrt_driver_isolation_stats.json");
  return path.str();
}

// Must run before the runtime's device registry is built (first NNAPI call).
const bool kEnvironmentReady = [] {
  setenv("ANNRT_DRIVER_PATH", ANNRT_SAMPLE_DRIVER_DIR, 1);
  setenv("ANNRT_DRIVER_ISOLATION", "process:sample-failing,sample-float-fast", 1);
  setenv("ANNRT_STATS", statsPath().c_str(), 1);
  // The hang test waits this long; the alloc test needs a limit below 10 GB.
  setenv("ANNRT_DRIVER_HOST_TIMEOUT_MS", "1500", 1);
  setenv("ANNRT_DRIVER_HOST_MEMORY_MB", "1024", 1);
  // The fallback is the reference; annrt-cpu would take float operations itself.
  setenv("ANNRT_DISABLE_DEVICES", "^annrt-cpu$", 1);
  return true;
}();

struct HostCounters {
  uint64_t failures = 0;
  uint64_t restarts = 0;
  uint64_t inferences = 0;
  uint64_t fallbacks = 0;
};

// A device's counters now: the runtime writes ANNRT_STATS as a finished
// compilation is freed, so one on the reference alone is freed first.
HostCounters counters(const std::string& device) {
  const auto model = annrt::test::floorModel();
  annrt::test::compileForDevice(model.get()).reset();
  std::ifstream in(statsPath());
  const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
  if (stats.is_discarded() || !stats["devices"].contains(device)) return {};
  const auto& c = stats["devices"][device];
  return {c["host_failures"], c["host_restarts"], c["inferences"], c["fallbacks"]};
}

struct Child {
  pid_t pid = 0;
  char state = '?';
  std::string commandLine;
};

// This process's children, from /proc.
std::vector<Child> children() {
  std::vector<Child> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so parse after the last ')'.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = '?';
    int ppid = 0;
    if (sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) != 2 || ppid != getpid()) {
      continue;
    }
    std::ifstream cmdline(entry.path() / "cmdline");
    std::string commandLine((std::istreambuf_iterator<char>(cmdline)), {});
    found.push_back({std::stoi(name), state, commandLine});
  }
  return found;
}

// Hosts running `library` (a part of its path).
std::vector<pid_t> hostsOf(const std::string& library) {
  std::vector<pid_t> pids;
  for (const Child& child : children()) {
    if (child.commandLine.find("annrt-driver-host") != std::string::npos &&
        child.commandLine.find(library) != std::string::npos && child.state != 'Z') {
      pids.push_back(child.pid);
    }
  }
  return pids;
}

// Waits until `pid`, killed, is a zombie: its socket is closed then.
void awaitDeath(pid_t pid) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    const auto all = children();
    const bool dying = std::any_of(all.begin(), all.end(),
                                   [&](const Child& c) { return c.pid == pid && c.state != 'Z'; });
    if (!dying) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

size_t zombies() {
  size_t count = 0;
  for (const Child& child : children()) count += child.state == 'Z';
  return count;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

// Compiles FLOOR for the devices the runtime picks (sample-failing, which
// claims everything at 10x speed, with the reference behind it) and runs it.
void runFloor() {
  const auto model = annrt::test::floorModel();
  const auto compilation = annrt::test::compile(model.get());
  const auto execution = annrt::test::newExecution(compilation.get());
  annrt::test::expectFloors(execution.get());
}

// Binds kInput and `output` to an execution of floorModel().
void bindFloor(ANeuralNetworksExecution* execution, std::array<float, 4>& output) {
  ASSERT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, annrt::test::kInput.data(),
                                              sizeof(annrt::test::kInput)),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(
      ANeuralNetworksExecution_setOutput(execution, 0, nullptr, output.data(), sizeof(output)),
      ANEURALNETWORKS_NO_ERROR);
}

class DriverIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kEnvironmentReady);
    ASSERT_NE(findDevice("sample-failing"), nullptr);
  }

  // Kills the running sample-failing host, as someone outside might, and has
  // the runtime start a new one, which reads the mode set now.
  void restartFailingHost(const char* mode) {
    environment_.set("ANNRT_SAMPLE_FAILING_MODE", mode);
    for (pid_t pid : hostsOf("sample-failing")) {
      kill(pid, SIGKILL);
      awaitDeath(pid);
    }
    const auto model = annrt::test::floorModel();
    const ANeuralNetworksDevice* failing = findDevice("sample-failing");
    bool supported = false;
    // Asking the device is the start of a compilation: it restarts its host.
    ASSERT_EQ(
        ANeuralNetworksModel_getSupportedOperationsForDevices(model.get(), &failing, 1, &supported),
        ANEURALNETWORKS_NO_ERROR);
    EXPECT_TRUE(supported);
    ASSERT_EQ(hostsOf("sample-failing").size(), 1u);
  }

  // The whole story for one way a host dies at execute.
  void expectFailover(const char* mode) {
    restartFailingHost(mode);
    const HostCounters before = counters("sample-failing");
    const pid_t host = hostsOf("sample-failing").at(0);

    ::testing::internal::CaptureStderr();
    runFloor();  // the host dies at execute; the reference answers
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(occurrences(log, "devices sample-failing are unavailable until"), 1u) << log;
    EXPECT_EQ(kill(host, 0), -1) << "the dead host " << host << " was not reaped";
    EXPECT_EQ(zombies(), 0u);
    EXPECT_TRUE(hostsOf("sample-failing").empty());
    const HostCounters after = counters("sample-failing");
    EXPECT_EQ(after.failures, before.failures + 1) << mode;
    EXPECT_EQ(after.restarts, before.restarts) << mode;
    EXPECT_GT(after.fallbacks, before.fallbacks) << mode;

    runFloor();  // the next compilation starts a new host (which dies again)
    EXPECT_EQ(counters("sample-failing").restarts, before.restarts + 1) << mode;
    EXPECT_EQ(counters("sample-failing").failures, before.failures + 2) << mode;
    EXPECT_EQ(zombies(), 0u);
  }

  annrt::test::ScopedEnvironment environment_;
};

TEST_F(DriverIsolationTest, AbortFailsOver) {
  expectFailover("abort");
}

TEST_F(DriverIsolationTest, SegmentationFaultFailsOver) {
  expectFailover("segv");
}

TEST_F(DriverIsolationTest, HangIsKilledByTheWatchdog) {
  const auto start = std::chrono::steady_clock::now();
  expectFailover("hang");
  // Two executions each waited for the 1.5 s watchdog, not forever.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST_F(DriverIsolationTest, RunawayAllocationDiesInTheHost) {
  // Without the address-space limit the host would touch all 10 GB.
  if (annrt::kAddressSpaceSanitized)
    GTEST_SKIP() << "the host has no memory limit in a sanitizer build";
  expectFailover("alloc");
}

TEST_F(DriverIsolationTest, OutputOverflowHitsTheGuardPage) {
  expectFailover("overflow");
}

// An execution's own deadline comes before the watchdog: the stuck host is
// killed then, and the execution misses its deadline (no fallback, as NNAPI
// does not fall back from a missed deadline).
TEST_F(DriverIsolationTest, HangPastTheDeadlineMissesIt) {
  restartFailingHost("hang");
  const HostCounters before = counters("sample-failing");
  const auto model = annrt::test::floorModel();
  const ANeuralNetworksDevice* failing = findDevice("sample-failing");
  ANeuralNetworksCompilation* raw = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.get(), &failing, 1, &raw),
            ANEURALNETWORKS_NO_ERROR);
  const annrt::test::Compilation compilation(raw);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(raw), ANEURALNETWORKS_NO_ERROR);
  const auto execution = annrt::test::newExecution(raw);
  ASSERT_EQ(ANeuralNetworksExecution_setTimeout(execution.get(), 200'000'000),
            ANEURALNETWORKS_NO_ERROR);
  std::array<float, 4> output{};
  ASSERT_NO_FATAL_FAILURE(bindFloor(execution.get(), output));
  const auto start = std::chrono::steady_clock::now();
  const int status = ANeuralNetworksExecution_compute(execution.get());
  EXPECT_TRUE(status == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
              status == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT)
      << annrt::test::resultName(status);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1400));
  EXPECT_TRUE(hostsOf("sample-failing").empty());
  EXPECT_EQ(zombies(), 0u);
  EXPECT_EQ(counters("sample-failing").failures, before.failures + 1);
}

// ANeuralNetworksExecution_startCompute runs the step on the runtime's thread;
// a crash there fails over the same way.
TEST_F(DriverIsolationTest, AsyncExecutionFailsOver) {
  restartFailingHost("segv");
  const HostCounters before = counters("sample-failing");
  const auto model = annrt::test::floorModel();
  const auto compilation = annrt::test::compile(model.get());
  const auto execution = annrt::test::newExecution(compilation.get());
  std::array<float, 4> output{};
  ASSERT_NO_FATAL_FAILURE(bindFloor(execution.get(), output));
  ANeuralNetworksEvent* raw = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(execution.get(), &raw), ANEURALNETWORKS_NO_ERROR);
  const annrt::test::Event event(raw);
  ASSERT_EQ(ANeuralNetworksEvent_wait(raw), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(output, annrt::test::kFloored);
  EXPECT_EQ(counters("sample-failing").failures, before.failures + 1);
  EXPECT_EQ(zombies(), 0u);
}

// The host keeps only stdio and its socket, and runs under its memory limit.
TEST_F(DriverIsolationTest, HostHasOnlyItsSocketAndItsLimit) {
  // A descriptor the application leaves open across exec.
  const int leaked = open("/dev/null", O_RDONLY);
  ASSERT_GE(leaked, 0);
  restartFailingHost("none");
  close(leaked);
  const pid_t host = hostsOf("sample-failing").at(0);
  const std::string proc = "/proc/" + std::to_string(host);
  std::vector<int> fds;
  for (const auto& entry : std::filesystem::directory_iterator(proc + "/fd")) {
    fds.push_back(std::stoi(entry.path().filename()));
  }
  std::sort(fds.begin(), fds.end());
  EXPECT_EQ(fds, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(std::filesystem::is_socket(proc + "/fd/3"));
  if (annrt::kAddressSpaceSanitized) return;  // no memory limit in a sanitizer build
  std::ifstream limits(proc + "/limits");
  const std::string text((std::istreambuf_iterator<char>(limits)), {});
  // ANNRT_DRIVER_HOST_MEMORY_MB=1024, soft and hard.
  EXPECT_NE(text.find("Max address space         1073741824           1073741824"),
            std::string::npos)
      << text;
}

// Arguments in the application's fd-backed memory are not copied: the host
// maps the memory and the driver reads and writes it in place. Seen here
// through overflow, which writes a page past output 0: in the arena that
// would hit a guard page and kill the host; in the application's memory it
// lands in the bytes after the output (the cost of no copy: no guard page).
TEST_F(DriverIsolationTest, FdBackedMemoriesAreMappedNotCopied) {
  restartFailingHost("overflow");
  const HostCounters before = counters("sample-failing");
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  annrt::test::SharedMemory memory(3 * page);  // input at 0, output at `page`
  std::copy(annrt::test::kInput.begin(), annrt::test::kInput.end(), memory.floats());
  const auto model = annrt::test::floorModel();
  const auto compilation = annrt::test::compile(model.get());
  const auto execution = annrt::test::newExecution(compilation.get());
  const size_t bytes = sizeof(annrt::test::kInput);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(execution.get(), 0, nullptr, memory.get(),
                                                        0, bytes),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutputFromMemory(execution.get(), 0, nullptr, memory.get(),
                                                         page, bytes),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(execution.get()), ANEURALNETWORKS_NO_ERROR);
  const float* output = memory.floats() + page / sizeof(float);
  EXPECT_TRUE(std::equal(annrt::test::kFloored.begin(), annrt::test::kFloored.end(), output));
  const auto* past = reinterpret_cast<const uint8_t*>(output) + bytes;
  EXPECT_EQ(past[0], 0x5a);
  EXPECT_EQ(past[page - 1], 0x5a);
  const HostCounters after = counters("sample-failing");
  EXPECT_EQ(after.failures, before.failures);
  EXPECT_EQ(after.fallbacks, before.fallbacks);
  EXPECT_EQ(after.inferences, before.inferences + 1);
}

// An input in the application's memory is read-only in the host: a driver
// writing into it faults there and the application's bytes stay as they were.
TEST_F(DriverIsolationTest, InputMemoriesAreReadOnlyInTheHost) {
  restartFailingHost("write-input");
  const HostCounters before = counters("sample-failing");
  annrt::test::SharedMemory memory(sizeof(annrt::test::kInput));
  std::copy(annrt::test::kInput.begin(), annrt::test::kInput.end(), memory.floats());
  const auto model = annrt::test::floorModel();
  const auto compilation = annrt::test::compile(model.get());
  const auto execution = annrt::test::newExecution(compilation.get());
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(execution.get(), 0, nullptr, memory.get(),
                                                        0, sizeof(annrt::test::kInput)),
            ANEURALNETWORKS_NO_ERROR);
  std::array<float, 4> output{};
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                               sizeof(output)),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(execution.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(output, annrt::test::kFloored);  // from the fallback
  EXPECT_TRUE(std::equal(annrt::test::kInput.begin(), annrt::test::kInput.end(), memory.floats()));
  EXPECT_EQ(counters("sample-failing").failures, before.failures + 1);
}

// A driver error that leaves the host alive is an ordinary fallback.
TEST_F(DriverIsolationTest, DriverErrorKeepsTheHost) {
  restartFailingHost("execute");
  const pid_t host = hostsOf("sample-failing").at(0);
  const HostCounters before = counters("sample-failing");
  runFloor();
  EXPECT_EQ(hostsOf("sample-failing"), std::vector<pid_t>{host});
  EXPECT_EQ(counters("sample-failing").failures, before.failures);
}

// A host killed from outside between calls is noticed (counted, logged) and
// replaced at the next compilation, which then runs on it.
TEST_F(DriverIsolationTest, KilledHostIsReplacedAtTheNextCompilation) {
  environment_.set("ANNRT_SAMPLE_FAILING_MODE", "none");
  runFloor();  // a running host, whatever the last test left
  const std::vector<pid_t> hosts = hostsOf("sample-failing");
  ASSERT_EQ(hosts.size(), 1u);
  const HostCounters before = counters("sample-failing");
  kill(hosts[0], SIGKILL);
  awaitDeath(hosts[0]);
  ::testing::internal::CaptureStderr();
  runFloor();
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(occurrences(log, "devices sample-failing are unavailable until"), 1u) << log;
  const HostCounters after = counters("sample-failing");
  EXPECT_EQ(after.failures, before.failures + 1);
  EXPECT_EQ(after.restarts, before.restarts + 1);
  EXPECT_EQ(after.fallbacks, before.fallbacks);  // the new host ran it
  EXPECT_EQ(after.inferences, before.inferences + 1);
  EXPECT_EQ(zombies(), 0u);
}

// sample-float-fast computes with the reference kernels, in process as
// isolated: a real model split between it (CONV_2D, DEPTHWISE_CONV_2D, ADD)
// and the reference must give the reference's bytes.
TEST_F(DriverIsolationTest, IsolatedPluginMatchesTheReferenceOnARealModel) {
  const std::string path = annrt::test::modelPath("face_detection_short_range");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  auto imported = annrt::tflite::importFile(path);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  ANeuralNetworksModel* model = (*imported)->model();
  std::vector<float> input((*imported)->inputs()[0].byteSize() / sizeof(float));
  std::mt19937 random(7);
  std::uniform_real_distribution<float> values(-1.0f, 1.0f);
  for (float& v : input) v = values(random);

  auto run = [&](std::vector<const ANeuralNetworksDevice*> devices) {
    ANeuralNetworksCompilation* raw = nullptr;
    EXPECT_EQ(
        ANeuralNetworksCompilation_createForDevices(model, devices.data(), devices.size(), &raw),
        ANEURALNETWORKS_NO_ERROR);
    const annrt::test::Compilation compilation(raw);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(raw), ANEURALNETWORKS_NO_ERROR);
    const auto execution = annrt::test::newExecution(raw);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, input.data(),
                                                input.size() * sizeof(float)),
              ANEURALNETWORKS_NO_ERROR);
    std::vector<std::vector<uint8_t>> outputs;
    for (size_t i = 0; i < (*imported)->outputs().size(); ++i) {
      outputs.emplace_back((*imported)->outputs()[i].byteSize());
      EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution.get(), i, nullptr,
                                                   outputs.back().data(), outputs.back().size()),
                ANEURALNETWORKS_NO_ERROR);
    }
    EXPECT_EQ(ANeuralNetworksExecution_compute(execution.get()), ANEURALNETWORKS_NO_ERROR);
    return outputs;
  };
  const ANeuralNetworksDevice* reference = findDevice("nnapi-reference");
  const ANeuralNetworksDevice* fast = findDevice("sample-float-fast");
  ASSERT_NE(fast, nullptr);
  environment_.set("ANNRT_COST_MODEL", "0");  // keep the split the cost model might merge
  const HostCounters before = counters("sample-float-fast");
  const auto isolated = run({fast, reference});
  const HostCounters after = counters("sample-float-fast");
  EXPECT_EQ(isolated, run({reference}));
  EXPECT_GT(after.inferences, before.inferences);  // the host did run its partitions
  EXPECT_EQ(after.fallbacks, before.fallbacks);
  EXPECT_EQ(after.failures, before.failures);
  EXPECT_EQ(hostsOf("sample-float-fast").size(), 1u);
}

}  // namespace
