// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The arena's own pages (drivers/cpu/arena_memory.h): zeroed, page-aligned,
// writable while a thread maps them ahead, and mapped by it so that the
// first writes fault no more.
#include "drivers/cpu/arena_memory.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "common/page_faults.h"

namespace annrt::cpu {
namespace {

using test::minorFaults;

// Whether populatePages maps pages here: tried on 64 pages, whose
// writes must then not fault (qemu-user accepts the call and does nothing).
bool kernelPopulates() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t bytes = 64 * page;
  auto* probe = static_cast<uint8_t*>(
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  bool populates = populatePages(probe, bytes);
  if (populates) {
    const long before = minorFaults();
    for (size_t at = 0; at < bytes; at += page) probe[at] = 1;
    populates = minorFaults() - before < 8;
  }
  munmap(probe, bytes);
  return populates;
}

TEST(ArenaMemoryTest, IsZeroedAndPageAligned) {
  auto arena = ArenaMemory::allocate(100'003);
  ASSERT_TRUE(arena.ok()) << arena.error().message;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(arena->data()) % sysconf(_SC_PAGESIZE), 0u);
  EXPECT_EQ(arena->size(), 100'003u);
  for (size_t i = 0; i < arena->size(); i += 997) ASSERT_EQ(arena->data()[i], 0) << i;
  auto empty = ArenaMemory::allocate(0);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->data(), nullptr);
  empty->populateAhead();  // nothing to map
}

TEST(ArenaMemoryTest, KeepsWhatIsWrittenWhileItsPagesAreMapped) {
  constexpr size_t kBytes = size_t{24} << 20;
  auto arena = ArenaMemory::allocate(kBytes);
  ASSERT_TRUE(arena.ok()) << arena.error().message;
  arena->populateAhead();
  // Written from both ends while the thread maps its way through.
  for (size_t i = 0; i < kBytes / 2; i += 4096) {
    arena->data()[i] = static_cast<uint8_t>(i / 4096 + 1);
    arena->data()[kBytes - 1 - i] = static_cast<uint8_t>(i / 4096 + 7);
  }
  arena->waitPopulated();
  for (size_t i = 0; i < kBytes / 2; i += 4096) {
    ASSERT_EQ(arena->data()[i], static_cast<uint8_t>(i / 4096 + 1)) << i;
    ASSERT_EQ(arena->data()[kBytes - 1 - i], static_cast<uint8_t>(i / 4096 + 7)) << i;
  }
}

// Against an arena of the same size that was not mapped ahead: instrumented
// builds (ASan's shadow memory) fault on pages of their own either way.
// 1 MB: small pages (an arena on huge pages faults once per 2 MB either way).
TEST(ArenaMemoryTest, MappedAheadItsFirstWritesDoNotFault) {
  if (!kernelPopulates()) GTEST_SKIP() << "MADV_POPULATE_WRITE maps nothing here";
  constexpr size_t kBytes = size_t{1} << 20;
  auto mapped = ArenaMemory::allocate(kBytes);
  auto cold = ArenaMemory::allocate(kBytes);
  ASSERT_TRUE(mapped.ok() && cold.ok());
  mapped->populateAhead();
  mapped->waitPopulated();
  long before = minorFaults();
  std::memset(mapped->data(), 1, kBytes);
  const long mappedFaults = minorFaults() - before;
  before = minorFaults();
  std::memset(cold->data(), 1, kBytes);
  const long coldFaults = minorFaults() - before;
  const long pages = static_cast<long>(kBytes / static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_GE(coldFaults, pages / 8) << "a page fault per page, or per few";
  EXPECT_LT(mappedFaults, coldFaults / 2);
}

// The VmFlags of the mapping holding `address` (/proc/self/smaps), or ""
// where none is listed (qemu-user lists the emulator's own mappings).
std::string vmFlags(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(address);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    uintptr_t start = 0, end = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " ", &start, &end) == 2) {
      inside = start <= at && at < end;
    } else if (inside && line.starts_with("VmFlags:")) {
      return line;
    }
  }
  return "";
}

// Whether MADV_HUGEPAGE shows as "hg" in smaps here, tried on a mapping of
// our own.
bool kernelTakesHugePageAdvice(size_t huge) {
  void* probe = mmap(nullptr, huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED) return false;
  const bool takes =
      madvise(probe, huge, MADV_HUGEPAGE) == 0 && vmFlags(probe).find(" hg") != std::string::npos;
  munmap(probe, huge);
  return takes;
}

// Arenas of 1.5 MB and more take whole huge pages (a 3 MB one four, for 1
// MB more: a page fault per 2 MB instead of per 4 KB, and the kernel zeroes
// them faster); a 1 MB one is not rounded up to one (twice its size).
TEST(ArenaMemoryTest, LargeArenasAreOnHugePages) {
  const size_t huge = transparentHugePageBytes();
  if (huge == 0 || !kernelTakesHugePageAdvice(huge)) {
    GTEST_SKIP() << "no transparent huge pages to ask for here";
  }
  auto large = ArenaMemory::allocate(size_t{3} << 20);
  ASSERT_TRUE(large.ok()) << large.error().message;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(large->data()) % huge, 0u);
  EXPECT_NE(vmFlags(large->data()).find(" hg"), std::string::npos) << vmFlags(large->data());
  for (size_t i = 0; i < large->size(); i += 4093) ASSERT_EQ(large->data()[i], 0) << i;
  std::memset(large->data(), 7, large->size());
  EXPECT_EQ(large->data()[large->size() - 1], 7);

  auto small = ArenaMemory::allocate(size_t{1} << 20);
  ASSERT_TRUE(small.ok()) << small.error().message;
  EXPECT_EQ(vmFlags(small->data()).find(" hg"), std::string::npos) << vmFlags(small->data());
}

TEST(ArenaMemoryTest, MovesAndIsFreedWhileMapping) {
  auto arena = ArenaMemory::allocate(size_t{8} << 20);
  ASSERT_TRUE(arena.ok());
  arena->populateAhead();
  ArenaMemory moved = std::move(arena).value();
  moved.data()[0] = 5;
  EXPECT_EQ(moved.data()[0], 5);
  ArenaMemory other;
  other = std::move(moved);
  EXPECT_EQ(other.data()[0], 5);
  // Destroyed mid-way: the thread stops between chunks before the unmap.
  auto big = ArenaMemory::allocate(size_t{256} << 20);
  ASSERT_TRUE(big.ok());
  big->populateAhead();
}

}  // namespace
}  // namespace annrt::cpu
