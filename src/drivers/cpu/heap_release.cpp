// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/heap_release.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <dlfcn.h>
#include <malloc.h>
#endif

namespace annrt::cpu {

#if defined(__GLIBC__)

namespace {

bool glibcMallocIsTheDefault() {
  void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  if (libc == nullptr) return false;
  const bool same = dlsym(libc, "malloc") == dlsym(RTLD_DEFAULT, "malloc");
  dlclose(libc);
  return same;
}

}  // namespace

bool glibcMallocInUse() {
  static const bool inUse = glibcMallocIsTheDefault();
  return inUse;
}

// Where another allocator interposes malloc, glibc's heap was never set up,
// and malloc_trim sets it up without locking: two threads trimming at once
// for the first time both attach to its main arena, and the second of them
// to exit fails glibc's assertion "a->attached_threads > 0" (an abort).
void releaseFreedHeap() {
  if (glibcMallocInUse()) malloc_trim(0);
}

#else

bool glibcMallocInUse() {
  return false;
}

void releaseFreedHeap() {}

#endif

}  // namespace annrt::cpu
