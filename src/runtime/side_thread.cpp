// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/side_thread.h"

#include <atomic>
#include <system_error>
#include <thread>

namespace annrt::runtime {

void runPiecesBeside(size_t count, size_t bytes, const std::function<void(size_t)>& piece) {
  std::atomic<size_t> next{0};
  const auto take = [&] {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) piece(i);
  };
  // Joined, not detached: a thread left running could outlive the call and,
  // with dlclose, the library's code.
  std::thread side;
  if (count > 1 && bytes >= kSharedPassBytes) {
    try {
      side = std::thread(take);
    } catch (const std::system_error&) {
      // No thread: this one takes every piece.
    }
  }
  take();
  if (side.joinable()) side.join();
}

}  // namespace annrt::runtime
