// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/arena_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>
#include <utility>

#include "common/align.h"
#include "common/page_size.h"
#include "drivers/cpu/kernel_file.h"

namespace annrt::cpu {
namespace {

// Pages are mapped a chunk at a time, so that a destructor need not wait
// for all of them.
constexpr size_t kChunkBytes = size_t{128} << 10;

// The size of a transparent huge page, or 0 where the kernel has none
// (built without them, or turned off: "[never]").
size_t readHugePageSize() {
  const std::optional<std::string> modes =
      readFirstLine("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!modes || modes->find("[never]") != std::string::npos) return 0;
  const std::optional<std::string> sizeText =
      readFirstLine("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
  if (!sizeText) return 0;
  size_t size = 0;
  const char* end = sizeText->data() + sizeText->size();
  if (std::from_chars(sizeText->data(), end, size).ec != std::errc() || size < pageSize() ||
      size % pageSize() != 0) {
    return 0;
  }
  return size;
}

// How many bytes to map for an arena of `pages` bytes (whole pages): rounded
// up to whole huge pages where that adds at most a third, so that a 1.5 MB
// arena takes one huge page; else as asked, and huge pages then back only
// the whole ones inside it.
size_t arenaMapping(size_t pages, size_t huge) {
  if (huge == 0) return pages;
  const size_t rounded = alignUp(pages, huge);
  return (rounded - pages) * 3 <= pages ? rounded : pages;
}

// `mapped` bytes starting on a `huge` boundary, asked for transparent huge
// pages; null where the kernel maps nothing.
uint8_t* mapOnHugePages(size_t mapped, size_t huge) {
  const size_t reserved = mapped + huge;
  void* raw = mmap(nullptr, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto* start = static_cast<uint8_t*>(raw);
  const auto address = reinterpret_cast<uintptr_t>(start);
  uint8_t* aligned = start + (alignUp(address, huge) - address);
  if (aligned != start) munmap(start, static_cast<size_t>(aligned - start));
  const size_t tail = reserved - static_cast<size_t>(aligned - start) - mapped;
  if (tail != 0) munmap(aligned + mapped, tail);
  // Advice only: a kernel that declines it maps small pages, as without it.
  madvise(aligned, mapped, MADV_HUGEPAGE);
  return aligned;
}

void populate(const std::stop_token& stop, uint8_t* data, size_t bytes) {
  for (size_t at = 0; at < bytes && !stop.stop_requested(); at += kChunkBytes) {
    const size_t length = std::min(kChunkBytes, bytes - at);
    if (!populatePages(data + at, length)) return;
  }
}

}  // namespace

size_t transparentHugePageBytes() {
  static const size_t size = readHugePageSize();
  return size;
}

bool populatePages(void* data, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
  constexpr int kPopulateWrite = 23;  // Linux 5.14's value; older headers lack it
#endif
  return madvise(data, bytes, kPopulateWrite) == 0;
}

Result<ArenaMemory> ArenaMemory::allocate(size_t bytes) {
  ArenaMemory memory;
  if (bytes == 0) return memory;
  const size_t huge = transparentHugePageBytes();
  const size_t mapped = arenaMapping(alignUp(bytes, pageSize()), huge);
  uint8_t* data = nullptr;
  if (huge != 0 && mapped >= huge) {
    data = mapOnHugePages(mapped, huge);
  } else if (void* small =
                 mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
             small != MAP_FAILED) {
    data = static_cast<uint8_t*>(small);
  }
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, data != nullptr,
                   "annrt-cpu: cannot map {} bytes between stages", bytes);
  memory.data_ = data;
  memory.size_ = bytes;
  memory.mapped_ = mapped;
  return memory;
}

ArenaMemory::ArenaMemory(ArenaMemory&& other) noexcept {
  *this = std::move(other);
}

ArenaMemory& ArenaMemory::operator=(ArenaMemory&& other) noexcept {
  if (this != &other) {
    release();
    other.waitPopulated();  // its thread holds the old address
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
  }
  return *this;
}

ArenaMemory::~ArenaMemory() {
  release();
}

void ArenaMemory::release() {
  if (populating_.joinable()) {
    populating_.request_stop();
    populating_.join();
  }
  if (data_ != nullptr) munmap(data_, mapped_);
  data_ = nullptr;
  size_ = mapped_ = 0;
}

void ArenaMemory::populateAhead() {
  if (data_ == nullptr || populating_.joinable()) return;
  try {
    populating_ = std::jthread(populate, data_, mapped_);
  } catch (const std::system_error&) {
    // No thread to spare: the first execution takes the faults.
  }
}

void ArenaMemory::waitPopulated() {
  if (populating_.joinable()) populating_.join();
}

}  // namespace annrt::cpu
