// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the host gives a second thread right now: two equal tasks (about 25 us
// of arithmetic each) run one after the other on one thread, and handed to a
// two-thread pthreadpool, the pool annrt-cpu's XNNPACK runtimes use. On an
// idle 2-core machine the pool takes a little over half the serial time; when
// the host time-slices the second vCPU with other guests it takes as long or
// longer, and so does every threaded model. bench/model_table.sh runs this
// beside its table so its 2-thread column can be read against it.
//
//   build/bench/annrt_thread_handoff_bench
#include <benchmark/benchmark.h>
#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace {

constexpr size_t kTasks = 2;
constexpr uint32_t kStepsPerTask = 20000;  // 4-cycle multiply-add chain: about 25 us

// A dependent chain the compiler cannot fold or vectorize away.
void task(void* context, size_t index) {
  uint64_t state = index + 1;
  for (uint32_t step = 0; step < kStepsPerTask; ++step) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
  }
  static_cast<uint64_t*>(context)[index * 8] = state;  // one cache line per task
}

void BM_Serial(benchmark::State& state) {
  uint64_t results[kTasks * 8] = {};
  for (auto _ : state) {
    for (size_t index = 0; index < kTasks; ++index) task(results, index);
    benchmark::DoNotOptimize(results);
  }
}
BENCHMARK(BM_Serial)->UseRealTime();

void BM_TwoThreadPool(benchmark::State& state) {
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(2),
                                                                    pthreadpool_destroy);
  if (pool == nullptr) {
    state.SkipWithError("pthreadpool_create failed");
    return;
  }
  uint64_t results[kTasks * 8] = {};
  for (auto _ : state) {
    pthreadpool_parallelize_1d(pool.get(), task, results, kTasks, 0);
    benchmark::DoNotOptimize(results);
  }
}
BENCHMARK(BM_TwoThreadPool)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
