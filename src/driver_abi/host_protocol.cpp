// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "driver_abi/host_protocol.h"

#include <algorithm>

#include "common/align.h"
#include "driver_abi/abi_model.h"

namespace annrt::abi {
namespace {

constexpr size_t kConstantAlignment = 64;

// The host's view of the constants memfd as a model's pool.
class RegionPool final : public MemoryPool {
 public:
  explicit RegionPool(std::shared_ptr<const SharedRegion> region) : region_(std::move(region)) {}
  uint8_t* data() const override { return region_ ? region_->data() : nullptr; }
  size_t size() const override { return region_ ? region_->size() : 0; }

 private:
  std::shared_ptr<const SharedRegion> region_;
};

void putPerformance(const PerformanceInfo& p, WireWriter& out) {
  out.put(p.execTime);
  out.put(p.powerUsage);
}

PerformanceInfo getPerformance(WireReader& in) {
  PerformanceInfo p;
  p.execTime = in.get<float>();
  p.powerUsage = in.get<float>();
  return p;
}

void encodeCapabilities(const Capabilities& c, WireWriter& out) {
  for (const PerformanceInfo* p :
       {&c.relaxedFloat32toFloat16Scalar, &c.relaxedFloat32toFloat16Tensor, &c.ifPerformance,
        &c.whilePerformance, &c.defaultPerformance}) {
    putPerformance(*p, out);
  }
  out.put<uint32_t>(static_cast<uint32_t>(c.operandPerformance.size()));
  for (const auto& [type, performance] : c.operandPerformance) {
    out.put(static_cast<int32_t>(type));
    putPerformance(performance, out);
  }
}

Capabilities decodeCapabilities(WireReader& in) {
  Capabilities c;
  for (PerformanceInfo* p : {&c.relaxedFloat32toFloat16Scalar, &c.relaxedFloat32toFloat16Tensor,
                             &c.ifPerformance, &c.whilePerformance, &c.defaultPerformance}) {
    *p = getPerformance(in);
  }
  const uint32_t count = in.getCount(12);
  for (uint32_t i = 0; i < count; ++i) {
    const auto type = static_cast<OperandType>(in.get<int32_t>());
    c.operandPerformance[type] = getPerformance(in);
  }
  return c;
}

int64_t deadlineToWire(const std::optional<Clock::time_point>& deadline) {
  if (!deadline) return -1;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(deadline->time_since_epoch()).count();
}

std::optional<Clock::time_point> deadlineFromWire(int64_t ns) {
  if (ns < 0) return std::nullopt;
  return Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(ns)));
}

// Offsets of each constant operand's bytes in the constants region.
struct ConstantLayout {
  std::vector<std::vector<uint64_t>> offsets;  // per subgraph, per operand
  uint64_t size = 0;
};

ConstantLayout layoutConstants(const Model& model) {
  ConstantLayout layout;
  auto place = [&](const Subgraph& subgraph) {
    std::vector<uint64_t>& offsets = layout.offsets.emplace_back();
    for (const Operand& operand : subgraph.operands) {
      offsets.push_back(layout.size);
      if (model.constantData(operand) == nullptr) continue;
      layout.size += alignUp(operand.location.length, kConstantAlignment);
    }
  };
  place(model.main);
  for (const Subgraph& subgraph : model.referenced) place(subgraph);
  return layout;
}

void encodeSubgraph(const Model& model, const Subgraph& subgraph,
                    const std::vector<uint64_t>& offsets, uint8_t* constants, WireWriter& out) {
  out.put<uint32_t>(static_cast<uint32_t>(subgraph.operands.size()));
  for (size_t i = 0; i < subgraph.operands.size(); ++i) {
    const Operand& operand = subgraph.operands[i];
    out.put(static_cast<int32_t>(operand.shape.type));
    out.putU32s(operand.shape.dims);
    out.put(operand.shape.scale);
    out.put(operand.shape.zeroPoint);
    const uint8_t* data = model.constantData(operand);
    const bool constant = data != nullptr;
    out.put(abiLifetime(operand.lifetime));
    out.put<uint8_t>(operand.shape.channelQuant.has_value());
    if (operand.shape.channelQuant) {
      out.put(operand.shape.channelQuant->channelDim);
      out.put<uint32_t>(static_cast<uint32_t>(operand.shape.channelQuant->scales.size()));
      for (float scale : operand.shape.channelQuant->scales) out.put(scale);
    }
    out.put<uint64_t>(constant ? offsets[i] : 0);
    out.put<uint64_t>(constant ? operand.location.length : 0);
    out.put<uint64_t>(operand.lifetime == Lifetime::SUBGRAPH ? operand.location.offset : 0);
    out.putBytes(operand.extensionData);
    if (constant && operand.location.length > 0) {
      std::memcpy(constants + offsets[i], data, operand.location.length);
    }
  }
  out.put<uint32_t>(static_cast<uint32_t>(subgraph.operations.size()));
  for (const Operation& operation : subgraph.operations) {
    out.put(static_cast<int32_t>(operation.type));
    out.putU32s(operation.inputs);
    out.putU32s(operation.outputs);
  }
  out.putU32s(subgraph.inputIndexes);
  out.putU32s(subgraph.outputIndexes);
}

Result<void> checkIndexes(const std::vector<uint32_t>& indexes, size_t operandCount,
                          const char* what) {
  for (uint32_t index : indexes) {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, index < operandCount,
                     "malformed model: {} names operand {} of {}", what, index, operandCount);
  }
  return {};
}

Result<Operand> decodeOperand(WireReader& in, uint32_t subgraphCount, size_t constantsSize) {
  Operand operand;
  operand.shape.type = static_cast<OperandType>(in.get<int32_t>());
  operand.shape.dims = in.getU32s();
  operand.shape.scale = in.get<float>();
  operand.shape.zeroPoint = in.get<int32_t>();
  const auto lifetime = in.get<int32_t>();
  if (in.getBool()) {
    ChannelQuant quant;
    quant.channelDim = in.get<uint32_t>();
    const uint32_t count = in.getCount(sizeof(float));
    for (uint32_t i = 0; i < count; ++i) quant.scales.push_back(in.get<float>());
    operand.shape.channelQuant = std::move(quant);
  }
  const auto offset = in.get<uint64_t>();
  const auto length = in.get<uint64_t>();
  const auto subgraph = in.get<uint64_t>();
  operand.extensionData = in.getBytes();
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, in.ok(), "malformed model: an operand ends early");
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, knownLifetime(lifetime),
                   "malformed model: operand lifetime {}", lifetime);
  if (lifetime == ANNRT_LIFETIME_CONSTANT) {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                     offset <= constantsSize && length <= constantsSize - offset,
                     "malformed model: constant bytes [{}, +{}) outside the {} shared", offset,
                     length, constantsSize);
    operand.lifetime = Lifetime::CONSTANT_REFERENCE;
    operand.location = {0, offset, length};
  } else {
    operand.lifetime = static_cast<Lifetime>(lifetime);
  }
  if (operand.lifetime == Lifetime::SUBGRAPH) {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, subgraph < subgraphCount,
                     "malformed model: subgraph {} of {}", subgraph, subgraphCount);
    operand.location.offset = subgraph;
  }
  return operand;
}

Result<Subgraph> decodeSubgraph(WireReader& in, uint32_t subgraphCount, size_t constantsSize) {
  Subgraph subgraph;
  const uint32_t operandCount = in.getCount(48);
  for (uint32_t i = 0; i < operandCount; ++i) {
    ANNRT_ASSIGN_OR_RETURN(Operand operand, decodeOperand(in, subgraphCount, constantsSize));
    subgraph.operands.push_back(std::move(operand));
  }
  const uint32_t operationCount = in.getCount(12);
  for (uint32_t i = 0; i < operationCount; ++i) {
    Operation operation;
    operation.type = static_cast<OperationType>(in.get<int32_t>());
    operation.inputs = in.getU32s();
    operation.outputs = in.getU32s();
    ANNRT_RETURN_IF_ERROR(checkIndexes(operation.inputs, operandCount, "an operation input"));
    ANNRT_RETURN_IF_ERROR(checkIndexes(operation.outputs, operandCount, "an operation output"));
    for (uint32_t index : operation.inputs) ++subgraph.operands[index].consumers;
    subgraph.operations.push_back(std::move(operation));
  }
  subgraph.inputIndexes = in.getU32s();
  subgraph.outputIndexes = in.getU32s();
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, in.ok(), "malformed model: a subgraph ends early");
  ANNRT_RETURN_IF_ERROR(checkIndexes(subgraph.inputIndexes, operandCount, "a subgraph input"));
  ANNRT_RETURN_IF_ERROR(checkIndexes(subgraph.outputIndexes, operandCount, "a subgraph output"));
  return subgraph;
}

void encodeArgument(const ArenaArgument& a, WireWriter& out) {
  out.put<uint8_t>(a.omitted);
  out.put(a.file);
  out.put(a.offset);
  out.put(a.length);
  out.putU32s(a.dims);
}

ArenaArgument decodeArgument(WireReader& in) {
  ArenaArgument a;
  a.omitted = in.getBool();
  a.file = in.get<int32_t>();
  a.offset = in.get<uint64_t>();
  a.length = in.get<uint64_t>();
  a.dims = in.getU32s();
  return a;
}

}  // namespace

void encodeHello(const Hello& hello, WireWriter& out) {
  out.put(hello.status);
  out.putString(hello.message);
  out.putString(hello.driverName);
  out.put<uint32_t>(static_cast<uint32_t>(hello.devices.size()));
  for (const HostDeviceInfo& device : hello.devices) {
    out.putString(device.name);
    out.putString(device.version);
    out.put(device.type);
    out.put(device.featureLevel);
    encodeCapabilities(device.capabilities, out);
  }
}

Result<Hello> decodeHello(std::span<const uint8_t> payload) {
  WireReader in(payload);
  Hello hello;
  hello.status = in.get<int32_t>();
  hello.message = in.getString();
  hello.driverName = in.getString();
  const uint32_t count = in.getCount(16);
  for (uint32_t i = 0; i < count && in.ok(); ++i) {
    HostDeviceInfo device;
    device.name = in.getString();
    device.version = in.getString();
    device.type = in.get<int32_t>();
    device.featureLevel = in.get<int64_t>();
    device.capabilities = decodeCapabilities(in);
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, !device.name.empty(), "a host device has no name");
    hello.devices.push_back(std::move(device));
  }
  ANNRT_RETURN_IF_ERROR(in.finish("HELLO"));
  return hello;
}

Result<EncodedModel> encodeModel(const Model& model, WireWriter& out) {
  const ConstantLayout layout = layoutConstants(model);
  EncodedModel encoded;
  if (layout.size > 0) {
    ANNRT_ASSIGN_OR_RETURN(encoded.constants,
                           SharedRegion::create(layout.size, "annrt-model-constants"));
  }
  uint8_t* constants = encoded.constants ? encoded.constants->data() : nullptr;
  out.put<uint8_t>(model.relaxComputationFloat32toFloat16);
  out.put<uint32_t>(static_cast<uint32_t>(model.extensions.size()));
  for (const ExtensionPrefix& extension : model.extensions) {
    out.putString(extension.name);
    out.put(extension.prefix);
  }
  out.put<uint32_t>(static_cast<uint32_t>(model.referenced.size() + 1));
  encodeSubgraph(model, model.main, layout.offsets[0], constants, out);
  for (size_t i = 0; i < model.referenced.size(); ++i) {
    encodeSubgraph(model, model.referenced[i], layout.offsets[i + 1], constants, out);
  }
  return encoded;
}

Result<std::shared_ptr<Model>> decodeModel(WireReader& in,
                                           std::shared_ptr<const SharedRegion> constants) {
  auto model = std::make_shared<Model>();
  const size_t constantsSize = constants ? constants->size() : 0;
  model->pools.push_back(std::make_shared<RegionPool>(std::move(constants)));
  model->relaxComputationFloat32toFloat16 = in.getBool();
  const uint32_t extensionCount = in.getCount(10);
  for (uint32_t i = 0; i < extensionCount; ++i) {
    ExtensionPrefix extension;
    extension.name = in.getString();
    extension.prefix = in.get<uint16_t>();
    model->extensions.push_back(std::move(extension));
  }
  const uint32_t subgraphCount = in.getCount(16);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, in.ok() && subgraphCount >= 1,
                   "malformed model: no main subgraph");
  ANNRT_ASSIGN_OR_RETURN(model->main, decodeSubgraph(in, subgraphCount, constantsSize));
  for (uint32_t i = 1; i < subgraphCount; ++i) {
    ANNRT_ASSIGN_OR_RETURN(Subgraph subgraph, decodeSubgraph(in, subgraphCount, constantsSize));
    model->referenced.push_back(std::move(subgraph));
  }
  return model;
}

void encodePrepareOptions(const PrepareOptions& options, WireWriter& out) {
  out.put(options.preference);
  out.put(options.priority);
  out.put(deadlineToWire(options.deadline));
  out.put(options.numThreads);
  out.put(options.token);
}

PrepareOptions decodePrepareOptions(WireReader& in) {
  PrepareOptions options;
  options.preference = in.get<int32_t>();
  options.priority = in.get<int32_t>();
  options.deadline = deadlineFromWire(in.get<int64_t>());
  options.numThreads = std::min(in.get<uint32_t>(), kMaxThreadCount);
  options.token = in.get<std::array<uint8_t, kCacheTokenSize>>();
  return options;
}

void encodeExecuteRequest(const ExecuteRequest& request, WireWriter& out) {
  out.put(request.prepared);
  out.put(request.arenaSize);
  out.put<uint8_t>(request.newArena);
  out.put(request.fileCount);
  out.put<uint8_t>(request.options.measureTiming);
  out.put<uint8_t>(request.options.profileOperations);
  out.put(deadlineToWire(request.options.deadline));
  out.put(request.options.loopTimeoutNs);
  for (const auto* list : {&request.inputs, &request.outputs}) {
    out.put<uint32_t>(static_cast<uint32_t>(list->size()));
    for (const ArenaArgument& a : *list) encodeArgument(a, out);
  }
}

Result<ExecuteRequest> decodeExecuteRequest(std::span<const uint8_t> payload) {
  WireReader in(payload);
  ExecuteRequest request;
  request.prepared = in.get<uint64_t>();
  request.arenaSize = in.get<uint64_t>();
  request.newArena = in.getBool();
  request.fileCount = in.get<uint32_t>();
  request.options.measureTiming = in.getBool();
  request.options.profileOperations = in.getBool();
  request.options.deadline = deadlineFromWire(in.get<int64_t>());
  request.options.loopTimeoutNs = in.get<uint64_t>();
  for (auto* list : {&request.inputs, &request.outputs}) {
    const uint32_t count = in.getCount(25);
    for (uint32_t i = 0; i < count; ++i) list->push_back(decodeArgument(in));
  }
  ANNRT_RETURN_IF_ERROR(in.finish("EXECUTE"));
  return request;
}

Result<void> checkArenaLayout(const ExecuteRequest& request, uint64_t arenaSize,
                              const std::vector<uint64_t>& fileSizes) {
  const uint64_t page = pageSize();
  struct Range {
    uint64_t begin, end;
  };
  std::vector<Range> used;
  for (const auto* list : {&request.inputs, &request.outputs}) {
    for (const ArenaArgument& a : *list) {
      if (a.omitted) continue;
      if (a.file >= 0) {
        ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, static_cast<size_t>(a.file) < fileSizes.size(),
                         "an argument in file {} of {}", a.file, fileSizes.size());
        const uint64_t size = fileSizes[a.file];
        ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, a.offset <= size && a.length <= size - a.offset,
                         "an argument [{}, +{}) outside its file of {} bytes", a.offset, a.length,
                         size);
        continue;
      }
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, a.file == -1, "an argument in file {}", a.file);
      ANNRT_CHECK_CODE(
          ErrorCode::OP_FAILED, a.offset <= arenaSize && a.length <= arenaSize - a.offset,
          "an argument [{}, +{}) outside the arena of {} bytes", a.offset, a.length, arenaSize);
      used.push_back({a.offset, a.offset + a.length});
    }
  }
  for (const ArenaArgument& a : request.outputs) {
    if (a.omitted || a.length == 0 || a.file >= 0) continue;
    const uint64_t guard = a.offset + a.length;
    ANNRT_CHECK_CODE(
        ErrorCode::OP_FAILED, guard % page == 0 && arenaSize >= page && guard <= arenaSize - page,
        "an output ending at {} has no guard page in the arena of {} bytes", guard, arenaSize);
    for (const Range& r : used) {
      ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, r.end <= guard || r.begin >= guard + page,
                       "the guard page at {} overlaps an argument", guard);
    }
  }
  return {};
}

void encodeOutcome(const ExecutionOutcome& outcome, WireWriter& out) {
  out.put(static_cast<int32_t>(outcome.status));
  out.putString(outcome.message);
  out.put<uint32_t>(static_cast<uint32_t>(outcome.outputShapes.size()));
  for (const OutputShape& shape : outcome.outputShapes) {
    out.put<uint8_t>(shape.isSufficient);
    out.putU32s(shape.dims);
  }
  out.put(outcome.timing.onDeviceNs);
  out.put(outcome.timing.inDriverNs);
  out.put<uint32_t>(static_cast<uint32_t>(outcome.operationNs.size()));
  for (uint64_t ns : outcome.operationNs) out.put(ns);
}

Result<ExecutionOutcome> decodeOutcome(std::span<const uint8_t> payload, size_t outputCount) {
  WireReader in(payload);
  ExecutionOutcome outcome;
  outcome.status = static_cast<ErrorCode>(in.get<int32_t>());
  outcome.message = in.getString();
  const uint32_t shapes = in.getCount(5);
  for (uint32_t i = 0; i < shapes; ++i) {
    OutputShape shape;
    shape.isSufficient = in.getBool();
    shape.dims = in.getU32s();
    outcome.outputShapes.push_back(std::move(shape));
  }
  outcome.timing.onDeviceNs = in.get<uint64_t>();
  outcome.timing.inDriverNs = in.get<uint64_t>();
  const uint32_t times = in.getCount(sizeof(uint64_t));
  for (uint32_t i = 0; i < times; ++i) outcome.operationNs.push_back(in.get<uint64_t>());
  ANNRT_RETURN_IF_ERROR(in.finish("EXECUTE reply"));
  const int32_t status = static_cast<int32_t>(outcome.status);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, status >= 0 && status <= 14,
                   "the driver host reported status {}", status);
  // A failure the host found before running the driver carries no shapes.
  const bool ran = outcome.status == ErrorCode::NO_ERROR ||
                   outcome.status == ErrorCode::OUTPUT_INSUFFICIENT_SIZE;
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, shapes == outputCount || (!ran && shapes == 0),
                   "the driver host reported {} output shapes for {} outputs", shapes, outputCount);
  return outcome;
}

}  // namespace annrt::abi
