// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/host_channel.h"

#include <fcntl.h>
#include <fmt/ranges.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "common/log.h"

namespace annrt::abi {
namespace {

// The descriptor the host reads its socket from.
constexpr int kHostSocketFd = 3;

// In the child between fork and exec: only async-signal-safe calls.
[[noreturn]] void execHost(int socket, const char* path, char* const argv[], uint64_t memoryMb) {
  if (socket == kHostSocketFd) {
    fcntl(socket, F_SETFD, 0);
  } else if (dup2(socket, kHostSocketFd) < 0) {
    _exit(127);
  }
  // stdin and stdout go nowhere; stderr stays, for the driver's own messages.
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, 0);
    dup2(null, 1);
  }
  // Every other descriptor of the application is closed in the host.
  if (syscall(SYS_close_range, kHostSocketFd + 1, ~0u, 0) != 0) {
    rlimit files{};
    const rlim_t last = getrlimit(RLIMIT_NOFILE, &files) == 0 ? files.rlim_cur : 1024;
    for (rlim_t fd = kHostSocketFd + 1; fd < last && fd < (1u << 20); ++fd)
      close(static_cast<int>(fd));
  }
  if (memoryMb > 0) {
    const rlim_t bytes = static_cast<rlim_t>(memoryMb) << 20;
    const rlimit limit{bytes, bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  // Signal dispositions the application ignores and its mask would survive exec.
  struct sigaction def {};
  def.sa_handler = SIG_DFL;
  for (int signal : {SIGPIPE, SIGSEGV, SIGABRT, SIGCHLD, SIGTERM, SIGINT}) {
    sigaction(signal, &def, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execv(path, argv);
  _exit(127);
}

std::string describeExit(int status) {
  if (WIFSIGNALED(status)) {
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                       sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
  }
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  return "stopped";
}

// Reaps `pid`, killing it if it has not exited within `grace`.
std::string reap(pid_t pid, std::chrono::milliseconds grace) {
  const auto until = Clock::now() + grace;
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return describeExit(status);
    if (done < 0 && errno != EINTR) return "is gone";  // already reaped (SIGCHLD ignored)
    if (Clock::now() >= until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return "is gone";
  }
  return describeExit(status);
}

}  // namespace

Result<std::shared_ptr<HostChannel>> HostChannel::start(HostSettings settings, HostEvents events) {
  std::shared_ptr<HostChannel> channel(new HostChannel(std::move(settings), std::move(events)));
  std::lock_guard<std::mutex> lock(channel->mutex_);
  ANNRT_ASSIGN_OR_RETURN(channel->hello_, channel->spawn());
  return channel;
}

HostChannel::~HostChannel() {
  std::lock_guard<std::mutex> lock(mutex_);
  socket_.reset();  // the host exits when it reads the end of its socket
  if (pid_ > 0) reap(pid_, std::chrono::milliseconds(200));
}

pid_t HostChannel::pid() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return alive_ ? pid_ : -1;
}

Result<Hello> HostChannel::spawn() {
  int sockets[2];
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                   socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) == 0,
                   "socketpair: {}", strerror(errno));
  UniqueFd ours(sockets[0]);
  UniqueFd theirs(sockets[1]);
  // Everything the child needs is ready before fork: it may not allocate.
  std::string path = settings_.hostPath;
  std::string library = settings_.library;
  char* argv[] = {path.data(), library.data(), nullptr};
  const pid_t pid = fork();
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, pid >= 0, "cannot start {}: {}", path, strerror(errno));
  if (pid == 0) execHost(theirs.get(), path.c_str(), argv, settings_.memoryMb);
  theirs.reset();
  pid_ = pid;
  socket_ = std::move(ours);
  alive_ = true;
  ++generation_;
  auto hello = receiveMessage(socket_.get(), Clock::now() + settings_.timeout);
  if (hello.ok() && hello->type != MessageType::HELLO) {
    hello = makeError(ErrorCode::OP_FAILED, "the host's first message is not HELLO");
  }
  Result<Hello> decoded = hello.ok() ? decodeHello(hello->payload) : hello.takeError();
  if (decoded.ok() && decoded->status != 0) {
    decoded = makeError(ErrorCode::OP_FAILED, "{}", decoded->message);
  }
  if (!decoded.ok()) {
    socket_.reset();
    alive_ = false;
    const std::string exit = reap(pid_, std::chrono::milliseconds(200));
    pid_ = -1;
    return makeError(ErrorCode::OP_FAILED, "{} for {} {}: {}", path, library, exit,
                     decoded.error().message);
  }
  return decoded;
}

std::vector<std::string> HostChannel::deviceNames() const {
  std::vector<std::string> names;
  names.reserve(hello_.devices.size());
  for (const HostDeviceInfo& device : hello_.devices) names.push_back(device.name);
  return names;
}

void HostChannel::fail(const std::string& why) {
  if (!alive_) return;
  alive_ = false;
  socket_.reset();
  kill(pid_, SIGKILL);
  const std::string exit = reap(pid_, std::chrono::milliseconds(0));
  logError(
      "driver host of {} (pid {}) {} and {}; devices {} are unavailable until the next "
      "compilation that uses them",
      settings_.library, pid_, why, exit, fmt::join(deviceNames(), ", "));
  pid_ = -1;
  if (events_.failed) events_.failed(deviceNames());
}

bool HostChannel::peerClosed() const {
  pollfd p{socket_.get(), POLLIN, 0};
  // The host never speaks unasked: anything readable now is its end.
  return poll(&p, 1, 0) != 0;
}

Result<uint64_t> HostChannel::ensureRunning() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (alive_ && peerClosed()) fail("closed its connection between calls");
  if (alive_) return generation_;
  ANNRT_ASSIGN_OR_RETURN(Hello hello, spawn());
  if (hello.driverName != hello_.driverName || hello.devices.size() != hello_.devices.size()) {
    fail("came back with other devices");
    return makeError(ErrorCode::OP_FAILED, "the restarted driver host of {} has other devices",
                     settings_.library);
  }
  ANNRT_VLOG(MANAGER, "restarted the driver host of {} (pid {})", settings_.library, pid_);
  if (events_.restarted) events_.restarted(deviceNames());
  return generation_;
}

Result<std::vector<uint8_t>> HostChannel::call(uint64_t generation, MessageType type,
                                               std::span<const uint8_t> payload,
                                               std::span<const int> fds,
                                               std::optional<Clock::time_point> deadline) {
  std::lock_guard<std::mutex> lock(mutex_);
  ANNRT_CHECK_CODE(ErrorCode::DEAD_OBJECT, alive_ && generation == generation_,
                   "the driver host of {} that this belongs to is gone", settings_.library);
  const auto watchdog = Clock::now() + settings_.timeout;
  const bool deadlineFirst = deadline && *deadline < watchdog;
  if (auto sent = sendMessage(socket_.get(), type, payload, fds); !sent.ok()) {
    fail("could not be written to");
    return makeError(ErrorCode::DEAD_OBJECT, "{}", sent.error().message);
  }
  auto reply = receiveMessage(socket_.get(), deadlineFirst ? *deadline : watchdog);
  if (reply.ok() &&
      reply->type != static_cast<MessageType>(static_cast<uint32_t>(type) |
                                              static_cast<uint32_t>(MessageType::REPLY))) {
    reply = makeError(ErrorCode::OP_FAILED, "a reply of type {:#x} to a request of type {:#x}",
                      static_cast<uint32_t>(reply->type), static_cast<uint32_t>(type));
  }
  if (reply.ok()) return std::move(reply->payload);
  const ErrorCode code = reply.error().code;
  if (code == ErrorCode::MISSED_DEADLINE_TRANSIENT) {
    fail(deadlineFirst ? "missed the execution deadline"
                       : fmt::format("hung for {} ms (ANNRT_DRIVER_HOST_TIMEOUT_MS)",
                                     settings_.timeout.count()));
    if (deadlineFirst) return makeError(code, "the driver host missed the deadline");
  } else {
    fail(code == ErrorCode::DEAD_OBJECT ? "closed its connection"
                                        : "sent a malformed reply: " + reply.error().message);
  }
  return makeError(ErrorCode::DEAD_OBJECT, "the driver host of {} failed: {}", settings_.library,
                   reply.error().message);
}

}  // namespace annrt::abi
