// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Models for the tests of annrt-cpu's stage plans and staged graphs: a heavy
// convolution followed by a tail of operations on a tensor 64 times smaller.
#pragma once

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "internal_model.h"

namespace annrt::test {

inline std::vector<float> seededValues(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& value : values) value = distribution(generator);
  return values;
}

// A CONV_2D of `input` by `filter` (an operand), stride 1, with a seeded
// bias; returns its output, of `outputDims`.
inline uint32_t addConv(InternalModel& m, uint32_t input, uint32_t filter,
                        const std::vector<uint32_t>& outputDims, int32_t padding,
                        int32_t activation) {
  const uint32_t output = m.tensor(outputDims);
  const uint32_t channels = outputDims.back();
  m.operation(ANEURALNETWORKS_CONV_2D,
              {input, filter, m.constant({channels}, seededValues(channels, 2)), m.int32(padding),
               m.int32(1), m.int32(1), m.int32(activation)},
              {output});
  return output;
}

inline constexpr size_t kHeadElements = size_t{64} * 64 * 16;  // the convolution's output
inline constexpr size_t kTailElements = size_t{8} * 8 * 16;

// Operations: 0 CONV_2D 3x3 16->16 on 64x64 (RELU; about 19 MFLOP),
// 1 MAX_POOL_2D 8x8 -> [1,8,8,16], 2 ADD of a constant, 3 LOGISTIC, 4 MUL
// by the pooled tensor (read two operations after it is made), 5 TANH.
// Outputs: the convolution's (read again by operation 1) and the TANH's.
inline std::shared_ptr<const Model> headAndTailModel() {
  InternalModel m;
  const uint32_t input = m.tensor({1, 64, 64, 16});
  const uint32_t conv =
      addConv(m, input, m.constant({16, 3, 3, 16}, seededValues(size_t{16} * 9 * 16, 1)),
              {1, 64, 64, 16}, ANEURALNETWORKS_PADDING_SAME, ANEURALNETWORKS_FUSED_RELU);
  const uint32_t pooled = m.maxPool(conv, 8, {1, 8, 8, 16});
  const uint32_t added = m.tensor({1, 8, 8, 16});
  m.operation(ANEURALNETWORKS_ADD,
              {pooled, m.constant({16}, seededValues(16, 3)), m.int32(ANEURALNETWORKS_FUSED_NONE)},
              {added});
  const uint32_t logistic = m.tensor({1, 8, 8, 16});
  m.operation(ANEURALNETWORKS_LOGISTIC, {added}, {logistic});
  const uint32_t product = m.tensor({1, 8, 8, 16});
  m.operation(ANEURALNETWORKS_MUL, {logistic, pooled, m.int32(ANEURALNETWORKS_FUSED_NONE)},
              {product});
  const uint32_t tanh = m.tensor({1, 8, 8, 16});
  m.operation(ANEURALNETWORKS_TANH, {product}, {tanh});
  return m.finish({input}, {conv, tanh});
}

// `dims` grown by `paddings` ([before, after] per axis).
inline std::vector<uint32_t> paddedDims(std::vector<uint32_t> dims,
                                        const std::vector<int32_t>& paddings) {
  for (size_t axis = 0; axis < dims.size(); ++axis) {
    dims[axis] += static_cast<uint32_t>(paddings[2 * axis] + paddings[2 * axis + 1]);
  }
  return dims;
}

// A PAD of zeros of `input` (of `dims`) by `paddings`; returns its output.
inline uint32_t addPad(InternalModel& m, uint32_t input, const std::vector<uint32_t>& dims,
                       const std::vector<int32_t>& paddings) {
  const uint32_t padded = m.tensor(paddedDims(dims, paddings));
  std::vector<uint8_t> bytes(paddings.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), paddings.data(), bytes.size());
  const auto pairs = static_cast<uint32_t>(paddings.size() / 2);
  m.operation(ANEURALNETWORKS_PAD,
              {input, m.constantBytes({pairs, 2}, ANEURALNETWORKS_TENSOR_INT32, bytes)}, {padded});
  return padded;
}

// A RESHAPE of `input` to `dims`; returns its output.
inline uint32_t addReshape(InternalModel& m, uint32_t input, const std::vector<uint32_t>& dims) {
  const uint32_t output = m.tensor(dims);
  std::vector<uint8_t> bytes(dims.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), dims.data(), bytes.size());  // small non-negative: int32 bytes
  const auto rank = static_cast<uint32_t>(dims.size());
  m.operation(ANEURALNETWORKS_RESHAPE,
              {input, m.constantBytes({rank}, ANEURALNETWORKS_TENSOR_INT32, bytes)}, {output});
  return output;
}

// Operations: 0 PAD of height and width by 1 ([1,62,62,16] -> [1,64,64,16]),
// 1 CAST of a float16 filter, 2 CONV_2D 3x3 VALID (about 18 MFLOP), 3 RELU,
// 4 MAX_POOL_2D to [1,1,1,16], then 5-8 LOGISTIC and TANH by turns.
inline std::shared_ptr<const Model> padConvReluModel() {
  InternalModel m;
  const uint32_t input = m.tensor({1, 62, 62, 16});
  const uint32_t padded = addPad(m, input, {1, 62, 62, 16}, {0, 0, 1, 1, 1, 1, 0, 0});
  const std::vector<uint8_t> halfFilter(size_t{16} * 3 * 3 * 16 * 2, 0x3c);  // 1.0586 as float16
  const uint32_t filter = m.tensor({16, 3, 3, 16});
  m.operation(ANEURALNETWORKS_CAST,
              {m.constantBytes({16, 3, 3, 16}, ANEURALNETWORKS_TENSOR_FLOAT16, halfFilter)},
              {filter});
  const uint32_t conv = addConv(m, padded, filter, {1, 62, 62, 16}, ANEURALNETWORKS_PADDING_VALID,
                                ANEURALNETWORKS_FUSED_NONE);
  const uint32_t relu = m.tensor({1, 62, 62, 16});
  m.operation(ANEURALNETWORKS_RELU, {conv}, {relu});
  uint32_t x = m.maxPool(relu, 62, {1, 1, 1, 16});
  for (int i = 0; i < 4; ++i) {
    const uint32_t next = m.tensor({1, 1, 1, 16});
    m.operation(i % 2 ? ANEURALNETWORKS_TANH : ANEURALNETWORKS_LOGISTIC, {x}, {next});
    x = next;
  }
  return m.finish({input}, {x});
}

}  // namespace annrt::test
