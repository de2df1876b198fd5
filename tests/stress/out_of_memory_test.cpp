// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Out of memory: out_of_memory_child caps its address space and finishes a
// model whose constant needs more, or compiles and runs one whose temporary
// does, on each device (docs/reliability.md). The NNAPI
// call that meets the cap must return ANEURALNETWORKS_OUT_OF_MEMORY with an
// error line naming it, and the process must go on: no crash, no abort, and a
// small model still runs correctly afterwards.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <string>

#include "common/sanitizers.h"

namespace {

struct ChildResult {
  int status = -1;
  std::string output;  // stdout and stderr
};

ChildResult runChild(const std::string& device) {
  int pipes[2];
  EXPECT_EQ(pipe(pipes), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipes[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipes[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipes[0]);
  std::string program = ANNRT_OOM_CHILD;
  char* argv[] = {program.data(), const_cast<char*>(device.c_str()), nullptr};
  pid_t pid = -1;
  ChildResult result;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipes[1]);
  EXPECT_EQ(spawned, 0) << program;
  std::array<char, 4096> buffer;
  ssize_t got = 0;
  while ((got = read(pipes[0], buffer.data(), buffer.size())) > 0)
    result.output.append(buffer.data(), got);
  close(pipes[0]);
  if (spawned == 0) {
    EXPECT_EQ(waitpid(pid, &result.status, 0), pid);
  }
  return result;
}

class OutOfMemoryTest : public ::testing::TestWithParam<const char*> {};

TEST_P(OutOfMemoryTest, TooLargeAModelGivesOutOfMemoryAndTheProcessGoesOn) {
  if (annrt::kAddressSpaceSanitized) {
    // ASan and TSan reserve terabytes of shadow address space at start-up, so
    // no RLIMIT_AS cap leaves them room to run.
    GTEST_SKIP() << "RLIMIT_AS cannot cap a sanitized process";
  }
  const ChildResult child = runChild(GetParam());
  ASSERT_TRUE(WIFEXITED(child.status)) << "the child crashed:\n" << child.output;
  EXPECT_EQ(WEXITSTATUS(child.status), 0) << child.output;
  EXPECT_NE(child.output.find(": OUT_OF_MEMORY"), std::string::npos) << child.output;
  EXPECT_NE(child.output.find(" E annrt: ANeuralNetworks"), std::string::npos) << child.output;
  EXPECT_NE(child.output.find("afterwards: NO_ERROR"), std::string::npos) << child.output;
  EXPECT_NE(child.output.find("afterwards correct: yes"), std::string::npos) << child.output;
}

INSTANTIATE_TEST_SUITE_P(Devices, OutOfMemoryTest,
                         ::testing::Values("nnapi-reference", "annrt-cpu", "default", "constant",
                                           "scratch"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
