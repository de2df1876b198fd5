// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// fuzz_nnapi_calls' input: a sequence of NDK calls, each a call byte then its
// arguments (byte_stream.h). The replayer makes the calls on the current
// model, one compilation (nnapi-reference) and short-lived executions, and
// frees everything at the end. kNewModel sets the current model aside (up to
// kMaxModels) and starts another, which may then reference the earlier ones
// (IF and WHILE bodies) with kSetOperandFromModel. The encoder (seed_writer)
// writes a CTS case's models as such a sequence, referenced models first.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <vector>

#include "byte_stream.h"

namespace annrt::fuzz {

enum class Call : uint8_t {
  kAddOperand,       // i32 type, u8 rank, u8 dims[rank], f32 scale, i32 zeroPoint
  kSetOperandValue,  // u16 index, u32 length (0xFFFFFFFF: null, no value), bytes
  kSetChannelQuant,  // u16 index, u32 channelDim, u8 count, f32 scales[count]
  kAddOperation,     // i32 type, u8 n, u16 inputs[n], u8 m, u16 outputs[m]
  kIdentify,         // u8 n, u16 inputs[n], u8 m, u16 outputs[m]
  kRelax,            // u8 flag
  kFinish,
  kCompile,  // on nnapi-reference (createForDevices) and finish
  kExecute,  // u8 n, u32 input lengths[n], u8 m, u32 output lengths[m]
  // Added after the first corpora: a call byte is taken modulo kCount, so
  // the ones above keep their values.
  kNewModel,
  kSetOperandFromModel,  // u16 index, u8 earlier model (modulo their count)
  kCount,
};

inline constexpr uint32_t kNoValue = 0xFFFFFFFFu;
inline constexpr uint8_t kMaxRank = 6;
// Caps on what one input may ask for, so that an input runs in well under
// a second: an operand of more elements has its dims reduced modulo 16.
inline constexpr uint64_t kMaxElements = 1 << 16;
inline constexpr uint32_t kMaxBuffer = 1 << 20;
inline constexpr uint32_t kMaxCalls = 256;
inline constexpr uint32_t kMaxModels = 8;

class CallWriter {
 public:
  void addOperand(int32_t type, const std::vector<uint32_t>& dims, float scale, int32_t zeroPoint) {
    call(Call::kAddOperand);
    out_.write(type);
    out_.write(static_cast<uint8_t>(dims.size()));
    for (uint32_t d : dims) out_.write(static_cast<uint8_t>(d));
    out_.write(scale);
    out_.write(zeroPoint);
  }
  void setOperandValue(uint32_t index, const std::vector<uint8_t>* value) {
    call(Call::kSetOperandValue);
    out_.write(static_cast<uint16_t>(index));
    out_.write(value ? static_cast<uint32_t>(value->size()) : kNoValue);
    if (value) out_.append(*value);
  }
  void setChannelQuant(uint32_t index, uint32_t channelDim, const std::vector<float>& scales) {
    call(Call::kSetChannelQuant);
    out_.write(static_cast<uint16_t>(index));
    out_.write(channelDim);
    out_.write(static_cast<uint8_t>(scales.size()));
    for (float s : scales) out_.write(s);
  }
  void addOperation(int32_t type, const std::vector<uint32_t>& inputs,
                    const std::vector<uint32_t>& outputs) {
    call(Call::kAddOperation);
    out_.write(type);
    indexes(inputs);
    indexes(outputs);
  }
  void identify(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
    call(Call::kIdentify);
    indexes(inputs);
    indexes(outputs);
  }
  void relax(bool flag) {
    call(Call::kRelax);
    out_.write(static_cast<uint8_t>(flag));
  }
  void setOperandFromModel(uint32_t index, uint32_t model) {
    call(Call::kSetOperandFromModel);
    out_.write(static_cast<uint16_t>(index));
    out_.write(static_cast<uint8_t>(model));
  }
  void newModel() { call(Call::kNewModel); }
  void finish() { call(Call::kFinish); }
  void compile() { call(Call::kCompile); }
  void execute(const std::vector<uint32_t>& inputLengths,
               const std::vector<uint32_t>& outputLengths) {
    call(Call::kExecute);
    for (const auto* lengths : {&inputLengths, &outputLengths}) {
      out_.write(static_cast<uint8_t>(lengths->size()));
      for (uint32_t length : *lengths) out_.write(length);
    }
  }
  const std::vector<uint8_t>& bytes() const { return out_.bytes; }

 private:
  void call(Call c) { out_.write(static_cast<uint8_t>(c)); }
  void indexes(const std::vector<uint32_t>& list) {
    out_.write(static_cast<uint8_t>(list.size()));
    for (uint32_t i : list) out_.write(static_cast<uint16_t>(i));
  }
  ByteWriter out_;
};

// Makes the calls `bytes` describe; returns when the input is used up.
void replayCalls(std::span<const uint8_t> bytes);

}  // namespace annrt::fuzz
