// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The runtime's end of one annrt-driver-host child process, which runs one
// plug-in library (docs/driver-isolation.md). Calls are serialized; each one
// waits at most the watchdog timeout (and the caller's deadline). When the
// host dies, hangs or answers nonsense it is killed and reaped, one line is
// logged and `failed` is told; its prepared models stay failed, and the next
// ensureRunning() (at the next compilation) starts a new host.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "driver_abi/host_protocol.h"

namespace annrt::abi {

struct HostSettings {
  std::string hostPath;  // the annrt-driver-host executable
  std::string library;   // the plug-in it loads
  std::chrono::milliseconds timeout{10000};
  uint64_t memoryMb = 0;  // RLIMIT_AS of the host; 0: unlimited
};

struct HostEvents {
  // The devices of a host that failed (once per failure) or was restarted.
  std::function<void(const std::vector<std::string>& devices)> failed;
  std::function<void(const std::vector<std::string>& devices)> restarted;
};

class HostChannel {
 public:
  // Starts the host and reads its HELLO.
  static Result<std::shared_ptr<HostChannel>> start(HostSettings settings, HostEvents events);
  HostChannel(const HostChannel&) = delete;
  HostChannel& operator=(const HostChannel&) = delete;
  ~HostChannel();  // closes the socket (the host then exits) and reaps the host

  const Hello& hello() const { return hello_; }
  // The generation of the running host, restarting it if it died (a host
  // that died between calls is reported as failed first).
  Result<uint64_t> ensureRunning();
  // Sends a request (with `fds` beside it) to the host of
  // `generation` and returns its reply's payload. DEAD_OBJECT when that host
  // is gone or fails now; MISSED_DEADLINE_TRANSIENT when `deadline` passed
  // first (the host is killed all the same: it may be stuck).
  Result<std::vector<uint8_t>> call(uint64_t generation, MessageType type,
                                    std::span<const uint8_t> payload, std::span<const int> fds = {},
                                    std::optional<Clock::time_point> deadline = std::nullopt);
  // The process id of the running host (-1: none), for tests and logs.
  pid_t pid() const;

 private:
  HostChannel(HostSettings settings, HostEvents events)
      : settings_(std::move(settings)), events_(std::move(events)) {}

  Result<Hello> spawn();              // under mutex_
  void fail(const std::string& why);  // under mutex_
  bool peerClosed() const;            // under mutex_
  std::vector<std::string> deviceNames() const;

  const HostSettings settings_;
  const HostEvents events_;
  Hello hello_;
  mutable std::mutex mutex_;
  pid_t pid_ = -1;
  UniqueFd socket_;
  bool alive_ = false;
  uint64_t generation_ = 0;
};

}  // namespace annrt::abi
