// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/arena_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>
#include <utility>

namespace annrt::cpu {
namespace {

// Pages are mapped a chunk at a time, so that a destructor need not wait
// for all of them.
constexpr size_t kChunkBytes = size_t{128} << 10;

size_t pageSize() {
  static const auto size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

void populate(const std::stop_token& stop, uint8_t* data, size_t bytes) {
  for (size_t at = 0; at < bytes && !stop.stop_requested(); at += kChunkBytes) {
    const size_t length = std::min(kChunkBytes, bytes - at);
    if (!populatePages(data + at, length)) return;
  }
}

}  // namespace

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
  const size_t mapped = (bytes + pageSize() - 1) / pageSize() * pageSize();
  void* data = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, data != MAP_FAILED,
                   "annrt-cpu: cannot map {} bytes between stages", bytes);
  memory.data_ = static_cast<uint8_t*>(data);
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
