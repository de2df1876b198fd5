// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The byte level of the driver-host protocol (docs/driver-isolation.md):
// length-prefixed messages over a Unix stream socket, an optional file
// descriptor beside a message (SCM_RIGHTS), bounds-checked encoding, and
// memfd regions both processes map.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "common/device.h"
#include "common/page_size.h"
#include "common/result.h"
#include "runtime/unique_fd.h"

namespace annrt::abi {

using runtime::UniqueFd;

// The largest message either side accepts; model constants and tensors travel
// in shared memory, so messages hold only structure.
inline constexpr uint32_t kMaxMessageBytes = 64u << 20;
// The most descriptors beside one message.
inline constexpr size_t kMaxDescriptors = 8;

enum class MessageType : uint32_t {
  HELLO = 1,      // host -> runtime, once after loading the library
  SUPPORTED = 2,  // supported operations of a model
  PREPARE = 3,
  EXECUTE = 4,
  RELEASE = 5,
  EXTENSION = 6,  // supportsExtension
  REPLY = 0x100,  // the reply to a request is REPLY | request type
};

struct Message {
  MessageType type = MessageType::HELLO;
  std::vector<uint8_t> payload;
  std::vector<UniqueFd> fds;  // at most kMaxDescriptors
};

// Appends native-endian values (both ends run on one machine).
class WireWriter {
 public:
  template <typename T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  void putBytes(std::span<const uint8_t> bytes);
  void putString(const std::string& text);
  void putU32s(const std::vector<uint32_t>& values);
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Reads what a WireWriter wrote. A read past the end marks the reader failed
// and yields zeros, so decoders check ok() once instead of after every field;
// counts are checked against the bytes left before anything is allocated.
class WireReader {
 public:
  explicit WireReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value{};
    if (!take(sizeof(T))) return value;
    std::memcpy(&value, bytes_.data() + offset_ - sizeof(T), sizeof(T));
    return value;
  }
  bool getBool() { return get<uint8_t>() != 0; }
  // A count of items of at least `minItemBytes` each that must fit in what is left.
  uint32_t getCount(size_t minItemBytes);
  std::string getString();
  std::vector<uint8_t> getBytes();
  std::vector<uint32_t> getU32s();

  bool ok() const { return ok_; }
  bool atEnd() const { return ok_ && offset_ == bytes_.size(); }
  // OP_FAILED naming `what` unless every byte was read and nothing was missing.
  Result<void> finish(const char* what) const;

 private:
  bool take(size_t n);

  std::span<const uint8_t> bytes_;
  size_t offset_ = 0;
  bool ok_ = true;
};

// A memfd and its mapping in this process.
class SharedRegion {
 public:
  // A new memfd of `size` bytes (at least one page is mapped), read-write.
  static Result<std::shared_ptr<SharedRegion>> create(size_t size, const char* name);
  // Maps a memfd received from the peer; `size` must not exceed the file's.
  static Result<std::shared_ptr<SharedRegion>> map(UniqueFd fd, size_t size, bool writable);
  // Maps the whole of a regular file the peer passed on; size() is the file's.
  static Result<std::shared_ptr<SharedRegion>> mapFile(UniqueFd fd, bool writable);
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;
  ~SharedRegion();

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  int fd() const { return fd_.get(); }

 private:
  SharedRegion(UniqueFd fd, uint8_t* data, size_t size, size_t mapped)
      : fd_(std::move(fd)), data_(data), size_(size), mapped_(mapped) {}

  UniqueFd fd_;
  uint8_t* data_;
  size_t size_;
  size_t mapped_;
};

// Writes a whole message (MSG_NOSIGNAL: a dead peer is an error, not SIGPIPE)
// with `fds` beside it.
Result<void> sendMessage(int socket, MessageType type, std::span<const uint8_t> payload,
                         std::span<const int> fds = {});
// Reads one whole message, waiting at most until `until`. DEAD_OBJECT when the
// peer closed or the connection broke, MISSED_DEADLINE_TRANSIENT on timeout,
// OP_FAILED for a malformed frame.
Result<Message> receiveMessage(int socket, std::optional<Clock::time_point> until);

}  // namespace annrt::abi
