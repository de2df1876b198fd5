// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Giving freed heap back (drivers/cpu/heap_release.h): only to glibc's own
// malloc, never where another allocator interposes it.
#include "drivers/cpu/heap_release.h"

#include <gtest/gtest.h>

#include "common/sanitizers.h"

namespace annrt::cpu {
namespace {

// ASan and TSan bring their own malloc; the plain builds use glibc's. Where
// glibc's heap is not the one in use, giving it back set glibc's heap up
// without a lock, and two threads doing it first at once made the exit of
// the second abort (SpecializationTest.ConcurrentExecutionsPastTheBound
// under ASan, in about 1 run of 8 with the warm start trimming).
TEST(HeapReleaseTest, KnowsWhichMallocThisProcessUses) {
#if defined(__GLIBC__)
  EXPECT_EQ(glibcMallocInUse(), !kAddressSpaceSanitized);
#else
  EXPECT_FALSE(glibcMallocInUse());
#endif
}

}  // namespace
}  // namespace annrt::cpu
