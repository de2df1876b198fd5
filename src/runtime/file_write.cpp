// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/file_write.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace annrt::runtime {
namespace {

class FileSizeSignalBlock {
 public:
  FileSizeSignalBlock() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
  }
  ~FileSizeSignalBlock() {
    if (!sigismember(&previous_, SIGXFSZ)) discardPending();
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  FileSizeSignalBlock(const FileSizeSignalBlock&) = delete;
  FileSizeSignalBlock& operator=(const FileSizeSignalBlock&) = delete;

 private:
  // A SIGXFSZ pending now was raised by our write: while unblocked, any
  // other would have been delivered already.
  void discardPending() {
    sigset_t pending;
    if (sigpending(&pending) != 0 || !sigismember(&pending, SIGXFSZ)) return;
    const timespec noWait{};
    while (sigtimedwait(&set_, nullptr, &noWait) < 0 && errno == EINTR) {
    }
  }

  sigset_t set_, previous_;
};

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

Result<void> writeAllGuarded(int fd, std::span<const std::span<const uint8_t>> buffers) {
  FileSizeSignalBlock guard;
  for (const auto& buffer : buffers) ANNRT_RETURN_IF_ERROR(writeAll(fd, buffer));
  return {};
}

}  // namespace annrt::runtime
