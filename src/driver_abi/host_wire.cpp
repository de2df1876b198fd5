// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/host_wire.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <limits>

namespace annrt::abi {
namespace {

struct Header {
  uint32_t type;
  uint32_t size;
};

bool isKnownType(uint32_t type) {
  const uint32_t request = type & ~static_cast<uint32_t>(MessageType::REPLY);
  return request >= static_cast<uint32_t>(MessageType::HELLO) &&
         request <= static_cast<uint32_t>(MessageType::EXTENSION) && (type & ~0x1ffu) == 0;
}

// Milliseconds poll() may wait until `until` (-1: forever), rounded up.
int pollTimeout(std::optional<Clock::time_point> until) {
  if (!until) return -1;
  const auto left = *until - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > std::numeric_limits<int>::max() ? -1 : static_cast<int>(ms);
}

// Reads exactly `length` bytes; a descriptor arriving beside them goes to *fd.
Result<void> readExactly(int socket, uint8_t* out, size_t length,
                         std::optional<Clock::time_point> until, std::vector<UniqueFd>* fds) {
  size_t done = 0;
  while (done < length) {
    pollfd p{socket, POLLIN, 0};
    const int ready = poll(&p, 1, pollTimeout(until));
    if (ready < 0 && errno == EINTR) continue;
    ANNRT_CHECK_CODE(ErrorCode::DEAD_OBJECT, ready >= 0, "poll on the driver host socket: {}",
                     strerror(errno));
    ANNRT_CHECK_CODE(ErrorCode::MISSED_DEADLINE_TRANSIENT, ready > 0,
                     "no answer from the driver host in time");
    iovec iov{out + done, length - done};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxDescriptors)];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    const ssize_t n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    ANNRT_CHECK_CODE(ErrorCode::DEAD_OBJECT, n > 0, "the driver host connection {}",
                     n == 0 ? "closed" : strerror(errno));
    bool extra = false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < count; ++i) {
        int received = -1;
        std::memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        if (fds->size() >= kMaxDescriptors) {
          ::close(received);
          extra = true;
        } else {
          fds->emplace_back(received);
        }
      }
    }
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, !extra && (msg.msg_flags & MSG_CTRUNC) == 0,
                     "more than {} descriptors beside a driver host message", kMaxDescriptors);
    done += static_cast<size_t>(n);
  }
  return {};
}

}  // namespace

void WireWriter::putBytes(std::span<const uint8_t> bytes) {
  put<uint64_t>(bytes.size());
  const size_t at = bytes_.size();
  bytes_.resize(at + bytes.size());
  if (!bytes.empty()) std::memcpy(bytes_.data() + at, bytes.data(), bytes.size());
}

void WireWriter::putString(const std::string& text) {
  putBytes({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

void WireWriter::putU32s(const std::vector<uint32_t>& values) {
  put<uint32_t>(static_cast<uint32_t>(values.size()));
  for (uint32_t v : values) put(v);
}

bool WireReader::take(size_t n) {
  if (!ok_ || n > bytes_.size() - offset_) {
    ok_ = false;
    return false;
  }
  offset_ += n;
  return true;
}

uint32_t WireReader::getCount(size_t minItemBytes) {
  const auto count = get<uint32_t>();
  if (!ok_ || static_cast<uint64_t>(count) * minItemBytes > bytes_.size() - offset_) {
    ok_ = false;
    return 0;
  }
  return count;
}

std::vector<uint8_t> WireReader::getBytes() {
  const auto length = get<uint64_t>();
  if (!ok_ || length > bytes_.size() - offset_) {
    ok_ = false;
    return {};
  }
  const uint8_t* start = bytes_.data() + offset_;
  offset_ += length;
  return {start, start + length};
}

std::string WireReader::getString() {
  const std::vector<uint8_t> bytes = getBytes();
  return {bytes.begin(), bytes.end()};
}

std::vector<uint32_t> WireReader::getU32s() {
  const uint32_t count = getCount(sizeof(uint32_t));
  std::vector<uint32_t> values;
  values.reserve(count);
  for (uint32_t i = 0; i < count; ++i) values.push_back(get<uint32_t>());
  return values;
}

Result<void> WireReader::finish(const char* what) const {
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, ok_, "malformed {} message: it ends early", what);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, offset_ == bytes_.size(),
                   "malformed {} message: {} bytes past its end", what, bytes_.size() - offset_);
  return {};
}

Result<std::shared_ptr<SharedRegion>> SharedRegion::create(size_t size, const char* name) {
  UniqueFd fd(memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, fd.valid(), "memfd_create: {}", strerror(errno));
  const size_t mapped = std::max(size, pageSize());
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, ftruncate(fd.get(), static_cast<off_t>(mapped)) == 0,
                   "cannot size a shared region of {} bytes: {}", mapped, strerror(errno));
  // A peer that shrank the file would make this process fault reading it.
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                   fcntl(fd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0,
                   "cannot seal a shared region: {}", strerror(errno));
  void* data = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, data != MAP_FAILED,
                   "cannot map a shared region of {} bytes: {}", mapped, strerror(errno));
  return std::shared_ptr<SharedRegion>(
      new SharedRegion(std::move(fd), static_cast<uint8_t*>(data), size, mapped));
}

Result<std::shared_ptr<SharedRegion>> SharedRegion::map(UniqueFd fd, size_t size, bool writable) {
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fd.valid(), "a shared region without its descriptor");
  struct stat st {};
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode),
                   "the shared region's descriptor is not a memory file");
  const size_t mapped = std::max(size, pageSize());
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, static_cast<uint64_t>(st.st_size) >= mapped,
                   "a shared region of {} bytes claims {}", st.st_size, size);
  const int protection = PROT_READ | (writable ? PROT_WRITE : 0);
  void* data = mmap(nullptr, mapped, protection, MAP_SHARED, fd.get(), 0);
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, data != MAP_FAILED,
                   "cannot map a shared region of {} bytes: {}", mapped, strerror(errno));
  return std::shared_ptr<SharedRegion>(
      new SharedRegion(std::move(fd), static_cast<uint8_t*>(data), size, mapped));
}

Result<std::shared_ptr<SharedRegion>> SharedRegion::mapFile(UniqueFd fd, bool writable) {
  struct stat st {};
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode),
                   "an argument's descriptor is not a regular file");
  const auto size = static_cast<size_t>(st.st_size);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, size > 0, "an argument's file is empty");
  const int protection = PROT_READ | (writable ? PROT_WRITE : 0);
  void* data = mmap(nullptr, size, protection, MAP_SHARED, fd.get(), 0);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, data != MAP_FAILED,
                   "cannot map an argument's file of {} bytes: {}", size, strerror(errno));
  return std::shared_ptr<SharedRegion>(
      new SharedRegion(std::move(fd), static_cast<uint8_t*>(data), size, size));
}

SharedRegion::~SharedRegion() {
  munmap(data_, mapped_);
}

Result<void> sendMessage(int socket, MessageType type, std::span<const uint8_t> payload,
                         std::span<const int> fds) {
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fds.size() <= kMaxDescriptors,
                   "{} descriptors beside one message (at most {})", fds.size(), kMaxDescriptors);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, payload.size() <= kMaxMessageBytes,
                   "a driver host message of {} bytes (at most {})", payload.size(),
                   kMaxMessageBytes);
  const Header header{static_cast<uint32_t>(type), static_cast<uint32_t>(payload.size())};
  std::vector<uint8_t> frame(sizeof(header) + payload.size());
  std::memcpy(frame.data(), &header, sizeof(header));
  if (!payload.empty()) std::memcpy(frame.data() + sizeof(header), payload.data(), payload.size());
  size_t done = 0;
  while (done < frame.size()) {
    iovec iov{frame.data() + done, frame.size() - done};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxDescriptors)] = {};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (!fds.empty() && done == 0) {  // the descriptors travel with the first byte
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    ANNRT_CHECK_CODE(ErrorCode::DEAD_OBJECT, n > 0, "cannot write to the driver host: {}",
                     strerror(errno));
    done += static_cast<size_t>(n);
  }
  return {};
}

Result<Message> receiveMessage(int socket, std::optional<Clock::time_point> until) {
  Message message;
  Header header{};
  ANNRT_RETURN_IF_ERROR(readExactly(socket, reinterpret_cast<uint8_t*>(&header), sizeof(header),
                                    until, &message.fds));
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, isKnownType(header.type),
                   "unknown driver host message type {:#x}", header.type);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, header.size <= kMaxMessageBytes,
                   "a driver host message of {} bytes (at most {})", header.size, kMaxMessageBytes);
  message.type = static_cast<MessageType>(header.type);
  message.payload.resize(header.size);
  ANNRT_RETURN_IF_ERROR(
      readExactly(socket, message.payload.data(), header.size, until, &message.fds));
  return message;
}

}  // namespace annrt::abi
