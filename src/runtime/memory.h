// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksMemory: a block of memory shared between the application and
// the runtime — an mmap'd file descriptor, or a runtime-allocated buffer
// created from an ANeuralNetworksMemoryDesc.
#pragma once

#include <sys/mman.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "common/dims.h"
#include "common/model.h"
#include "common/result.h"
#include "runtime/unique_fd.h"

namespace annrt::runtime {

class Compilation;

// An input or output of a compilation that a device memory may play.
struct MemoryRole {
  const Compilation* compilation = nullptr;
  uint32_t index = 0;
  bool isInput = true;
  bool operator==(const MemoryRole&) const = default;
};

// What an ANeuralNetworksMemoryDesc fixed about a device memory.
struct MemoryDescription {
  Shape shape;  // type, quantization and (possibly partial) dims
  std::vector<MemoryRole> roles;
};

class Memory : public MemoryPool {
 public:
  // Maps `size` bytes of `fd` at `offset`; protect is PROT_NONE or PROT_READ
  // and/or PROT_WRITE.
  static Result<std::shared_ptr<Memory>> fromFd(size_t size, int protect, int fd, size_t offset);
  // Always an error: Linux has no AHardwareBuffer (docs/android-only-apis.md).
  static Result<std::shared_ptr<Memory>> fromAHardwareBuffer();
  // A runtime-owned buffer for the given description.
  static Result<std::shared_ptr<Memory>> fromDescription(MemoryDescription description);

  ~Memory() override;
  uint8_t* data() const override { return data_; }
  size_t size() const override { return size_; }

  // Whether the runtime may read / write the bytes: false for an fd memory
  // mapped without PROT_READ / PROT_WRITE, whose access would fault.
  // A memory from a regular file or memfd: the runtime's duplicate of its
  // descriptor (-1 otherwise) and the file offset of data().
  int fd() const { return fd_.get(); }
  size_t fdOffset() const { return fdOffset_; }

  bool isReadable() const { return (protect_ & PROT_READ) != 0; }
  bool isWritable() const { return (protect_ & PROT_WRITE) != 0; }

  // Non-null only for memories created from a MemoryDesc.
  const MemoryDescription* description() const { return description_ ? &*description_ : nullptr; }
  bool hasRole(const Compilation* compilation, uint32_t index, bool isInput) const;

  // Device memories track whether they hold valid data and its dims.
  bool isInitialized() const;
  std::vector<uint32_t> dimensions() const;
  // For a device memory with unspecified dims: makes room for `dims`.
  Result<void> resize(const std::vector<uint32_t>& dims);
  void setInitialized(bool initialized);

  // ANeuralNetworksMemory_copy: copies src's bytes (and, between device
  // memories, dims) into dst; a device dst is initialized exactly when the copy
  // succeeds.
  static Result<void> copy(const Memory& src, Memory& dst);
  // Whether [offset, offset + length) of this memory can hold a model constant.
  Result<void> checkConstantRange(size_t offset, size_t length) const;

 private:
  Memory() = default;
  Result<void> copyFrom(const Memory& src);
  // The dims a memory described with `declared` takes from `src` (copyFrom).
  static Result<std::vector<uint32_t>> dimsAfterCopyFrom(const Shape& declared, const Memory& src);

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;  // for fd memories: the mmap base
  UniqueFd fd_;
  size_t fdOffset_ = 0;
  size_t mappingSize_ = 0;
  int protect_ = PROT_READ | PROT_WRITE;
  std::unique_ptr<uint8_t[]> owned_;
  std::optional<MemoryDescription> description_;
  mutable std::mutex mutex_;
  bool initialized_ = false;
  std::vector<uint32_t> dims_;
};

}  // namespace annrt::runtime
