// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_load.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <ctime>
#include <string>

#include "drivers/cpu/kernel_file.h"

namespace annrt::cpu {
namespace {

constexpr auto kWindow = std::chrono::milliseconds(100);
constexpr auto kEarlyReuse = std::chrono::milliseconds(10);

uint64_t busyTicks(const CpuTicks& t) {
  return t.user + t.nice + t.system + t.irq + t.softirq + t.steal;
}

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Whether `threads` threads find a core each, at most half a core short.
bool coresSuffice(double othersBusy, uint32_t threads, uint32_t cores) {
  return static_cast<double>(cores) - othersBusy >= static_cast<double>(threads) - 0.5;
}

}  // namespace

std::optional<uint32_t> parseRunnableTasks(std::string_view loadavg) {
  // "0.52 0.58 0.59 3/421 12345": the fourth field's numerator.
  size_t field = 0;
  for (int skip = 0; skip < 3; ++skip) {
    field = loadavg.find(' ', field);
    if (field == std::string_view::npos) return std::nullopt;
    ++field;
  }
  uint32_t runnable = 0;
  const char* end = loadavg.data() + loadavg.size();
  const auto [next, error] = std::from_chars(loadavg.data() + field, end, runnable);
  if (error != std::errc() || next == end || *next != '/') return std::nullopt;
  return runnable;
}

std::optional<CpuTicks> parseProcStat(std::string_view text) {
  if (text.substr(0, 4) != "cpu ") return std::nullopt;
  std::array<uint64_t, 8> fields{};
  const char* p = text.data() + 4;
  const char* end = text.data() + std::min(text.size(), text.find('\n'));
  for (uint64_t& field : fields) {
    while (p < end && *p == ' ') ++p;
    const auto [next, error] = std::from_chars(p, end, field);
    if (error != std::errc()) return std::nullopt;
    p = next;
  }
  return CpuTicks{fields[0], fields[1], fields[2], fields[3],
                  fields[4], fields[5], fields[6], fields[7]};
}

double othersBusyCores(const CpuTicks& before, const CpuTicks& after, double ticksPerSecond,
                       double ownCpuSeconds, double wallSeconds) {
  if (wallSeconds <= 0 || ticksPerSecond <= 0) return 0;
  const uint64_t was = busyTicks(before);
  const uint64_t is = busyTicks(after);
  const double busySeconds = is >= was ? static_cast<double>(is - was) / ticksPerSecond : 0;
  return std::max(0.0, busySeconds - ownCpuSeconds) / wallSeconds;
}

std::optional<CpuLoad::Sample> CpuLoad::sample() {
  const std::optional<std::string> line = readFirstLine("/proc/stat");
  if (!line) return std::nullopt;
  const std::optional<CpuTicks> ticks = parseProcStat(*line);
  if (!ticks) return std::nullopt;
  return Sample{std::chrono::steady_clock::now(), *ticks, processCpuSeconds()};
}

void CpuLoad::refresh() {
  const auto now = std::chrono::steady_clock::now();
  if (last_ && now - last_->wall < kWindow) return;
  const std::optional<Sample> next = sample();
  if (!next) return;
  if (last_) {
    const double wall = std::chrono::duration<double>(next->wall - last_->wall).count();
    othersBusy_ =
        othersBusyCores(last_->ticks, next->ticks, static_cast<double>(sysconf(_SC_CLK_TCK)),
                        next->ownCpuSeconds - last_->ownCpuSeconds, wall);
    measured_ = true;
  }
  last_ = next;
}

std::optional<char> parseTaskState(std::string_view stat) {
  // "1234 (a name) R 1 ...": the name may hold spaces and parentheses.
  const size_t close = stat.rfind(')');
  if (close == std::string_view::npos || close + 2 >= stat.size() || stat[close + 1] != ' ') {
    return std::nullopt;
  }
  return stat[close + 2];
}

uint32_t ownRunnableThreads() {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return 1;
  uint32_t runnable = 0;
  while (const dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + entry->d_name + "/stat";
    const std::optional<std::string> line = readFirstLine(path.c_str());
    if (line && parseTaskState(*line) == 'R') ++runnable;
  }
  closedir(tasks);
  return std::max(runnable, 1u);
}

PoolAdvice adviseFromRunnableTasks(uint32_t runnable, uint32_t ownRunnable, uint32_t threads,
                                   uint32_t cores) {
  const double others = runnable > ownRunnable ? static_cast<double>(runnable - ownRunnable) : 0.0;
  return {.usePool = coresSuffice(others, threads, cores),
          .othersBusy = others,
          .fromRunnableTasks = true};
}

PoolAdvice CpuLoad::advise(uint32_t threads) {
  if (threads <= 1) return {};
  std::lock_guard lock(mutex_);
  refresh();
  if (!measured_) return earlyAdvice(threads);
  return {.usePool = coresSuffice(othersBusy_, threads, cores_), .othersBusy = othersBusy_};
}

std::optional<uint32_t> CpuLoad::runnableTasks() {
  const std::optional<std::string> line = readFirstLine("/proc/loadavg");
  return line ? parseRunnableTasks(*line) : std::nullopt;
}

PoolAdvice CpuLoad::earlyAdvice(uint32_t threads) {
  // Without an estimate the first runs would all go to the pool, which under
  // load costs them several times their time. The system's runnable tasks
  // are counted before and after this process's, and the lower count kept:
  // kernel threads runnable for a few microseconds (seen on a quiet host:
  // 3 and 4 where this process had 2) are not a busy process. A lone
  // runnable task is the caller. The counts cost some 60 us, a tenth of a
  // small model's run, so an estimate serves the runs of the next 10 ms.
  const auto now = std::chrono::steady_clock::now();
  if (early_ && early_->threads == threads && now - early_->at < kEarlyReuse) {
    return early_->advice;
  }
  const std::optional<uint32_t> before = runnableTasks();
  if (!before) return {};
  uint32_t runnable = *before;
  uint32_t own = 1;
  if (runnable > 1) {
    own = ownRunnableThreads();
    runnable = std::min(runnable, runnableTasks().value_or(runnable));
  }
  const PoolAdvice advice = adviseFromRunnableTasks(runnable, own, threads, cores_);
  early_ = EarlyEstimate{now, threads, advice};
  return advice;
}

double CpuLoad::othersBusy() {
  std::lock_guard lock(mutex_);
  refresh();
  return othersBusy_;
}

}  // namespace annrt::cpu
