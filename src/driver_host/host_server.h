// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-driver-host's side of the protocol (docs/driver-isolation.md): loads
// one plug-in library, wraps its devices exactly as the runtime does in
// process (abi::wrapDevice), and answers the runtime's requests one at a time.
#pragma once

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
  struct Prepared {
    std::shared_ptr<PreparedModel> model;
    std::shared_ptr<abi::SharedRegion> arena;
  };

  Result<std::vector<uint8_t>> handle(abi::Message& message);
  Result<const std::shared_ptr<Device>*> device(uint32_t index) const;
  Result<std::vector<uint8_t>> supported(abi::Message& message);
  Result<std::vector<uint8_t>> prepare(abi::Message& message);
  Result<std::vector<uint8_t>> execute(abi::Message& message);
  Result<std::vector<uint8_t>> release(abi::Message& message);
  Result<std::vector<uint8_t>> extension(abi::Message& message);
  Result<ExecutionOutcome> runExecution(abi::Message& message);

  int socket_;
  abi::DriverLibrary library_;
  std::vector<std::shared_ptr<Device>> devices_;
  std::map<uint64_t, Prepared> prepared_;
  uint64_t nextId_ = 1;
};

}  // namespace annrt::host
