// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Any sequence of NDK model, compilation and execution calls (nnapi_calls.h):
// every result code is acceptable; crashes, leaks, hangs and UB are not.
#include <android/NeuralNetworks.h>

#include <memory>
#include <vector>

#include "client/devices.h"
#include "nnapi_calls.h"

namespace annrt::fuzz {
namespace {

std::vector<uint32_t> readIndexes(ByteReader& in) {
  std::vector<uint32_t> list(in.read<uint8_t>());
  for (uint32_t& index : list) index = in.read<uint16_t>();
  return list;
}

std::vector<uint32_t> boundedDims(ByteReader& in) {
  std::vector<uint32_t> dims(in.read<uint8_t>() % (kMaxRank + 1));
  uint64_t elements = 1;
  for (uint32_t& d : dims) elements *= (d = in.read<uint8_t>());
  if (elements > kMaxElements) {
    for (uint32_t& d : dims) d %= 16;
  }
  return dims;
}

class Replay {
 public:
  ~Replay() {
    ANeuralNetworksCompilation_free(compilation_);
    ANeuralNetworksModel_free(model_);
    for (ANeuralNetworksModel* model : earlier_) ANeuralNetworksModel_free(model);
  }
  void run(ByteReader& in) {
    ANeuralNetworksModel_create(&model_);
    for (uint32_t n = 0; n < kMaxCalls && !in.empty(); ++n) {
      call(static_cast<Call>(in.read<uint8_t>() % static_cast<uint8_t>(Call::kCount)), in);
    }
  }

 private:
  void call(Call c, ByteReader& in) {
    switch (c) {
      case Call::kAddOperand: return addOperand(in);
      case Call::kSetOperandValue: return setOperandValue(in);
      case Call::kSetChannelQuant: return setChannelQuant(in);
      case Call::kAddOperation: {
        const auto type = in.read<int32_t>();
        const auto inputs = readIndexes(in), outputs = readIndexes(in);
        ANeuralNetworksModel_addOperation(model_, type, inputs.size(), inputs.data(),
                                          outputs.size(), outputs.data());
        return;
      }
      case Call::kIdentify: {
        const auto inputs = readIndexes(in), outputs = readIndexes(in);
        ANeuralNetworksModel_identifyInputsAndOutputs(model_, inputs.size(), inputs.data(),
                                                      outputs.size(), outputs.data());
        return;
      }
      case Call::kRelax:
        ANeuralNetworksModel_relaxComputationFloat32toFloat16(model_, in.read<uint8_t>() & 1);
        return;
      case Call::kFinish: ANeuralNetworksModel_finish(model_); return;
      case Call::kCompile: return compile();
      case Call::kExecute: return execute(in);
      case Call::kNewModel: return newModel();
      case Call::kSetOperandFromModel: {
        const auto index = in.read<uint16_t>();
        const auto slot = in.read<uint8_t>();
        ANeuralNetworksModel_setOperandValueFromModel(
            model_, index, earlier_.empty() ? nullptr : earlier_[slot % earlier_.size()]);
        return;
      }
      case Call::kCount: return;
    }
  }
  void addOperand(ByteReader& in) {
    const auto type = in.read<int32_t>();
    const std::vector<uint32_t> dims = boundedDims(in);
    ANeuralNetworksOperandType operand{type, static_cast<uint32_t>(dims.size()), dims.data(),
                                       in.read<float>(), in.read<int32_t>()};
    ANeuralNetworksModel_addOperand(model_, &operand);
  }
  void setOperandValue(ByteReader& in) {
    const auto index = in.read<uint16_t>();
    const auto length = in.read<uint32_t>();
    if (length == kNoValue) {
      ANeuralNetworksModel_setOperandValue(model_, index, nullptr, 0);
      return;
    }
    // Values over 128 bytes are referenced, not copied: the input outlives
    // the model.
    const auto value = in.take(length);
    ANeuralNetworksModel_setOperandValue(model_, index, value.data(), value.size());
  }
  void setChannelQuant(ByteReader& in) {
    const auto index = in.read<uint16_t>();
    const auto channelDim = in.read<uint32_t>();
    std::vector<float> scales(in.read<uint8_t>());
    for (float& s : scales) s = in.read<float>();
    ANeuralNetworksSymmPerChannelQuantParams params{
        channelDim, static_cast<uint32_t>(scales.size()), scales.data()};
    ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model_, index, &params);
  }
  void newModel() {
    if (earlier_.size() == kMaxModels) return;
    earlier_.push_back(model_);
    model_ = nullptr;
    ANeuralNetworksModel_create(&model_);
  }
  void compile() {
    ANeuralNetworksCompilation_free(compilation_);
    compilation_ = nullptr;
    const ANeuralNetworksDevice* device = client::findDevice("nnapi-reference");
    if (ANeuralNetworksCompilation_createForDevices(model_, &device, 1, &compilation_) !=
        ANEURALNETWORKS_NO_ERROR) {
      return;
    }
    ANeuralNetworksCompilation_setTimeout(compilation_, 1'000'000'000);
    ANeuralNetworksCompilation_finish(compilation_);
  }
  void execute(ByteReader& in) {
    std::vector<std::vector<uint8_t>> inputs(in.read<uint8_t>());
    for (auto& buffer : inputs) buffer.resize(in.read<uint32_t>() % kMaxBuffer);
    std::vector<std::vector<uint8_t>> outputs(in.read<uint8_t>());
    for (auto& buffer : outputs) buffer.resize(in.read<uint32_t>() % kMaxBuffer);
    ANeuralNetworksExecution* execution = nullptr;
    if (ANeuralNetworksExecution_create(compilation_, &execution) != ANEURALNETWORKS_NO_ERROR) {
      return;
    }
    ANeuralNetworksExecution_setTimeout(execution, 500'000'000);
    ANeuralNetworksExecution_setLoopTimeout(execution, 10'000'000);
    for (size_t i = 0; i < inputs.size(); ++i) {
      ANeuralNetworksExecution_setInput(execution, i, nullptr, inputs[i].data(), inputs[i].size());
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      ANeuralNetworksExecution_setOutput(execution, i, nullptr, outputs[i].data(),
                                         outputs[i].size());
    }
    ANeuralNetworksExecution_compute(execution);
    ANeuralNetworksExecution_free(execution);
  }

  ANeuralNetworksModel* model_ = nullptr;
  // Set aside by kNewModel, freed after the model that may reference them.
  std::vector<ANeuralNetworksModel*> earlier_;
  ANeuralNetworksCompilation* compilation_ = nullptr;
};

}  // namespace

void replayCalls(std::span<const uint8_t> bytes) {
  ByteReader in(bytes);
  Replay().run(in);
}

}  // namespace annrt::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  annrt::fuzz::replayCalls({data, size});
  return 0;
}
