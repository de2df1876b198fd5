// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Writing a file without letting a file size limit kill the process.
#pragma once

#include <span>

#include "common/result.h"

namespace annrt::runtime {

// Writes every buffer to `fd` in order, retrying short writes and EINTR.
// A write beyond RLIMIT_FSIZE makes the kernel send the thread SIGXFSZ,
// whose default action ends the process: the signal is blocked in this
// thread for the duration and, when it was not blocked before, a pending
// one is discarded, so the write fails with EFBIG instead (the process-wide
// disposition, which the application owns, is left alone).
Result<void> writeAllGuarded(int fd, std::span<const std::span<const uint8_t>> buffers);

}  // namespace annrt::runtime
