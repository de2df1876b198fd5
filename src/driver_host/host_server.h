// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-driver-host's side of the protocol (docs/driver-isolation.md): loads
// one plug-in library, wraps its devices exactly as the runtime does in
// process (abi::wrapDevice), and answers the runtime's requests one at a time.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "driver_abi/driver_library.h"
#include "driver_abi/host_protocol.h"

namespace annrt::host {

class HostServer {
 public:
  explicit HostServer(int socket) : socket_(socket) {}
  // Loads `library`, sends HELLO and serves until the runtime closes the
  // socket (0) or the framing breaks (1).
  int run(const std::string& library);

 private:
  // A file of the application's (an fd-backed memory) as mapped here.
  struct MappedFile {
    dev_t device;
    ino_t inode;
    uint64_t size;
    bool writable;
    std::shared_ptr<abi::SharedRegion> region;
  };
  struct Prepared {
    std::shared_ptr<PreparedModel> model;
    std::shared_ptr<abi::SharedRegion> arena;
    // The last files its executions used, most recent first: mapping a file
    // again at each execution would fault in every page again.
    std::vector<MappedFile> files;
  };

  Result<std::vector<uint8_t>> handle(abi::Message& message);
  Result<const std::shared_ptr<Device>*> device(uint32_t index) const;
  Result<std::vector<uint8_t>> supported(abi::Message& message);
  Result<std::vector<uint8_t>> prepare(abi::Message& message);
  Result<std::vector<uint8_t>> execute(abi::Message& message);
  Result<std::vector<uint8_t>> release(abi::Message& message);
  Result<std::vector<uint8_t>> extension(abi::Message& message);
  Result<ExecutionOutcome> runExecution(abi::Message& message);
  static Result<std::shared_ptr<abi::SharedRegion>> mappedFile(Prepared& prepared, abi::UniqueFd fd,
                                                               bool writable);

  int socket_;
  abi::DriverLibrary library_;
  std::vector<std::shared_ptr<Device>> devices_;
  std::map<uint64_t, Prepared> prepared_;
  uint64_t nextId_ = 1;
};

}  // namespace annrt::host
