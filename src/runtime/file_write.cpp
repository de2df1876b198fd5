// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/file_write.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace annrt::runtime {
namespace {

constexpr size_t kBufferSize = size_t{256} * 1024;

Result<void> writeAll(int fd, std::span<const uint8_t> data) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return makeError(ErrorCode::OP_FAILED, "{}", std::strerror(errno));
    }
    // A write of 0 bytes for a non-empty buffer cannot make progress.
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, written > 0, "the file system accepted no bytes");
    data = data.subspan(static_cast<size_t>(written));
  }
  return {};
}

}  // namespace

GuardedFileWriter::GuardedFileWriter(int fd) : fd_(fd) {
  sigemptyset(&set_);
  sigaddset(&set_, SIGXFSZ);
  pthread_sigmask(SIG_BLOCK, &set_, &previous_);
  buffer_.reserve(kBufferSize);
}

GuardedFileWriter::~GuardedFileWriter() {
  if (!sigismember(&previous_, SIGXFSZ)) discardPendingSignal();
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

// A SIGXFSZ pending now was raised by our writes: while unblocked, any
// other would have been delivered already.
void GuardedFileWriter::discardPendingSignal() {
  sigset_t pending;
  if (sigpending(&pending) != 0 || !sigismember(&pending, SIGXFSZ)) return;
  const timespec noWait{};
  while (sigtimedwait(&set_, nullptr, &noWait) < 0 && errno == EINTR) {
  }
}

Result<void> GuardedFileWriter::write(std::span<const uint8_t> data) {
  if (buffer_.size() + data.size() <= kBufferSize) {
    buffer_.insert(buffer_.end(), data.begin(), data.end());
    return {};
  }
  ANNRT_RETURN_IF_ERROR(flush());
  if (data.size() >= kBufferSize) return writeAll(fd_, data);
  buffer_.assign(data.begin(), data.end());
  return {};
}

Result<void> GuardedFileWriter::flush() {
  Result<void> written = writeAll(fd_, buffer_);
  buffer_.clear();
  return written;
}

Result<void> GuardedFileWriter::writeAt(uint64_t offset, std::span<const uint8_t> data) {
  ANNRT_RETURN_IF_ERROR(flush());
  while (!data.empty()) {
    const ssize_t written = ::pwrite(fd_, data.data(), data.size(), static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) continue;
      return makeError(ErrorCode::OP_FAILED, "{}", std::strerror(errno));
    }
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, written > 0, "the file system accepted no bytes");
    data = data.subspan(static_cast<size_t>(written));
    offset += static_cast<uint64_t>(written);
  }
  return {};
}

}  // namespace annrt::runtime
