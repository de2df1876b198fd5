// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_load.h"

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

uint64_t busyTicks(const CpuTicks& t) {
  return t.user + t.nice + t.system + t.irq + t.softirq + t.steal;
}

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// The first line of a /proc file (both read here have short ones).
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

PoolAdvice CpuLoad::advise(uint32_t threads) {
  if (threads <= 1) return {};
  std::lock_guard lock(mutex_);
  refresh();
  PoolAdvice advice{.othersBusy = othersBusy_};
  if (!measured_) {
    // Else the first runs would all go to the pool, which under load costs
    // them several times their time. The runnable count is noisier: this
    // process's pool threads may be among the tasks, spinning.
    const std::optional<std::string> line = readFirstLine("/proc/loadavg");
    const std::optional<uint32_t> runnable = line ? parseRunnableTasks(*line) : std::nullopt;
    if (!runnable) return advice;
    advice.othersBusy = *runnable > threads ? static_cast<double>(*runnable - threads) : 0.0;
    advice.fromRunnableTasks = true;
  }
  advice.usePool =
      static_cast<double>(cores_) - advice.othersBusy >= static_cast<double>(threads) - 0.5;
  return advice;
}

double CpuLoad::othersBusy() {
  std::lock_guard lock(mutex_);
  refresh();
  return othersBusy_;
}

}  // namespace annrt::cpu
