// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace annrt::cpu {

// Whether the process allocates with glibc's own malloc: false where another
// allocator interposes it (ASan, jemalloc or tcmalloc preloaded) or where
// the C library is not glibc.
bool glibcMallocInUse();

// Gives the heap's free pages back to the system, where glibc's malloc is
// the allocator. Compiling converts float16 weights and packs them, and
// planning builds kernels only to ask them whether they are preferred: those
// buffers are freed, but glibc keeps freed heap (after a large block is freed
// its mmap threshold rises, so the next ones of that size come from the
// heap), which stayed in the process's footprint.
void releaseFreedHeap();

}  // namespace annrt::cpu
