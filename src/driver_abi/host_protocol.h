// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The messages of the driver-host protocol (docs/driver-isolation.md) and
// their encoding. Every decoder validates sizes, counts and indexes: a
// malformed message is an error on either side, never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/model.h"
#include "driver_abi/host_wire.h"

namespace annrt::abi {

struct HostDeviceInfo {
  std::string name;
  std::string version;
  int32_t type = 0;
  int64_t featureLevel = 0;
  Capabilities capabilities;
};

// HELLO: what the host loaded (status != 0: it could not, and why).
struct Hello {
  int32_t status = 0;
  std::string message;
  std::string driverName;
  std::vector<HostDeviceInfo> devices;
};
void encodeHello(const Hello& hello, WireWriter& out);
Result<Hello> decodeHello(std::span<const uint8_t> payload);

// A model's structure goes in the message; its constants go in a memfd
// (ModelConstants::region) at the offsets the structure names.
struct EncodedModel {
  std::shared_ptr<SharedRegion> constants;  // null when the model has no constant bytes
};
Result<EncodedModel> encodeModel(const Model& model, WireWriter& out);
// `constants` is the mapped memfd sent beside the message (null if none).
Result<std::shared_ptr<Model>> decodeModel(WireReader& in,
                                           std::shared_ptr<const SharedRegion> constants);

void encodePrepareOptions(const PrepareOptions& options, WireWriter& out);
PrepareOptions decodePrepareOptions(WireReader& in);

// One argument of EXECUTE: where it lies in the prepared model's arena, or
// in the file-th application file passed beside the message (its bytes are
// the application's fd-backed memory, mapped by the host: no copy).
struct ArenaArgument {
  bool omitted = false;
  int32_t file = -1;  // -1: in the arena
  uint64_t offset = 0;
  uint64_t length = 0;
  std::vector<uint32_t> dims;
};

// EXECUTE. Every output in the arena of non-zero length ends at a page
// boundary and the page after it belongs to no argument: the host makes it a
// guard page, so a driver writing past an output's end faults in the host.
// Beside the message: the new arena's memfd (newArena), then `fileCount`
// application files.
struct ExecuteRequest {
  uint64_t prepared = 0;
  uint64_t arenaSize = 0;
  bool newArena = false;
  uint32_t fileCount = 0;
  ExecutionOptions options;
  std::vector<ArenaArgument> inputs;
  std::vector<ArenaArgument> outputs;
};
void encodeExecuteRequest(const ExecuteRequest& request, WireWriter& out);
Result<ExecuteRequest> decodeExecuteRequest(std::span<const uint8_t> payload);
// The layout rules above, checked against an arena of `arenaSize` bytes and
// application files of `fileSizes` bytes.
Result<void> checkArenaLayout(const ExecuteRequest& request, uint64_t arenaSize,
                              const std::vector<uint64_t>& fileSizes = {});

void encodeOutcome(const ExecutionOutcome& outcome, WireWriter& out);
Result<ExecutionOutcome> decodeOutcome(std::span<const uint8_t> payload, size_t outputCount);

}  // namespace annrt::abi
