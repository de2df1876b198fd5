// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/page_size.h"

namespace annrt::runtime {

Result<std::shared_ptr<Memory>> Memory::fromFd(size_t size, int protect, int fd, size_t offset) {
  ANNRT_CHECK(size > 0, "memory size must be positive");
  ANNRT_CHECK(fd >= 0, "invalid file descriptor {}", fd);
  // AOSP allows PROT_NONE (such a memory can hold no constant) and rejects
  // other bits when the memory is used; annrt rejects them here.
  ANNRT_CHECK((protect & ~(PROT_READ | PROT_WRITE)) == 0,
              "protect {} must be PROT_NONE or PROT_READ and/or PROT_WRITE", protect);
  struct stat file {};
  ANNRT_CHECK(fstat(fd, &file) == 0, "cannot stat fd {}: {}", fd, std::strerror(errno));
  // Pages of a file mapped past its end fault on access; other fds (dma-buf)
  // have no meaningful st_size.
  const auto fileSize = static_cast<size_t>(file.st_size);
  ANNRT_CHECK(!S_ISREG(file.st_mode) || (offset <= fileSize && size <= fileSize - offset),
              "{} bytes at offset {} exceed the {}-byte file of fd {}", size, offset, fileSize, fd);
  const size_t alignedOffset = offset - offset % pageSize();
  const size_t mappingSize = size + (offset - alignedOffset);
  void* mapping =
      mmap(nullptr, mappingSize, protect, MAP_SHARED, fd, static_cast<off_t>(alignedOffset));
  ANNRT_CHECK(mapping != MAP_FAILED, "cannot map {} bytes of fd {} at offset {}: {}", size, fd,
              offset, std::strerror(errno));
  std::shared_ptr<Memory> memory(new Memory());
  memory->mapping_ = mapping;
  memory->mappingSize_ = mappingSize;
  memory->data_ = static_cast<uint8_t*>(mapping) + (offset - alignedOffset);
  memory->size_ = size;
  memory->protect_ = protect;
  memory->initialized_ = true;
  // Devices in another process (docs/driver-isolation.md) map the same file.
  if (S_ISREG(file.st_mode)) {
    memory->fd_ = UniqueFd(fcntl(fd, F_DUPFD_CLOEXEC, 0));
    memory->fdOffset_ = offset;
  }
  return memory;
}

Result<std::shared_ptr<Memory>> Memory::fromAHardwareBuffer() {
  return makeError(
      ErrorCode::BAD_DATA,
      "AHardwareBuffer does not exist on Linux; use ANeuralNetworksMemory_createFromFd "
      "with a dma-buf or memfd");
}

Result<std::shared_ptr<Memory>> Memory::fromDescription(MemoryDescription description) {
  std::shared_ptr<Memory> memory(new Memory());
  memory->dims_ = description.shape.dims;
  const bool fixedShape = !hasUnknownDims(description.shape);
  memory->description_ = std::move(description);
  if (fixedShape) {
    ANNRT_RETURN_IF_ERROR(memory->resize(memory->dims_));
  }
  return memory;
}

Memory::~Memory() {
  if (mapping_ != nullptr) munmap(mapping_, mappingSize_);
}

bool Memory::hasRole(const Compilation* compilation, uint32_t index, bool isInput) const {
  if (!description_) return false;
  const MemoryRole role{compilation, index, isInput};
  return std::find(description_->roles.begin(), description_->roles.end(), role) !=
         description_->roles.end();
}

bool Memory::isInitialized() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return initialized_;
}

std::vector<uint32_t> Memory::dimensions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dims_;
}

Result<void> Memory::resize(const std::vector<uint32_t>& dims) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK(description_.has_value(), "only device memories can be resized");
  Shape shape = description_->shape;
  shape.dims = dims;
  const size_t bytes = byteSize(shape);
  ANNRT_CHECK(elementCount(dims) == 0 || bytes != 0, "dims {} too large", toString(dims));
  if (bytes > size_ || !owned_) {
    owned_.reset(new (std::nothrow) uint8_t[std::max<size_t>(bytes, 1)]());
    ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, owned_ != nullptr, "cannot allocate {} bytes",
                     bytes);
    data_ = owned_.get();
  }
  size_ = bytes;
  dims_ = dims;
  return {};
}

void Memory::setInitialized(bool initialized) {
  std::lock_guard<std::mutex> lock(mutex_);
  initialized_ = initialized;
}

Result<void> Memory::checkConstantRange(size_t offset, size_t length) const {
  ANNRT_CHECK(!description_, "a memory created from a MemoryDesc cannot hold constant values");
  // Reading a mapping without PROT_READ would fault (AOSP does not check).
  ANNRT_CHECK(isReadable(), "the memory was created without PROT_READ");
  ANNRT_CHECK(offset <= size_ && length <= size_ - offset,
              "range of {} bytes at offset {} exceeds the memory's {} bytes", length, offset,
              size_);
  ANNRT_CHECK(offset != 0 || length != 0, "offset and length are both 0");
  return {};
}

// As AOSP: the destination takes the source's dims, which must agree with the
// dims it was described with; an fd memory has none, so a device memory of
// unknown dims cannot be copied into from one.
Result<std::vector<uint32_t>> Memory::dimsAfterCopyFrom(const Shape& declared, const Memory& src) {
  Shape shape = declared;
  if (const MemoryDescription* from = src.description()) {
    const Shape& other = from->shape;
    ANNRT_CHECK(other.type == declared.type && other.scale == declared.scale &&
                    other.zeroPoint == declared.zeroPoint &&
                    other.channelQuant == declared.channelQuant,
                "source memory of {} is incompatible with the destination of {}", toString(other),
                toString(declared));
    ANNRT_ASSIGN_OR_RETURN(shape.dims, combineDims(src.dimensions(), declared.dims));
  }
  ANNRT_CHECK(!hasUnknownDims(shape), "the destination's dimensions {} are not all known",
              toString(shape.dims));
  return shape.dims;
}

Result<void> Memory::copyFrom(const Memory& src) {
  ANNRT_CHECK(src.isInitialized(), "the source memory holds no data yet");
  // Copying through a mapping without the access would fault (AOSP's too).
  ANNRT_CHECK(src.isReadable(), "the source memory was created without PROT_READ");
  ANNRT_CHECK(isWritable(), "the destination memory was created without PROT_WRITE");
  if (description_) {
    ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> dims, dimsAfterCopyFrom(description_->shape, src));
    ANNRT_RETURN_IF_ERROR(resize(dims));
  }
  ANNRT_CHECK(src.size() == size(), "memory sizes differ: {} and {} bytes", src.size(), size());
  if (size() > 0) std::memmove(data(), src.data(), size());
  return {};
}

Result<void> Memory::copy(const Memory& src, Memory& dst) {
  // As AOSP: a memory copied onto itself succeeds (and so is initialized).
  Result<void> copied = &src == &dst ? Result<void>{} : dst.copyFrom(src);
  if (dst.description_) dst.setInitialized(copied.ok());
  return copied;
}

}  // namespace annrt::runtime
