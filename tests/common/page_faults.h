// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/resource.h>

namespace annrt::test {

// Minor page faults this process has taken so far: a page touched for the
// first time is one.
inline long minorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

}  // namespace annrt::test
