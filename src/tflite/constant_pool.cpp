// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/constant_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/align.h"
#include "common/page_size.h"

namespace annrt::tflite {
namespace {

constexpr size_t kAlignment = 64;
// Chunks are reserved, not filled: a memfd's pages exist once written, so
// a large chunk costs address space only, and few chunks mean few NNAPI
// memories for the runtime to map and the caches to key.
constexpr size_t kChunkBytes = size_t{16} << 20;

}  // namespace

ConstantPool::~ConstantPool() {
  seal();
  for (Chunk& chunk : chunks_) ANeuralNetworksMemory_free(chunk.memory);
}

// The memory keeps the file (the runtime maps it and keeps a descriptor of
// its own, for devices in another process), so the chunk keeps none.
Result<ConstantPool::Chunk> ConstantPool::newChunk(size_t size) const {
  const int fd = memfd_create("annrt-tflite-constants", MFD_CLOEXEC);
  ANNRT_CHECK(fd >= 0, "memfd_create: {}", std::strerror(errno));
  Chunk chunk;
  chunk.size = size;
  void* data = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(size)) == 0) {
    data = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  const int error = errno;
  int created = ANEURALNETWORKS_OP_FAILED;
  if (data != MAP_FAILED) {
    chunk.data = static_cast<uint8_t*>(data);
    created = ANeuralNetworksMemory_createFromFd(size, PROT_READ, fd, 0, &chunk.memory);
  }
  ::close(fd);
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, data != MAP_FAILED,
                   "cannot map {} bytes of shared memory: {}", size, std::strerror(error));
  if (created != ANEURALNETWORKS_NO_ERROR) {
    munmap(chunk.data, size);
    return makeError(ErrorCode::OUT_OF_MEMORY,
                     "ANeuralNetworksMemory_createFromFd of {} bytes of shared memory: {}", size,
                     created);
  }
  return chunk;
}

Result<std::span<uint8_t>> ConstantPool::allocate(size_t bytes) {
  const size_t length = alignUp(std::max<size_t>(bytes, 1), kAlignment);
  if (chunks_.empty() || chunks_.back().data == nullptr ||
      chunks_.back().size - chunks_.back().used < length) {
    ANNRT_ASSIGN_OR_RETURN(Chunk chunk,
                           newChunk(alignUp(std::max(length, kChunkBytes), pageSize())));
    chunks_.push_back(chunk);
  }
  Chunk& chunk = chunks_.back();
  std::span<uint8_t> result(chunk.data + chunk.used, bytes);
  chunk.used += length;
  return result;
}

std::optional<ConstantPool::Place> ConstantPool::find(std::span<const uint8_t> bytes) const {
  for (const Chunk& chunk : chunks_) {
    if (chunk.data != nullptr && !bytes.empty() && bytes.data() >= chunk.data &&
        bytes.data() + bytes.size() <= chunk.data + chunk.used) {
      return Place{chunk.memory, static_cast<size_t>(bytes.data() - chunk.data)};
    }
  }
  return std::nullopt;
}

void ConstantPool::seal() {
  for (Chunk& chunk : chunks_) {
    if (chunk.data != nullptr) munmap(chunk.data, chunk.size);
    chunk.data = nullptr;
  }
}

size_t ConstantPool::usedBytes() const {
  size_t used = 0;
  for (const Chunk& chunk : chunks_) used += chunk.used;
  return used;
}

}  // namespace annrt::tflite
