// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "pool.h"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

namespace annrt::cts {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// ---- Messages (one line each) ----
// worker -> parent: "H <hello json>", "C" (compute starts), "c" (compute ended),
//                   "R <result json>"
// parent -> worker: "J <job index>", "Q" (quit)

std::string dumpJson(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json resultToJson(const CaseResult& result) {
  json j = {{"status", static_cast<int>(result.status)},
            {"stage", result.stage},
            {"code", result.code},
            {"message", result.message},
            {"cache_entries", result.cacheEntries}};
  if (result.mismatch) {
    const Mismatch& m = *result.mismatch;
    j["mismatch"] = {{"output", m.output},
                     {"element", m.element},
                     {"expected", m.expected},
                     {"actual", m.actual},
                     {"tolerance", m.tolerance}};
  }
  return j;
}

// NaN and infinities do not survive JSON; they come back as null.
double numberOrNan(const json& j) {
  return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

CaseResult resultFromJson(const json& j) {
  CaseResult result;
  result.status = static_cast<Status>(j.at("status").get<int>());
  result.stage = j.at("stage").get<std::string>();
  result.code = j.at("code").get<int>();
  result.message = j.at("message").get<std::string>();
  result.cacheEntries = j.value("cache_entries", 0u);
  if (j.contains("mismatch")) {
    const json& m = j["mismatch"];
    result.mismatch = Mismatch{m.at("output").get<uint32_t>(), m.at("element").get<size_t>(),
                               numberOrNan(m.at("expected")), numberOrNan(m.at("actual")),
                               numberOrNan(m.at("tolerance"))};
  }
  return result;
}

json helloToJson(const WorkerHello& hello) {
  return {{"ok", hello.ok},
          {"error", hello.error},
          {"runtimeFeatureLevel", hello.runtimeFeatureLevel},
          {"devices", hello.devices}};
}

WorkerHello helloFromJson(const json& j) {
  WorkerHello hello;
  hello.ok = j.at("ok").get<bool>();
  hello.error = j.at("error").get<std::string>();
  hello.runtimeFeatureLevel = j.at("runtimeFeatureLevel").get<int64_t>();
  hello.devices = j.at("devices").get<std::vector<std::string>>();
  return hello;
}

bool writeAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Pops one complete line from `buffer` into `line`.
bool popLine(std::string* buffer, std::string* line) {
  const size_t end = buffer->find('\n');
  if (end == std::string::npos) return false;
  *line = buffer->substr(0, end);
  buffer->erase(0, end + 1);
  return true;
}

CaseResult failedResult(const char* stage, std::string message) {
  return CaseResult{Status::kFailed, stage, 0, std::move(message), std::nullopt};
}

// ---- Worker side ----

[[noreturn]] void workerMain(int commandFd, int resultFd, const WorkerCallbacks& callbacks) {
  const WorkerHello hello = callbacks.setUp();
  writeAll(resultFd, "H " + dumpJson(helloToJson(hello)) + "\n");
  if (!hello.ok) _exit(0);
  auto onCompute = [resultFd](bool computing) { writeAll(resultFd, computing ? "C\n" : "c\n"); };
  std::string buffer;
  std::string line;
  char chunk[256];
  for (;;) {
    while (popLine(&buffer, &line)) {
      if (line.rfind("J ", 0) != 0) _exit(0);
      const size_t index = std::stoull(line.substr(2));
      CaseResult result;
      try {
        result = callbacks.runJob(index, onCompute);
      } catch (const std::exception& e) {
        result = failedResult("exception", e.what());
      }
      writeAll(resultFd, "R " + dumpJson(resultToJson(result)) + "\n");
    }
    const ssize_t n = read(commandFd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(0);
    buffer.append(chunk, static_cast<size_t>(n));
  }
}

// ---- Parent side ----

struct Worker {
  pid_t pid = -1;
  int commandFd = -1;
  int resultFd = -1;
  std::string buffer;
  bool helloSeen = false;
  std::optional<size_t> job;
  bool computing = false;
  Clock::time_point lastEvent;
};

std::string describeExit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("signal {} ({})", sig, strsignal(sig));
  }
  if (WIFEXITED(status)) return fmt::format("exit code {}", WEXITSTATUS(status));
  return "unknown status";
}

// Reaps `pid`, killing it if it does not exit within a second.
int reap(pid_t pid) {
  int status = 0;
  for (int i = 0; i < 1000; ++i) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

class Pool {
 public:
  Pool(size_t count, const WorkerCallbacks& callbacks, const PoolOptions& options,
       WorkerHello* hello, std::vector<CaseResult>* results)
      : count_(count),
        callbacks_(callbacks),
        options_(options),
        hello_(hello),
        results_(results),
        workers_(std::max<size_t>(1, std::min<size_t>(options.workers, count))) {}

  bool run() {
    results_->assign(count_, failedResult("not-run", "the run stopped before this case"));
    if (count_ == 0) return true;
    for (Worker& worker : workers_) {
      if (!spawn(&worker)) return false;
    }
    while (done_ < count_ && !fatal_) {
      pollOnce();
      enforceDeadlines();
    }
    shutDown();
    return !fatal_;
  }

 private:
  bool spawn(Worker* worker) {
    int command[2];
    int result[2];
    if (pipe(command) != 0 || pipe(result) != 0) {
      return setFatal(fmt::format("pipe: {}", strerror(errno)));
    }
    const pid_t pid = fork();
    if (pid < 0) return setFatal(fmt::format("fork: {}", strerror(errno)));
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      signal(SIGPIPE, SIG_DFL);
      for (const Worker& other : workers_) {
        if (other.commandFd >= 0) close(other.commandFd);
        if (other.resultFd >= 0) close(other.resultFd);
      }
      close(command[1]);
      close(result[0]);
      workerMain(command[0], result[1], callbacks_);
    }
    close(command[0]);
    close(result[1]);
    *worker = Worker{};
    worker->pid = pid;
    worker->commandFd = command[1];
    worker->resultFd = result[0];
    worker->lastEvent = Clock::now();
    return true;
  }

  bool setFatal(std::string message) {
    fatal_ = true;
    hello_->ok = false;
    hello_->error = std::move(message);
    return false;
  }

  Clock::time_point deadline(const Worker& worker) const {
    const auto limit = worker.computing ? options_.computeTimeout : options_.stepTimeout;
    return worker.lastEvent + limit;
  }

  void pollOnce() {
    std::vector<pollfd> fds;
    std::vector<Worker*> owners;
    auto timeout = std::chrono::milliseconds(1000);
    const auto now = Clock::now();
    for (Worker& worker : workers_) {
      if (worker.resultFd < 0) continue;
      fds.push_back({worker.resultFd, POLLIN, 0});
      owners.push_back(&worker);
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline(worker) - now);
      timeout =
          std::clamp(left + std::chrono::milliseconds(1), std::chrono::milliseconds(0), timeout);
    }
    if (fds.empty()) {
      setFatal("no worker left");
      return;
    }
    const int ready = poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
    if (ready <= 0) return;
    for (size_t i = 0; i < fds.size() && !fatal_; ++i) {
      if (fds[i].revents != 0) readFrom(owners[i]);
    }
  }

  void readFrom(Worker* worker) {
    char chunk[65536];
    const ssize_t n = read(worker->resultFd, chunk, sizeof(chunk));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
      const int status = reap(worker->pid);
      worker->pid = -1;
      retire(worker, "crash", fmt::format("worker process died: {}", describeExit(status)));
      return;
    }
    worker->buffer.append(chunk, static_cast<size_t>(n));
    std::string line;
    while (!fatal_ && worker->resultFd >= 0 && popLine(&worker->buffer, &line)) {
      handleLine(worker, line);
    }
  }

  void handleLine(Worker* worker, const std::string& line) {
    worker->lastEvent = Clock::now();
    if (line == "C" || line == "c") {
      worker->computing = line == "C";
    } else if (line.rfind("H ", 0) == 0) {
      const WorkerHello hello = helloFromJson(json::parse(line.substr(2)));
      if (!hello.ok) {
        *hello_ = hello;
        fatal_ = true;
        return;
      }
      if (!helloReceived_) *hello_ = hello;
      helloReceived_ = true;
      worker->helloSeen = true;
      assign(worker);
    } else if (line.rfind("R ", 0) == 0 && worker->job) {
      complete(*worker->job, resultFromJson(json::parse(line.substr(2))));
      worker->job.reset();
      assign(worker);
    }
  }

  void complete(size_t index, const CaseResult& result) {
    (*results_)[index] = result;
    ++done_;
    if (options_.onResult) options_.onResult(index, result);
  }

  void assign(Worker* worker) {
    worker->computing = false;
    worker->lastEvent = Clock::now();
    if (next_ >= count_) {
      writeAll(worker->commandFd, "Q\n");
      return;
    }
    worker->job = next_++;
    writeAll(worker->commandFd, fmt::format("J {}\n", *worker->job));
  }

  // The worker is gone (died or was killed): fail its job and replace it.
  void retire(Worker* worker, const char* stage, const std::string& message) {
    close(worker->commandFd);
    close(worker->resultFd);
    const bool wasReady = worker->helloSeen;
    const std::optional<size_t> job = worker->job;
    *worker = Worker{};
    if (!wasReady) {
      setFatal("a worker failed while setting up the runtime: " + message);
      return;
    }
    if (job) complete(*job, failedResult(stage, message));
    if (next_ < count_) spawn(worker);
  }

  void enforceDeadlines() {
    const auto now = Clock::now();
    for (Worker& worker : workers_) {
      if (worker.resultFd < 0 || now < deadline(worker)) continue;
      const bool computing = worker.computing;
      kill(worker.pid, SIGKILL);
      reap(worker.pid);
      worker.pid = -1;
      const std::string message =
          computing ? fmt::format("compute did not finish within {} ms; worker killed",
                                  options_.computeTimeout.count())
                    : fmt::format("no progress for {} ms outside compute; worker killed",
                                  options_.stepTimeout.count());
      retire(&worker, "timeout", message);
    }
  }

  void shutDown() {
    for (Worker& worker : workers_) {
      if (worker.pid < 0) continue;
      if (fatal_) kill(worker.pid, SIGKILL);
      close(worker.commandFd);
      close(worker.resultFd);
      reap(worker.pid);
      worker = Worker{};
    }
  }

  const size_t count_;
  const WorkerCallbacks& callbacks_;
  const PoolOptions& options_;
  WorkerHello* hello_;
  std::vector<CaseResult>* results_;
  std::vector<Worker> workers_;
  size_t next_ = 0;
  size_t done_ = 0;
  bool fatal_ = false;
  bool helloReceived_ = false;
};

}  // namespace

bool runInWorkers(size_t count, const WorkerCallbacks& callbacks, const PoolOptions& options,
                  WorkerHello* hello, std::vector<CaseResult>* results) {
  signal(SIGPIPE, SIG_IGN);
  Pool pool(count, callbacks, options, hello, results);
  return pool.run();
}

bool runInProcess(size_t count, const WorkerCallbacks& callbacks, const PoolOptions& options,
                  WorkerHello* hello, std::vector<CaseResult>* results) {
  *hello = callbacks.setUp();
  if (!hello->ok) return false;
  results->clear();
  for (size_t i = 0; i < count; ++i) {
    try {
      results->push_back(callbacks.runJob(i, nullptr));
    } catch (const std::exception& e) {
      results->push_back(failedResult("exception", e.what()));
    }
    if (options.onResult) options.onResult(i, results->back());
  }
  return true;
}

}  // namespace annrt::cts
