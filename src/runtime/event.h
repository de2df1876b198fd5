// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksEvent: completion of an asynchronous execution, or a sync
// fence imported from a file descriptor. Linux has no Android sync fences; an
// fd that polls readable once signalled (eventfd, sync_file) plays their role,
// and fenced executions hand out eventfds.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "common/result.h"

namespace annrt::runtime {

class Event {
 public:
  // Runs `work` on its own thread; the event signals with its result code.
  // With `withFence`, the event also exposes an eventfd signalled on completion.
  static Result<std::unique_ptr<Event>> start(std::function<ErrorCode()> work, bool withFence);
  // Wraps (and dups) a sync fence fd.
  static Result<std::unique_ptr<Event>> fromSyncFence(int fd);

  ~Event();  // waits for the work, as ANeuralNetworksEvent_free must
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  ErrorCode wait() const;
  // Waits like wait() but owns what it needs (a dup of the fence fd, or the
  // completion state), so it stays valid after the Event is freed: what a
  // computation depending on this event holds on to.
  std::function<ErrorCode()> waiter() const;
  // A dup of the fence fd; BAD_DATA for events not backed by a fence.
  Result<int> syncFenceFd() const;

 private:
  Event() = default;

  struct State {
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
    ErrorCode status = ErrorCode::NO_ERROR;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
  std::thread worker_;
  int fenceFd_ = -1;
  bool importedFence_ = false;
};

}  // namespace annrt::runtime
