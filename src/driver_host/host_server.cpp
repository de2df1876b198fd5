// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_host/host_server.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>

#include "common/log.h"
#include "common/page_size.h"
#include "driver_abi/plugin_device.h"

namespace annrt::host {
namespace {

using abi::MessageType;
using abi::WireReader;
using abi::WireWriter;

// The reply a request gets when the host could not serve it.
std::vector<uint8_t> errorReply(MessageType type, const Error& error) {
  WireWriter out;
  if (type == MessageType::EXECUTE) {
    abi::encodeOutcome({error.code, error.message, {}, {}, {}}, out);
  } else if (type == MessageType::EXTENSION) {
    out.put<uint8_t>(0);
  } else {
    out.put(static_cast<int32_t>(error.code));
    if (type == MessageType::SUPPORTED) out.putBytes({});
    if (type == MessageType::PREPARE) {
      out.putString(error.message);
      out.put<uint64_t>(0);
    }
  }
  return std::move(out.bytes());
}

// The model constants' memfd (the only descriptor beside the message, if
// any), read-only, as large as the file is.
Result<std::shared_ptr<const abi::SharedRegion>> mapConstants(std::vector<abi::UniqueFd>& fds) {
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fds.size() <= 1, "{} descriptors beside a model",
                   fds.size());
  if (fds.empty()) return std::shared_ptr<const abi::SharedRegion>();
  abi::UniqueFd fd = std::move(fds[0]);
  struct stat st {};
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fstat(fd.get(), &st) == 0, "cannot stat the constants");
  ANNRT_ASSIGN_OR_RETURN(
      auto region, abi::SharedRegion::map(std::move(fd), static_cast<size_t>(st.st_size), false));
  return std::shared_ptr<const abi::SharedRegion>(std::move(region));
}

// Makes the page after each output inaccessible while the driver runs, so a
// write past an output's end faults here instead of landing somewhere else.
class GuardPages {
 public:
  GuardPages(uint8_t* arena, const std::vector<abi::ArenaArgument>& outputs) {
    for (const abi::ArenaArgument& a : outputs) {
      if (a.omitted || a.length == 0 || a.file >= 0) continue;
      uint8_t* guard = arena + a.offset + a.length;
      if (mprotect(guard, pageSize(), PROT_NONE) == 0) guards_.push_back(guard);
    }
  }
  ~GuardPages() {
    for (uint8_t* guard : guards_) mprotect(guard, pageSize(), PROT_READ | PROT_WRITE);
  }

 private:
  std::vector<uint8_t*> guards_;
};

std::vector<RequestArgument> requestArguments(
    uint8_t* arena, const std::vector<std::shared_ptr<abi::SharedRegion>>& files,
    const std::vector<abi::ArenaArgument>& arguments) {
  std::vector<RequestArgument> result;
  for (const abi::ArenaArgument& a : arguments) {
    uint8_t* base = a.file >= 0 ? files[a.file]->data() : arena;
    result.push_back({a.omitted, a.omitted ? nullptr : base + a.offset, a.length, a.dims});
  }
  return result;
}

}  // namespace

int HostServer::run(const std::string& path) {
  abi::Hello hello;
  auto library = abi::openDriverLibrary(path);
  if (library.ok()) {
    library_ = std::move(library).value();
    hello.driverName = library_.driver->name ? library_.driver->name : "";
    for (uint32_t i = 0; i < library_.driver->deviceCount; ++i) {
      devices_.push_back(abi::wrapDevice(library_.handle, abi::driverDevice(*library_.driver, i)));
      const Device& d = *devices_.back();
      hello.devices.push_back(
          {d.name(), d.version(), d.type(), d.featureLevel(), d.capabilities()});
    }
  } else {
    hello.status = static_cast<int32_t>(library.error().code);
    hello.message = library.error().message;
  }
  WireWriter out;
  abi::encodeHello(hello, out);
  if (!abi::sendMessage(socket_, MessageType::HELLO, out.bytes()).ok() || hello.status != 0) {
    return 1;
  }
  while (true) {
    auto message = abi::receiveMessage(socket_, std::nullopt);
    if (!message.ok()) {
      if (message.error().code == ErrorCode::DEAD_OBJECT) return 0;  // the runtime is done
      logError("annrt-driver-host: {}", message.error().message);
      return 1;
    }
    const auto type = message->type;
    if (type < MessageType::SUPPORTED || type > MessageType::EXTENSION) {
      logError("annrt-driver-host: unexpected message type {}", static_cast<uint32_t>(type));
      return 1;
    }
    auto reply = handle(*message);
    const std::vector<uint8_t> bytes =
        reply.ok() ? std::move(reply).value() : errorReply(type, reply.error());
    const auto replyType = static_cast<MessageType>(static_cast<uint32_t>(type) |
                                                    static_cast<uint32_t>(MessageType::REPLY));
    if (!abi::sendMessage(socket_, replyType, bytes).ok()) return 0;
  }
}

Result<std::vector<uint8_t>> HostServer::handle(abi::Message& message) {
  switch (message.type) {
    case MessageType::SUPPORTED: return supported(message);
    case MessageType::PREPARE: return prepare(message);
    case MessageType::EXECUTE: return execute(message);
    case MessageType::RELEASE: return release(message);
    case MessageType::EXTENSION: return extension(message);
    default: return makeError(ErrorCode::OP_FAILED, "unexpected message");
  }
}

Result<const std::shared_ptr<Device>*> HostServer::device(uint32_t index) const {
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, index < devices_.size(), "no device {} in this host",
                   index);
  return &devices_[index];
}

Result<std::vector<uint8_t>> HostServer::supported(abi::Message& message) {
  WireReader in(message.payload);
  ANNRT_ASSIGN_OR_RETURN(auto d, device(in.get<uint32_t>()));
  ANNRT_ASSIGN_OR_RETURN(auto constants, mapConstants(message.fds));
  ANNRT_ASSIGN_OR_RETURN(auto model, abi::decodeModel(in, std::move(constants)));
  ANNRT_RETURN_IF_ERROR(in.finish("SUPPORTED"));
  const std::vector<bool> flags = (*d)->supportedOperations(*model);
  WireWriter out;
  out.put<int32_t>(0);
  const std::vector<uint8_t> bytes(flags.begin(), flags.end());
  out.putBytes(bytes);
  return std::move(out.bytes());
}

Result<std::vector<uint8_t>> HostServer::prepare(abi::Message& message) {
  WireReader in(message.payload);
  ANNRT_ASSIGN_OR_RETURN(auto d, device(in.get<uint32_t>()));
  const PrepareOptions options = abi::decodePrepareOptions(in);
  ANNRT_ASSIGN_OR_RETURN(auto constants, mapConstants(message.fds));
  ANNRT_ASSIGN_OR_RETURN(auto model, abi::decodeModel(in, std::move(constants)));
  ANNRT_RETURN_IF_ERROR(in.finish("PREPARE"));
  ANNRT_ASSIGN_OR_RETURN(auto prepared, (*d)->prepareModel(std::move(model), options));
  const uint64_t id = nextId_++;
  prepared_[id] = {std::move(prepared), nullptr, {}};
  WireWriter out;
  out.put<int32_t>(0);
  out.putString("");
  out.put(id);
  return std::move(out.bytes());
}

Result<ExecutionOutcome> HostServer::runExecution(abi::Message& message) {
  ANNRT_ASSIGN_OR_RETURN(const abi::ExecuteRequest request,
                         abi::decodeExecuteRequest(message.payload));
  auto found = prepared_.find(request.prepared);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, found != prepared_.end(), "no prepared model {}",
                   request.prepared);
  Prepared& prepared = found->second;
  ANNRT_CHECK_CODE(
      ErrorCode::OP_FAILED, message.fds.size() == request.fileCount + (request.newArena ? 1 : 0),
      "{} descriptors beside an execution of {} files", message.fds.size(), request.fileCount);
  size_t next = 0;
  if (request.newArena) {
    ANNRT_ASSIGN_OR_RETURN(prepared.arena, abi::SharedRegion::map(std::move(message.fds[next++]),
                                                                  request.arenaSize, true));
  }
  // The application's own memories; only those holding outputs are writable
  // here, as the application's read-only mappings would be in process.
  std::vector<bool> written(request.fileCount, false);
  for (const abi::ArenaArgument& a : request.outputs) {
    if (a.file >= 0 && static_cast<uint32_t>(a.file) < request.fileCount) written[a.file] = true;
  }
  std::vector<std::shared_ptr<abi::SharedRegion>> files;
  std::vector<uint64_t> fileSizes;
  for (uint32_t index = 0; next < message.fds.size(); ++next, ++index) {
    ANNRT_ASSIGN_OR_RETURN(auto file,
                           mappedFile(prepared, std::move(message.fds[next]), written[index]));
    fileSizes.push_back(file->size());
    files.push_back(std::move(file));
  }
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                   prepared.arena && prepared.arena->size() >= request.arenaSize,
                   "an execution arena of {} bytes was never shared", request.arenaSize);
  ANNRT_RETURN_IF_ERROR(abi::checkArenaLayout(request, request.arenaSize, fileSizes));
  uint8_t* arena = prepared.arena->data();
  const Request driverRequest{requestArguments(arena, files, request.inputs),
                              requestArguments(arena, files, request.outputs)};
  const GuardPages guards(arena, request.outputs);
  return prepared.model->execute(driverRequest, request.options);
}

Result<std::shared_ptr<abi::SharedRegion>> HostServer::mappedFile(Prepared& prepared,
                                                                  abi::UniqueFd fd, bool writable) {
  constexpr size_t kMaxMappedFiles = 8;
  struct stat st {};
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, fstat(fd.get(), &st) == 0,
                   "cannot stat an argument's file");
  auto& files = prepared.files;
  for (auto it = files.begin(); it != files.end(); ++it) {
    if (it->device == st.st_dev && it->inode == st.st_ino &&
        it->size == static_cast<uint64_t>(st.st_size) && it->writable == writable) {
      std::rotate(files.begin(), it, it + 1);
      return files.front().region;
    }
  }
  ANNRT_ASSIGN_OR_RETURN(auto region, abi::SharedRegion::mapFile(std::move(fd), writable));
  files.insert(files.begin(), {st.st_dev, st.st_ino, region->size(), writable, region});
  if (files.size() > kMaxMappedFiles) files.pop_back();
  return region;
}

Result<std::vector<uint8_t>> HostServer::execute(abi::Message& message) {
  ANNRT_ASSIGN_OR_RETURN(const ExecutionOutcome outcome, runExecution(message));
  WireWriter out;
  abi::encodeOutcome(outcome, out);
  return std::move(out.bytes());
}

Result<std::vector<uint8_t>> HostServer::release(abi::Message& message) {
  WireReader in(message.payload);
  const auto id = in.get<uint64_t>();
  ANNRT_RETURN_IF_ERROR(in.finish("RELEASE"));
  prepared_.erase(id);
  WireWriter out;
  out.put<int32_t>(0);
  return std::move(out.bytes());
}

Result<std::vector<uint8_t>> HostServer::extension(abi::Message& message) {
  WireReader in(message.payload);
  ANNRT_ASSIGN_OR_RETURN(auto d, device(in.get<uint32_t>()));
  const std::string name = in.getString();
  ANNRT_RETURN_IF_ERROR(in.finish("EXTENSION"));
  WireWriter out;
  out.put<uint8_t>((*d)->supportsExtension(name));
  return std::move(out.bytes());
}

}  // namespace annrt::host
