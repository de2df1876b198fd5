// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/isolated_device.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/align.h"
#include "common/log.h"

namespace annrt::abi {
namespace {

constexpr size_t kInputAlignment = 64;

// Where a request's arguments go: the application's fd-backed memories stay
// in their files (the host maps them), the others go in the arena: inputs
// packed, each output ending at a page boundary with a guard page after it
// (host_protocol.h).
struct ArenaLayout {
  std::vector<ArenaArgument> inputs;
  std::vector<ArenaArgument> outputs;
  size_t size = 0;
  std::vector<int> files;  // the application's descriptors, in file order
};

ArenaArgument placeArgument(const RequestArgument& a, uint64_t offset) {
  return {a.omitted, -1, offset, a.omitted ? 0 : a.length, a.dims};
}

// The argument in its file, when it has one and the message has room for it.
std::optional<ArenaArgument> placeInFile(const RequestArgument& a, ArenaLayout& layout) {
  if (a.omitted || a.fd < 0 || a.length == 0) return std::nullopt;
  auto known = std::find(layout.files.begin(), layout.files.end(), a.fd);
  if (known == layout.files.end()) {
    if (layout.files.size() + 1 >= kMaxDescriptors) return std::nullopt;  // one for the arena
    known = layout.files.insert(layout.files.end(), a.fd);
  }
  return ArenaArgument{false, static_cast<int32_t>(known - layout.files.begin()), a.fdOffset,
                       a.length, a.dims};
}

ArenaLayout layoutArena(const Request& request) {
  ArenaLayout layout;
  size_t cursor = 0;
  for (const RequestArgument& a : request.inputs) {
    if (auto inFile = placeInFile(a, layout)) {
      layout.inputs.push_back(*inFile);
      continue;
    }
    layout.inputs.push_back(placeArgument(a, cursor));
    if (!a.omitted) cursor = alignUp(cursor + a.length, kInputAlignment);
  }
  const size_t page = pageSize();
  cursor = alignUp(cursor, page);
  for (const RequestArgument& a : request.outputs) {
    if (auto inFile = placeInFile(a, layout)) {
      layout.outputs.push_back(*inFile);
      continue;
    }
    if (a.omitted || a.length == 0) {
      layout.outputs.push_back(placeArgument(a, cursor));
      continue;
    }
    const size_t slot = alignUp(a.length, page);
    layout.outputs.push_back(placeArgument(a, cursor + slot - a.length));
    cursor += slot + page;
  }
  layout.size = std::max(cursor, page);
  return layout;
}

class IsolatedPreparedModel final : public PreparedModel {
 public:
  IsolatedPreparedModel(std::shared_ptr<HostChannel> channel, uint64_t generation, uint64_t id,
                        std::string device)
      : channel_(std::move(channel)),
        generation_(generation),
        id_(id),
        device_(std::move(device)) {}

  ~IsolatedPreparedModel() override {
    WireWriter out;
    out.put(id_);
    // A gone host has nothing to release; the call then fails at once.
    (void)channel_->call(generation_, MessageType::RELEASE, out.bytes());
  }

  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto outcome = run(request, options);
    if (!outcome.ok()) {
      return {outcome.error().code,
              fmt::format("{}: {}", device_, outcome.error().message),
              {},
              {},
              {}};
    }
    return std::move(outcome).value();
  }

 private:
  Result<ExecutionOutcome> run(const Request& request, const ExecutionOptions& options) {
    const ArenaLayout layout = layoutArena(request);
    std::vector<int> fds;
    if (!arena_ || arena_->size() < layout.size) {
      ANNRT_ASSIGN_OR_RETURN(arena_, SharedRegion::create(layout.size, "annrt-execution-arena"));
      fds.push_back(arena_->fd());
    }
    const bool newArena = !fds.empty();
    fds.insert(fds.end(), layout.files.begin(), layout.files.end());
    for (size_t i = 0; i < request.inputs.size(); ++i) {
      const RequestArgument& a = request.inputs[i];
      if (!a.omitted && a.length > 0 && layout.inputs[i].file < 0) {
        std::memcpy(arena_->data() + layout.inputs[i].offset, a.data, a.length);
      }
    }
    ExecuteRequest message{
        id_,     arena_->size(), newArena,      static_cast<uint32_t>(layout.files.size()),
        options, layout.inputs,  layout.outputs};
    WireWriter out;
    encodeExecuteRequest(message, out);
    ANNRT_ASSIGN_OR_RETURN(auto reply, channel_->call(generation_, MessageType::EXECUTE,
                                                      out.bytes(), fds, options.deadline));
    ANNRT_ASSIGN_OR_RETURN(ExecutionOutcome outcome, decodeOutcome(reply, request.outputs.size()));
    for (size_t i = 0; i < request.outputs.size(); ++i) {
      const RequestArgument& a = request.outputs[i];
      if (!a.omitted && a.length > 0 && layout.outputs[i].file < 0) {
        std::memcpy(a.data, arena_->data() + layout.outputs[i].offset, a.length);
      }
    }
    return outcome;
  }

  std::shared_ptr<HostChannel> channel_;
  const uint64_t generation_;
  const uint64_t id_;
  const std::string device_;
  std::mutex mutex_;
  std::shared_ptr<SharedRegion> arena_;  // grows; the host maps each new one
};

class IsolatedDevice final : public Device {
 public:
  IsolatedDevice(std::shared_ptr<HostChannel> channel, uint32_t index)
      : channel_(std::move(channel)), index_(index), info_(channel_->hello().devices[index]) {}

  const std::string& name() const override { return info_.name; }
  const std::string& version() const override { return info_.version; }
  int32_t type() const override { return info_.type; }
  int64_t featureLevel() const override { return info_.featureLevel; }
  const Capabilities& capabilities() const override { return info_.capabilities; }

  std::vector<bool> supportedOperations(const Model& model) const override {
    auto supported = querySupported(model);
    if (!supported.ok()) {
      logWarning("device {} failed to report its supported operations: {}", info_.name,
                 supported.error().message);
      return std::vector<bool>(model.main.operations.size(), false);
    }
    return std::move(supported).value();
  }

  Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model> model,
                                                      const PrepareOptions& options) override {
    ANNRT_ASSIGN_OR_RETURN(const uint64_t generation, channel_->ensureRunning());
    WireWriter out;
    out.put(index_);
    encodePrepareOptions(options, out);
    ANNRT_ASSIGN_OR_RETURN(const EncodedModel encoded, encodeModel(*model, out));
    ANNRT_ASSIGN_OR_RETURN(auto reply, channel_->call(generation, MessageType::PREPARE, out.bytes(),
                                                      fdsOf(encoded), options.deadline));
    WireReader in(reply);
    const auto status = in.get<int32_t>();
    const std::string message = in.getString();
    const auto id = in.get<uint64_t>();
    ANNRT_RETURN_IF_ERROR(in.finish("PREPARE reply"));
    // The host's wrapping already names the device, as it does in process.
    if (status != 0) return Error{static_cast<ErrorCode>(status), message};
    return std::shared_ptr<PreparedModel>(
        std::make_shared<IsolatedPreparedModel>(channel_, generation, id, info_.name));
  }

  bool supportsExtension(const std::string& name) const override {
    auto generation = channel_->ensureRunning();
    if (!generation.ok()) return false;
    WireWriter out;
    out.put(index_);
    out.putString(name);
    auto reply = channel_->call(*generation, MessageType::EXTENSION, out.bytes());
    return reply.ok() && reply->size() == 1 && (*reply)[0] == 1;
  }

 private:
  static std::vector<int> fdsOf(const EncodedModel& encoded) {
    if (!encoded.constants) return {};
    return {encoded.constants->fd()};
  }

  Result<std::vector<bool>> querySupported(const Model& model) const {
    // A compilation asks this first: a host that died is restarted here.
    ANNRT_ASSIGN_OR_RETURN(const uint64_t generation, channel_->ensureRunning());
    WireWriter out;
    out.put(index_);
    ANNRT_ASSIGN_OR_RETURN(const EncodedModel encoded, encodeModel(model, out));
    ANNRT_ASSIGN_OR_RETURN(auto reply, channel_->call(generation, MessageType::SUPPORTED,
                                                      out.bytes(), fdsOf(encoded)));
    WireReader in(reply);
    const auto status = in.get<int32_t>();
    const std::vector<uint8_t> flags = in.getBytes();
    ANNRT_RETURN_IF_ERROR(in.finish("SUPPORTED reply"));
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, status == 0, "status {}", status);
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, flags.size() == model.main.operations.size(),
                     "{} flags for {} operations", flags.size(), model.main.operations.size());
    return std::vector<bool>(flags.begin(), flags.end());
  }

  std::shared_ptr<HostChannel> channel_;
  const uint32_t index_;
  const HostDeviceInfo info_;
};

}  // namespace

std::vector<std::shared_ptr<Device>> isolatedDevices(const std::shared_ptr<HostChannel>& channel) {
  std::vector<std::shared_ptr<Device>> devices;
  devices.reserve(channel->hello().devices.size());
  for (uint32_t i = 0; i < channel->hello().devices.size(); ++i) {
    devices.push_back(std::make_shared<IsolatedDevice>(channel, i));
  }
  return devices;
}

}  // namespace annrt::abi
