// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/side_thread.h"

#include <atomic>
#include <memory>
#include <system_error>
#include <thread>

namespace annrt::runtime {
namespace {

// What both threads share; the side thread may outlive the call (it may
// start after every piece was taken), so it holds its own reference.
struct Pieces {
  Pieces(size_t count, const std::function<void(size_t)>& piece) : count(count), piece(piece) {}

  // Takes pieces until none is left.
  void take() {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      piece(i);
      if (done.fetch_add(1) + 1 == count) done.notify_all();
    }
  }

  const size_t count;
  const std::function<void(size_t)>& piece;  // called only for pieces taken before done == count
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
};

}  // namespace

void runPiecesBeside(size_t count, const std::function<void(size_t)>& piece) {
  auto pieces = std::make_shared<Pieces>(count, piece);
  if (count > 1) {
    try {
      std::thread([pieces] { pieces->take(); }).detach();
    } catch (const std::system_error&) {
      // No thread: this one takes every piece.
    }
  }
  pieces->take();
  for (size_t done = pieces->done.load(); done != count; done = pieces->done.load()) {
    pieces->done.wait(done);
  }
}

}  // namespace annrt::runtime
