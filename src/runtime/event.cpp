// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/event.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/log.h"

namespace annrt::runtime {

Result<std::unique_ptr<Event>> Event::start(std::function<ErrorCode()> work, bool withFence) {
  std::unique_ptr<Event> event(new Event());
  if (withFence) {
    event->fenceFd_ = eventfd(0, EFD_CLOEXEC);
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, event->fenceFd_ >= 0, "eventfd failed: {}",
                     std::strerror(errno));
  }
  auto state = event->state_;
  const int fence = event->fenceFd_;
  try {
    event->worker_ = std::thread([state, fence, work = std::move(work)] {
      const ErrorCode status = work();
      // Signal the fence before waking waiters: whoever returns from wait()
      // must find the sync fence already signalled.
      if (fence >= 0) {
        const uint64_t one = 1;
        (void)!write(fence, &one, sizeof(one));
      }
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        state->status = status;
        state->finished = true;
      }
      state->done.notify_all();
    });
  } catch (const std::system_error& e) {
    return makeError(ErrorCode::OP_FAILED, "cannot start a thread: {}", e.what());
  }
  return event;
}

Result<std::unique_ptr<Event>> Event::fromSyncFence(int fd) {
  // As AOSP: 0 (stdin) is no sync fence either.
  ANNRT_CHECK(fd > 0, "invalid sync fence fd {}", fd);
  const int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  ANNRT_CHECK(copy >= 0, "cannot dup sync fence fd {}: {}", fd, std::strerror(errno));
  std::unique_ptr<Event> event(new Event());
  event->fenceFd_ = copy;
  event->importedFence_ = true;
  return event;
}

Event::~Event() {
  if (worker_.joinable()) worker_.join();
  if (fenceFd_ >= 0) close(fenceFd_);
}

namespace {

ErrorCode waitForFence(int fd) {
  pollfd descriptor{fd, POLLIN, 0};
  int ready = 0;
  do {
    ready = poll(&descriptor, 1, -1);
  } while (ready < 0 && errno == EINTR);
  if (ready < 0 || (descriptor.revents & (POLLERR | POLLNVAL))) {
    logError("waiting on sync fence fd {} failed", fd);
    return ErrorCode::OP_FAILED;
  }
  return ErrorCode::NO_ERROR;
}

}  // namespace

ErrorCode Event::wait() const {
  if (importedFence_) return waitForFence(fenceFd_);
  std::unique_lock<std::mutex> lock(state_->mutex);
  state_->done.wait(lock, [&] { return state_->finished; });
  return state_->status;
}

std::function<ErrorCode()> Event::waiter() const {
  if (importedFence_) {
    auto fd = std::shared_ptr<int>(new int(fcntl(fenceFd_, F_DUPFD_CLOEXEC, 0)), [](int* fd) {
      if (*fd >= 0) close(*fd);
      delete fd;
    });
    return [fd] {
      if (*fd < 0) {
        logError("cannot wait on a sync fence: dup failed");
        return ErrorCode::OP_FAILED;
      }
      return waitForFence(*fd);
    };
  }
  return [state = state_] {
    std::unique_lock<std::mutex> lock(state->mutex);
    state->done.wait(lock, [&] { return state->finished; });
    return state->status;
  };
}

Result<int> Event::syncFenceFd() const {
  ANNRT_CHECK(fenceFd_ >= 0, "the event is not backed by a sync fence");
  const int copy = fcntl(fenceFd_, F_DUPFD_CLOEXEC, 0);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, copy >= 0, "cannot dup the fence fd: {}",
                   std::strerror(errno));
  return copy;
}

}  // namespace annrt::runtime
