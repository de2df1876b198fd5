// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the host gives a second thread right now, measured on a two-thread
// pthreadpool (the pool annrt-cpu's XNNPACK runtimes use):
// - BM_Serial / BM_TwoThreadPool: two equal tasks (about 23 us of arithmetic
//   each) one after the other, and handed to the pool. On a 2-core machine
//   the pool takes a little over half the serial time.
// - BM_SerialFma / BM_TwoThreadPoolFma: the same with tasks of vector
//   multiply-adds at the core's peak (bench/fma_peak.h), as annrt-cpu's
//   convolution kernels nearly are. Where the two vCPUs are two hardware
//   threads of one core they share its multiply-add units: the integer
//   chains above still take about half the serial time on the pool, these
//   take nearly all of it, and a kernel running near the core's peak gains
//   little from a second thread while one at a third of it (a slower
//   library's) gains nearly twice.
// - BM_HandOffAfterSerialWork: two 1 us tasks handed to the pool right after
//   the calling thread worked alone for 50 us, as after a stage that runs on
//   the calling thread. A few microseconds when the worker's core is there;
//   on a VM whose host has taken the second vCPU away meanwhile, the pool's
//   barrier waits until the host gives it back (hundreds of microseconds to
//   milliseconds), and every threaded model slows down with it.
// - BM_CacheLineRoundTrip: one cache line passed to another thread and back.
//   Each node XNNPACK splits over the pool hands out its tiles through shared
//   counters, so this latency is paid many times per node; it is high when
//   the host runs the two vCPUs on distant cores.
// - BM_SerialSweep / BM_PoolSweepOfDataTheCallerWrote: the calling thread
//   writes 256 KB (an activation of a small model), then the data is summed
//   by the calling thread alone, or by the pool, half by each thread, as the
//   node after a serial one reads its input. The pool's time over half the
//   serial time is what moving that half to the other core's cache costs:
//   small when the vCPUs share a cache, large when they sit on distant cores.
// bench/model_table.sh runs this beside its table so its 2-thread column can
// be read against it.
//
//   build/bench/annrt_thread_handoff_bench
#include <benchmark/benchmark.h>
#include <pthreadpool.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "fma_peak.h"

namespace {

constexpr size_t kTasks = 2;
constexpr uint32_t kStepsPerTask = 20000;  // 4-cycle multiply-add chain: about 25 us

// One task's result per cache line, so that the tasks share none.
struct alignas(64) TaskResult {
  uint64_t value = 0;
};

// A dependent chain the compiler cannot fold or vectorize away.
void task(void* context, size_t index) {
  uint64_t state = index + 1;
  for (uint32_t step = 0; step < kStepsPerTask; ++step) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
  }
  static_cast<TaskResult*>(context)[index].value = state;
}

// About 25 us at the peak: 12 chains of 16 floats (8 on AVX2) a round.
constexpr long kFmaRoundsPerTask = 12000;

void fmaTask(void* context, size_t index) {
  static_cast<TaskResult*>(context)[index].value =
      std::bit_cast<uint32_t>(annrt::bench::runFmaChains(kFmaRoundsPerTask));
}

using Task = void (*)(void*, size_t);
using Pool = std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)>;

Pool twoThreadPool(benchmark::State& state) {
  Pool pool(pthreadpool_create(2), pthreadpool_destroy);
  if (pool == nullptr) state.SkipWithError("pthreadpool_create failed");
  return pool;
}

// The kTasks tasks one after the other on the calling thread.
void timeSerially(benchmark::State& state, Task work) {
  TaskResult results[kTasks];
  for (auto _ : state) {
    for (size_t index = 0; index < kTasks; ++index) work(results, index);
    benchmark::DoNotOptimize(results);
  }
}

// The kTasks tasks handed to a 2-thread pool.
void timeOnPool(benchmark::State& state, Task work) {
  const Pool pool = twoThreadPool(state);
  if (pool == nullptr) return;
  TaskResult results[kTasks];
  for (auto _ : state) {
    pthreadpool_parallelize_1d(pool.get(), work, results, kTasks, 0);
    benchmark::DoNotOptimize(results);
  }
}

void BM_Serial(benchmark::State& state) {
  timeSerially(state, task);
}
BENCHMARK(BM_Serial)->UseRealTime();

void BM_TwoThreadPool(benchmark::State& state) {
  timeOnPool(state, task);
}
BENCHMARK(BM_TwoThreadPool)->UseRealTime();

void BM_SerialFma(benchmark::State& state) {
  timeSerially(state, fmaTask);
}
BENCHMARK(BM_SerialFma)->UseRealTime();

void BM_TwoThreadPoolFma(benchmark::State& state) {
  timeOnPool(state, fmaTask);
}
BENCHMARK(BM_TwoThreadPoolFma)->UseRealTime();

void spin(uint32_t steps) {
  uint64_t state = steps;
  for (uint32_t step = 0; step < steps; ++step) state = state * 6364136223846793005ull + 1;
  benchmark::DoNotOptimize(state);
}

void shortTask(void* /*context*/, size_t /*index*/) {
  spin(kStepsPerTask / 25);
}

void BM_HandOffAfterSerialWork(benchmark::State& state) {
  const Pool pool = twoThreadPool(state);
  if (pool == nullptr) return;
  for (auto _ : state) {
    spin(kStepsPerTask * 2);  // about 50 us alone
    const auto start = std::chrono::steady_clock::now();
    pthreadpool_parallelize_1d(pool.get(), shortTask, nullptr, kTasks, 0);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}
BENCHMARK(BM_HandOffAfterSerialWork)->UseManualTime();

void BM_CacheLineRoundTrip(benchmark::State& state) {
  alignas(64) std::atomic<int> ball{0};
  std::atomic<bool> done{false};
  std::thread partner([&] {
    while (!done.load(std::memory_order_relaxed)) {
      if (ball.load(std::memory_order_acquire) == 1) ball.store(0, std::memory_order_release);
    }
  });
  for (auto _ : state) {
    ball.store(1, std::memory_order_release);
    while (ball.load(std::memory_order_acquire) != 0) {
    }
  }
  done.store(true, std::memory_order_relaxed);
  partner.join();
}
BENCHMARK(BM_CacheLineRoundTrip)->UseRealTime();

constexpr size_t kSweepWords = size_t{256} * 1024 / sizeof(uint32_t);
constexpr size_t kSweepChunks = 64;  // as XNNPACK's tiles: many per thread

struct Sweep {
  // Integers, so the sums vectorize and the sweep is bound by memory.
  std::vector<uint32_t> data = std::vector<uint32_t>(kSweepWords);
  uint32_t sums[kSweepChunks * 16] = {};  // one cache line per chunk

  void write(uint32_t value) {
    for (uint32_t& x : data) x = value;
  }
  static void sumChunk(void* context, size_t chunk) {
    auto* sweep = static_cast<Sweep*>(context);
    const size_t size = kSweepWords / kSweepChunks;
    uint32_t sum = 0;
    for (size_t i = chunk * size; i < (chunk + 1) * size; ++i) sum += sweep->data[i];
    sweep->sums[chunk * 16] = sum;
  }
};

void BM_SerialSweep(benchmark::State& state) {
  Sweep sweep;
  uint32_t value = 0;
  for (auto _ : state) {
    sweep.write(++value);
    const auto start = std::chrono::steady_clock::now();
    for (size_t chunk = 0; chunk < kSweepChunks; ++chunk) Sweep::sumChunk(&sweep, chunk);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    benchmark::DoNotOptimize(sweep.sums);
  }
}
BENCHMARK(BM_SerialSweep)->UseManualTime();

void BM_PoolSweepOfDataTheCallerWrote(benchmark::State& state) {
  const Pool pool = twoThreadPool(state);
  if (pool == nullptr) return;
  Sweep sweep;
  uint32_t value = 0;
  for (auto _ : state) {
    sweep.write(++value);
    const auto start = std::chrono::steady_clock::now();
    pthreadpool_parallelize_1d(pool.get(), Sweep::sumChunk, &sweep, kSweepChunks, 0);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    benchmark::DoNotOptimize(sweep.sums);
  }
}
BENCHMARK(BM_PoolSweepOfDataTheCallerWrote)->UseManualTime();

}  // namespace

BENCHMARK_MAIN();
