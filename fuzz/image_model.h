// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// fuzz_cpu_vs_reference's input format: a small float32 NHWC image model as
// fixed-size records, so every byte string decodes to a model and a mutation
// of one byte changes one parameter of one operation. The header gives the
// seed of the values and the input's dims; each step is one operation on the
// tensor the previous step made. What each parameter byte means is said by
// the decoder (fuzz_cpu_vs_reference.cpp), which reduces every byte to a
// valid range.
#pragma once

#include <cstdint>
#include <vector>

#include "byte_stream.h"

namespace annrt::fuzz {

enum class ImageStep : uint8_t {
  kConvolution,
  kDepthwise,
  kTransposedConvolution,
  kPool,
  kReduce,
  kBinary,
  kConcatenation,
  kPad,
  kReshape,
  kUnary,
  kResize,
  kSoftmax,
  kFullyConnected,  // ends the model: its output is not an image
  kDepthToSpace,
  kGroupedConvolution,
  kCount
};

// batch: bit 0 the batch (1 or 2), bit 1 an unknown batch in the model.
// height: bits 0-4 the height - 1, bit 7 an 8-bit quantized model (bit 6:
// signed).
struct ImageHeader {
  uint64_t valueSeed = 0;
  uint8_t batch = 0, height = 0, width = 0, channels = 0;
  uint8_t steps = 0;
};

struct ImageStepRecord {
  uint8_t kind = 0;
  uint8_t p[7] = {};
};

inline constexpr uint32_t kMaxImageSteps = 6;

// Seeds: the header, then one record per step.
inline void writeImageHeader(ByteWriter& out, const ImageHeader& header) {
  out.write(header.valueSeed);
  for (uint8_t field : {header.batch, header.height, header.width, header.channels, header.steps}) {
    out.write(field);
  }
}

inline void writeImageStep(ByteWriter& out, ImageStep kind, const std::vector<uint8_t>& p) {
  out.write(static_cast<uint8_t>(kind));
  uint8_t fields[7] = {};
  size_t i = 0;
  for (uint8_t value : p) {
    if (i < 7) fields[i++] = value;
  }
  for (uint8_t value : fields) out.write(value);
}

}  // namespace annrt::fuzz
