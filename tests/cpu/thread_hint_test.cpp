// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The compilation attribute ANNRT_COMPILATION_NUM_THREADS reaches annrt-cpu's
// thread pool and outranks ANNRT_NUM_THREADS. Pools are shared per thread
// count for the life of the process, so this binary runs alone: the threads it
// counts are the ones its own compilations started.
#include <dirent.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "expect_close.h"
#include "test_graph.h"

namespace annrt::test {
namespace {

// Threads of this process, from /proc/self/task.
size_t processThreads() {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return 0;
  size_t count = 0;
  while (const dirent* entry = readdir(tasks)) count += entry->d_name[0] != '.';
  closedir(tasks);
  return count;
}

constexpr size_t kElements = size_t{32} * 32 * 16;  // of the input and output

// Two convolutions, heavy enough that a staged plan threads them.
void buildConvolutions(TestGraph& g) {
  const uint32_t in = g.tensor({1, 32, 32, 16});
  const uint32_t mid = g.conv3x3(in, 16, {1, 32, 32, 16}, ANEURALNETWORKS_FUSED_RELU, 31);
  g.finish({in}, {g.conv3x3(mid, 16, {1, 32, 32, 16}, ANEURALNETWORKS_FUSED_RELU, 33)});
}

TEST(CpuThreadHintTest, HintSizesThePoolOverTheEnvironment) {
  setenv("ANNRT_NUM_THREADS", "2", 1);
  TestGraph g;
  buildConvolutions(g);
  const std::vector<std::vector<float>> inputs = {randomValues(kElements, 35)};
  const auto expected = g.run(kReference, inputs, {kElements});
  ASSERT_EQ(expected.size(), 1u);

  // TSan's runtime starts a thread of its own beside the program's first one:
  // make that happen before counting.
  std::thread([] {}).join();
  // Each hint below overrides the environment's 2 threads.
  const size_t before = processThreads();
  ASSERT_GT(before, 0u);
  g.setThreadHint(1);
  ASSERT_NO_FATAL_FAILURE(expectClose(g.run(kCpu, inputs, {kElements}), expected));
  EXPECT_EQ(processThreads(), before) << "a hint of 1 thread started a pool";

  g.setThreadHint(3);
  ASSERT_NO_FATAL_FAILURE(expectClose(g.run(kCpu, inputs, {kElements}), expected));
  EXPECT_EQ(processThreads(), before + 2) << "3 threads: the caller and 2 workers";

  // A second compilation with the same hint shares that pool.
  ASSERT_NO_FATAL_FAILURE(expectClose(g.run(kCpu, inputs, {kElements}), expected));
  EXPECT_EQ(processThreads(), before + 2);

  // No hint: ANNRT_NUM_THREADS=2, one more worker.
  g.setThreadHint(0);
  ASSERT_NO_FATAL_FAILURE(expectClose(g.run(kCpu, inputs, {kElements}), expected));
  EXPECT_EQ(processThreads(), before + 3);
}

}  // namespace
}  // namespace annrt::test
