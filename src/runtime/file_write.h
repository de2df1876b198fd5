// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Writing a file without letting a file size limit kill the process.
#pragma once

#include <signal.h>

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"

namespace annrt::runtime {

// Writes a file front to back through a buffer (callers write many small
// pieces), retrying short writes and EINTR. A write beyond RLIMIT_FSIZE makes
// the kernel send the thread SIGXFSZ, whose default action ends the process:
// the signal is blocked in this thread while the writer lives and, when it
// was not blocked before, a pending one is discarded, so the write fails
// with EFBIG instead (the process-wide disposition, which the application
// owns, is left alone). Use it on one thread only.
class GuardedFileWriter {
 public:
  explicit GuardedFileWriter(int fd);
  ~GuardedFileWriter();
  GuardedFileWriter(const GuardedFileWriter&) = delete;
  GuardedFileWriter& operator=(const GuardedFileWriter&) = delete;

  Result<void> write(std::span<const uint8_t> data);
  // Writes what is buffered.
  Result<void> flush();
  // Writes `data` at `offset` (after a flush), leaving the file position.
  Result<void> writeAt(uint64_t offset, std::span<const uint8_t> data);

 private:
  void discardPendingSignal();

  int fd_;
  sigset_t set_, previous_;
  std::vector<uint8_t> buffer_;
};

}  // namespace annrt::runtime
