// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// An AnnrtModel and AnnrtRequest as a driver receives them through the
// plug-in ABI (include/annrt/driver.h), handed to a DeviceExporter of the
// reference device (what every driver built on exported_device.cpp does):
// getSupportedOperations, prepare, and an execution of the prepared model
// with the decoded request. Counts, indexes, types and lifetimes are
// whatever the bytes say; every pointer points at as many elements as its
// count says (the ABI's contract, which a receiver cannot check). A
// malformed model or request must be an error, never a crash: modelFromAbi
// validates the model as the runtime does (ops::validateModel), execute the
// request against it.
#include <android/NeuralNetworks.h>
#include <annrt/driver.h>

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "byte_stream.h"
#include "driver_abi/exported_device.h"
#include "drivers/reference/reference_device.h"

namespace {

using annrt::fuzz::ByteReader;

constexpr uint32_t kMaxBuffer = 1 << 20;

// Decodes the model and request; owns everything they point to.
class Decoded {
 public:
  explicit Decoded(ByteReader& in) {
    model.size = sizeof(AnnrtModel);
    model.relaxComputationFloat32toFloat16 = in.read<uint8_t>() & 1;
    const uint8_t referencedCount = in.read<uint8_t>() % 3;
    model.main = subgraph(in);
    for (uint8_t i = 0; i < referencedCount; ++i) referenced_.push_back(subgraph(in));
    model.referencedCount = referencedCount;
    model.referenced = referenced_.data();
    const uint8_t extensionCount = in.read<uint8_t>() % 3;
    for (uint8_t i = 0; i < extensionCount; ++i) {
      const auto name = in.take(in.read<uint8_t>() % 32);
      names_.emplace_back(name.begin(), name.end());
      extensions_.push_back({names_.back().c_str(), in.read<uint16_t>()});
    }
    model.extensionCount = extensionCount;
    model.extensions = extensions_.data();
    inputs_ = arguments(in);
    outputs_ = arguments(in);
    request = {static_cast<uint32_t>(inputs_.size()), inputs_.data(),
               static_cast<uint32_t>(outputs_.size()), outputs_.data()};
  }

  AnnrtModel model{};
  AnnrtRequest request{};

 private:
  const uint32_t* list(ByteReader& in, uint32_t count) {
    auto& values = u32_.emplace_back(count);
    for (uint32_t& v : values) v = in.read<uint32_t>();
    return values.data();
  }
  // Dims of at most 2^16 elements (a small input must not ask for gigabytes).
  const uint32_t* dims(ByteReader& in, uint32_t rank) {
    auto& values = u32_.emplace_back(rank);
    uint64_t elements = 1;
    for (uint32_t& d : values) elements *= (d = in.read<uint8_t>());
    if (elements > (1 << 16)) {
      for (uint32_t& d : values) d %= 16;
    }
    return values.data();
  }
  AnnrtOperand operand(ByteReader& in) {
    AnnrtOperand o{};
    o.type = in.read<int32_t>();
    o.rank = in.read<uint8_t>() % 7;
    o.dimensions = dims(in, o.rank);
    o.scale = in.read<float>();
    o.zeroPoint = in.read<int32_t>();
    o.lifetime = in.read<uint8_t>() % 8;
    o.channelDim = in.read<uint8_t>();
    o.scaleCount = in.read<uint8_t>() % 16;
    auto& scales = floats_.emplace_back(o.scaleCount);
    for (float& s : scales) s = in.read<float>();
    o.scales = scales.data();
    auto& data = bytes_.emplace_back();
    const auto value = in.take(in.read<uint16_t>());
    data.assign(value.begin(), value.end());
    o.data = data.data();
    o.length = data.size();
    o.subgraph = in.read<uint8_t>();
    return o;
  }
  AnnrtSubgraph subgraph(ByteReader& in) {
    AnnrtSubgraph s{};
    auto& operands = operands_.emplace_back(in.read<uint8_t>());
    for (AnnrtOperand& o : operands) o = operand(in);
    auto& operations = operations_.emplace_back(in.read<uint8_t>());
    for (AnnrtOperation& op : operations) {
      op.type = in.read<int32_t>();
      op.inputCount = in.read<uint8_t>() % 16;
      op.inputs = list(in, op.inputCount);
      op.outputCount = in.read<uint8_t>() % 8;
      op.outputs = list(in, op.outputCount);
    }
    s.operandCount = static_cast<uint32_t>(operands.size());
    s.operands = operands.data();
    s.operationCount = static_cast<uint32_t>(operations.size());
    s.operations = operations.data();
    s.inputCount = in.read<uint8_t>() % 8;
    s.inputs = list(in, s.inputCount);
    s.outputCount = in.read<uint8_t>() % 8;
    s.outputs = list(in, s.outputCount);
    return s;
  }
  std::vector<AnnrtArgument> arguments(ByteReader& in) {
    std::vector<AnnrtArgument> result(in.read<uint8_t>() % 8);
    for (AnnrtArgument& a : result) {
      a.omitted = in.read<uint8_t>() & 1;
      auto& buffer = bytes_.emplace_back(in.read<uint32_t>() % kMaxBuffer);
      a.data = buffer.data();
      a.length = buffer.size();
      a.rank = in.read<uint8_t>() % 7;
      a.dimensions = dims(in, a.rank);
    }
    return result;
  }

  std::deque<std::vector<uint32_t>> u32_;
  std::deque<std::vector<float>> floats_;
  std::deque<std::vector<uint8_t>> bytes_;
  std::deque<std::vector<AnnrtOperand>> operands_;
  std::deque<std::vector<AnnrtOperation>> operations_;
  std::deque<std::string> names_;
  std::vector<AnnrtSubgraph> referenced_;
  std::vector<AnnrtExtension> extensions_;
  std::vector<AnnrtArgument> inputs_, outputs_;
};

// Execution bounds as fuzz_nnapi_calls': a WHILE loop stops after 10 ms, the
// execution after 0.5 s.
constexpr uint64_t kLoopTimeoutNs = 10'000'000;
constexpr int64_t kExecutionTimeoutNs = 500'000'000;

void execute(const AnnrtDevice& device, AnnrtPreparedModel* prepared, const Decoded& decoded) {
  AnnrtExecuteOptions options{};
  options.size = sizeof(options);
  options.measureTiming = true;
  options.deadlineNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count() +
                       kExecutionTimeoutNs;
  options.loopTimeoutNs = kLoopTimeoutNs;
  const AnnrtResultSink sink{nullptr,
                             [](AnnrtExecuteResult*, uint32_t, uint32_t, const uint32_t*, bool) {},
                             [](AnnrtExecuteResult*, uint64_t, uint64_t) {},
                             [](AnnrtExecuteResult*, uint32_t, uint64_t) {}};
  AnnrtMessage message{};
  device.execute(prepared, &decoded.request, &options, &sink, &message);
}

// Prepares the model, executes it, and releases it.
void prepareAndExecute(const AnnrtDevice& device, const Decoded& decoded) {
  AnnrtPrepareOptions options{};
  options.size = sizeof(options);
  options.preference = ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER;
  options.priority = ANEURALNETWORKS_PRIORITY_DEFAULT;
  options.deadlineNs = -1;
  AnnrtPreparedModel* prepared = nullptr;
  AnnrtMessage message{};
  if (device.prepare(device.context, &decoded.model, &options, &prepared, &message) == 0) {
    execute(device, prepared, decoded);
    device.release(prepared);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const annrt::abi::DeviceExporter exporter("fuzz",
                                                   {annrt::reference::createReferenceDevice()});
  const AnnrtDevice& device = exporter.driver()->devices[0];
  ByteReader in({data, size});
  const Decoded decoded(in);
  std::vector<uint8_t> supported(decoded.model.main.operationCount + 1);
  device.getSupportedOperations(device.context, &decoded.model,
                                reinterpret_cast<bool*>(supported.data()));
  prepareAndExecute(device, decoded);
  return 0;
}
