// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// fuzz_cpu_vs_reference's models: the bytes of an image model
// (image_model.h) built through client::GraphBuilder, float32 or 8-bit
// quantized, with their input's values.
#pragma once

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "byte_stream.h"
#include "client/graph_builder.h"
#include "common/types.h"
#include "image_model.h"

namespace annrt::fuzz {

// Per tensor; a filter may have twice as many. Keeps one input well under a
// second under ASan.
inline constexpr uint64_t kMaxElements = 1 << 15;

// annrt's, named here for the fuzz targets' code outside this namespace.
using annrt::elementCount;

using Dims = std::vector<uint32_t>;

// splitmix64: the inputs' and constants' values, in [-limit, limit).
class Values {
 public:
  explicit Values(uint64_t seed) : state_(seed) {}
  float uniform(float limit) {
    state_ += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return limit * (static_cast<float>(z >> 40) / static_cast<float>(1 << 23) - 1.0f);
  }
  std::vector<float> fill(uint64_t count, float limit) {
    std::vector<float> v(count);
    for (float& x : v) x = uniform(limit);
    return v;
  }

 private:
  uint64_t state_;
};

using client::TensorType;

struct Image {
  uint32_t operand = 0;
  Dims dims;  // NHWC, or [batch, units] after FULLY_CONNECTED
  TensorType type;
};

// The tensor types of a model: all float32, or 8-bit quantized (unsigned or
// signed, zero points 128 apart) with activations in steps of 1/32 (+-4),
// inputs and constants in steps of 1/128 (+-1), and the fixed output ranges
// NNAPI asks of LOGISTIC, TANH and SOFTMAX.
class Quantization {
 public:
  explicit Quantization(int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) : type_(type) {}
  bool quantized() const { return type_ != ANEURALNETWORKS_TENSOR_FLOAT32; }
  static constexpr float activationStep() { return 1.0f / 32; }
  TensorType activation() const { return of(activationStep(), 128); }
  TensorType unit() const { return of(1.0f / 128, 128); }
  TensorType probability() const { return of(1.0f / 256, 0); }
  TensorType weights(float limit) const { return of(limit / 127, 128); }
  TensorType bias(const TensorType& input, const TensorType& weights) const {
    if (!quantized()) return {};
    return {ANEURALNETWORKS_TENSOR_INT32, input.scale * weights.scale, 0};
  }

  static std::vector<uint8_t> encode(const std::vector<float>& values, const TensorType& t) {
    if (t.type == ANEURALNETWORKS_TENSOR_FLOAT32) return client::toBytes(values);
    if (t.type == ANEURALNETWORKS_TENSOR_INT32) {
      std::vector<int32_t> q(values.size());
      for (size_t i = 0; i < q.size(); ++i)
        q[i] = static_cast<int32_t>(std::lround(values[i] / t.scale));
      return client::toBytes(q);
    }
    const bool isSigned = t.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    const long low = isSigned ? -128 : 0, high = isSigned ? 127 : 255;
    std::vector<uint8_t> bytes(values.size());
    for (size_t i = 0; i < bytes.size(); ++i) {
      const long q = std::clamp(std::lround(values[i] / t.scale) + t.zeroPoint, low, high);
      bytes[i] = static_cast<uint8_t>(q);
    }
    return bytes;
  }
  static std::vector<float> decode(const std::vector<uint8_t>& bytes, const TensorType& t) {
    if (t.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
      std::vector<float> v(bytes.size() / sizeof(float));
      std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
      return v;
    }
    const bool isSigned = t.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    std::vector<float> v(bytes.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const int32_t q = isSigned ? static_cast<int8_t>(bytes[i]) : bytes[i];
      v[i] = static_cast<float>(q - t.zeroPoint) * t.scale;
    }
    return v;
  }
  static size_t elementBytes(const TensorType& t) {
    return t.type == ANEURALNETWORKS_TENSOR_FLOAT32 ? sizeof(float) : 1;
  }

 private:
  // `unsignedZero` is the zero point of the unsigned type.
  TensorType of(float scale, int32_t unsignedZero) const {
    if (!quantized()) return {};
    const bool isSigned = type_ == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    return {type_, scale, isSigned ? unsignedZero - 128 : unsignedZero};
  }

  int32_t type_;
};

// A convolution's or pool's padding: explicit (scheme 0) or implicit, and
// the output's height and width.
struct Window {
  int32_t scheme = 0;
  uint32_t left = 0, right = 0, top = 0, bottom = 0;
  uint32_t height = 0, width = 0;
};

struct WindowShape {
  uint32_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
};

// mode % 4: SAME, VALID, explicit pads from `pads` (two bits each, below the
// dilated filter's size), explicit zero pads.
inline std::optional<Window> decodeWindow(uint8_t mode, uint8_t pads, const Dims& in,
                                          const WindowShape& s) {
  const uint32_t eh = (s.kh - 1) * s.dh + 1, ew = (s.kw - 1) * s.dw + 1;
  Window w;
  switch (mode % 4) {
    case 0:
      w.scheme = ANEURALNETWORKS_PADDING_SAME;
      w.height = (in[1] + s.sh - 1) / s.sh;
      w.width = (in[2] + s.sw - 1) / s.sw;
      return w;
    case 1:
      if (in[1] < eh || in[2] < ew) return std::nullopt;
      w.scheme = ANEURALNETWORKS_PADDING_VALID;
      w.height = (in[1] - eh) / s.sh + 1;
      w.width = (in[2] - ew) / s.sw + 1;
      return w;
    case 2:
      w.top = (pads & 3u) % eh;
      w.bottom = ((pads >> 2) & 3u) % eh;
      w.left = ((pads >> 4) & 3u) % ew;
      w.right = ((pads >> 6) & 3u) % ew;
      break;
    default: break;
  }
  if (in[1] + w.top + w.bottom < eh || in[2] + w.left + w.right < ew) return std::nullopt;
  w.height = (in[1] + w.top + w.bottom - eh) / s.sh + 1;
  w.width = (in[2] + w.left + w.right - ew) / s.sw + 1;
  return w;
}

// Channels up to `limit`: a multiple of 8 when the byte's top bit is set
// (what annrt-cpu's own kernels take), else any count.
inline uint32_t channelCount(uint8_t byte, uint32_t limit) {
  return byte & 0x80 ? 8 * (1 + (byte & 0x7f) % (limit / 8)) : 1 + byte % limit;
}

inline WindowShape decodeStrides(WindowShape s, uint8_t strides) {
  s.sh = 1 + strides % 3;
  s.sw = 1 + (strides / 3) % 3;
  return s;
}

// A convolution's filter (p1, p2: 1-5), strides (p3) and dilations (p4).
inline WindowShape convolutionWindow(const uint8_t* p) {
  WindowShape s = decodeStrides({1u + p[1] % 5, 1u + p[2] % 5}, p[3]);
  s.dh = 1 + p[4] % 2;
  s.dw = 1 + (p[4] / 2) % 2;
  return s;
}

// Builds the model the bytes describe, step by step; a step whose
// parameters give no valid or small enough operation is left out.
class ImageModelBuilder {
 public:
  ImageModelBuilder(ByteReader& in, Values& values) : in_(in), values_(values) {}

  // False when the header's input is too large.
  bool build() {
    const auto header = readHeader();
    dynamicBatch_ = (header.batch & 2) != 0;
    if (header.height & 0x80) {
      quantization_ = Quantization(header.height & 0x40 ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
                                                        : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM);
    }
    const Dims dims = {1u + header.batch % 2, 1u + header.height % 32, 1u + header.width % 32,
                       channelCount(header.channels, 48)};
    if (elementCount(dims) > kMaxElements) return false;
    const TensorType type = quantization_.unit();
    input_ = {graph_.addTensor(declared(dims), type), dims, type};
    images_.push_back(input_);
    for (uint32_t i = 0; i < 1 + header.steps % kMaxImageSteps; ++i) {
      ImageStepRecord record;
      record.kind = in_.read<uint8_t>();
      for (uint8_t& p : record.p) p = in_.read<uint8_t>();
      if (current().dims.size() != 4) break;  // after FULLY_CONNECTED
      if (std::optional<Image> made = step(record);
          made && elementCount(made->dims) <= kMaxElements) {
        images_.push_back(*made);
      }
    }
    graph_.finish({input_.operand}, {current().operand});
    return graph_.ok();
  }

  ANeuralNetworksModel* model() const { return graph_.model(); }
  uint32_t operationCount() const { return graph_.operationCount(); }
  const Image& input() const { return input_; }
  const Image& current() const { return images_.back(); }
  const std::string& description() const { return description_; }
  // The model's tensors declare an unknown batch (0): compilations run it
  // through the runtime's compile-at-first-inference (shape_specialization.h).
  bool dynamicBatch() const { return dynamicBatch_; }
  bool quantized() const { return quantization_.quantized(); }

 private:
  ImageHeader readHeader() {
    ImageHeader h;
    h.valueSeed = in_.read<uint64_t>();
    h.batch = in_.read<uint8_t>();
    h.height = in_.read<uint8_t>();
    h.width = in_.read<uint8_t>();
    h.channels = in_.read<uint8_t>();
    h.steps = in_.read<uint8_t>();
    values_ = Values(h.valueSeed);
    return h;
  }

  std::optional<Image> step(const ImageStepRecord& r) {
    const uint8_t* p = r.p;
    switch (static_cast<ImageStep>(r.kind % static_cast<uint8_t>(ImageStep::kCount))) {
      case ImageStep::kConvolution: return convolution(p);
      case ImageStep::kDepthwise: return depthwise(p);
      case ImageStep::kTransposedConvolution: return transposed(p);
      case ImageStep::kPool: return pool(p);
      case ImageStep::kReduce: return reduce(p);
      case ImageStep::kBinary: return binary(p);
      case ImageStep::kConcatenation: return concatenation(p);
      case ImageStep::kPad: return pad(p);
      case ImageStep::kReshape: return reshape(p);
      case ImageStep::kUnary: return unary(p);
      case ImageStep::kResize: return resize(p);
      case ImageStep::kSoftmax: return softmax(p);
      case ImageStep::kFullyConnected: return fullyConnected(p);
      case ImageStep::kDepthToSpace: return depthToSpace(p);
      case ImageStep::kGroupedConvolution: return groupedConvolution(p);
      case ImageStep::kCount: break;
    }
    return std::nullopt;
  }

  // p: out channels (channelCount), kernel height, kernel width, strides, dilations (bit 2:
  // the layout and dilation inputs even when 1), padding mode and fused
  // activation, explicit pads.
  std::optional<Image> convolution(const uint8_t* p) {
    const Dims& in = current().dims;
    const uint32_t outC = channelCount(p[0], 48);
    const WindowShape s = convolutionWindow(p);
    const auto w = decodeWindow(p[5], p[6], in, s);
    const Dims filter = {outC, s.kh, s.kw, in[3]};
    if (!w || elementCount(filter) > 2 * kMaxElements) return std::nullopt;
    std::vector<uint32_t> inputs = {current().operand, weights(filter, s.kh * s.kw * in[3]),
                                    bias(outC)};
    addWindow(inputs, *w, s);
    inputs.push_back(graph_.addInt32Scalar((p[5] / 4) % 4));
    addDilations(inputs, s, (p[4] & 4) != 0);
    return emit(ANEURALNETWORKS_CONV_2D, inputs, {in[0], w->height, w->width, outC},
                quantization_.activation(), "CONV_2D", p);
  }

  // p: multiplier, then as convolution's.
  std::optional<Image> depthwise(const uint8_t* p) {
    const Dims& in = current().dims;
    const uint32_t multiplier = 1 + p[0] % 2, outC = in[3] * multiplier;
    const WindowShape s = convolutionWindow(p);
    const auto w = decodeWindow(p[5], p[6], in, s);
    const Dims filter = {1, s.kh, s.kw, outC};
    if (!w) return std::nullopt;
    std::vector<uint32_t> inputs = {current().operand, weights(filter, s.kh * s.kw), bias(outC)};
    addWindow(inputs, *w, s);
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(multiplier)));
    inputs.push_back(graph_.addInt32Scalar((p[5] / 4) % 4));
    addDilations(inputs, s, (p[4] & 4) != 0);
    return emit(ANEURALNETWORKS_DEPTHWISE_CONV_2D, inputs, {in[0], w->height, w->width, outC},
                quantization_.activation(), "DEPTHWISE_CONV_2D", p);
  }

  // p: out channels (channelCount), kernel height, kernel width, strides, -, padding (bit
  // 0: implicit, bit 1: VALID) and activation, explicit pads.
  std::optional<Image> transposed(const uint8_t* p) {
    const Dims& in = current().dims;
    const uint32_t outC = channelCount(p[0], 32);
    const WindowShape s = decodeStrides({1u + p[1] % 4, 1u + p[2] % 4}, p[3]);
    const Dims filter = {outC, s.kh, s.kw, in[3]};
    if (elementCount(filter) > 2 * kMaxElements) return std::nullopt;
    std::vector<uint32_t> inputs = {current().operand, weights(filter, s.kh * s.kw * in[3]),
                                    bias(outC)};
    uint32_t height = 0, width = 0;
    if (p[5] & 1) {
      const bool valid = (p[5] & 2) != 0;
      height = valid ? (in[1] - 1) * s.sh + s.kh : in[1] * s.sh;
      width = valid ? (in[2] - 1) * s.sw + s.kw : in[2] * s.sw;
      const std::vector<int32_t> shape = {static_cast<int32_t>(in[0]), static_cast<int32_t>(height),
                                          static_cast<int32_t>(width), static_cast<int32_t>(outC)};
      inputs.push_back(
          graph_.addConstant({4}, {ANEURALNETWORKS_TENSOR_INT32}, client::toBytes(shape)));
      inputs.push_back(graph_.addInt32Scalar(valid ? ANEURALNETWORKS_PADDING_VALID
                                                   : ANEURALNETWORKS_PADDING_SAME));
    } else {
      const uint32_t top = (p[6] & 3u) % s.kh, bottom = ((p[6] >> 2) & 3u) % s.kh;
      const uint32_t left = ((p[6] >> 4) & 3u) % s.kw, right = ((p[6] >> 6) & 3u) % s.kw;
      if ((in[1] - 1) * s.sh + s.kh <= top + bottom || (in[2] - 1) * s.sw + s.kw <= left + right) {
        return std::nullopt;
      }
      height = (in[1] - 1) * s.sh + s.kh - top - bottom;
      width = (in[2] - 1) * s.sw + s.kw - left - right;
      for (uint32_t pad : {left, right, top, bottom}) {
        inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(pad)));
      }
    }
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.sw)));
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.sh)));
    inputs.push_back(graph_.addInt32Scalar((p[5] / 4) % 4));
    inputs.push_back(graph_.addBoolScalar(false));
    return emit(ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, {in[0], height, width, outC},
                quantization_.activation(), "TRANSPOSE_CONV_2D", p);
  }

  // p: bit 0 MAX or AVERAGE, (p0 / 2) % 3 == 0 a global window; filter
  // height, width, strides, bit 0 the layout input, padding and activation,
  // explicit pads.
  std::optional<Image> pool(const uint8_t* p) {
    const Dims& in = current().dims;
    const bool global = (p[0] / 2) % 3 == 0;
    WindowShape s = decodeStrides({1u + p[1] % 4, 1u + p[2] % 4}, p[3]);
    uint8_t mode = p[5];
    if (global) {
      s = {in[1], in[2], 1, 1, 1, 1};
      mode = 1;
    }
    const auto w = decodeWindow(mode, p[6], in, s);
    if (!w) return std::nullopt;
    std::vector<uint32_t> inputs = {current().operand};
    addWindow(inputs, *w, s);
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.kw)));
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.kh)));
    inputs.push_back(graph_.addInt32Scalar((p[5] / 4) % 4));
    if (p[4] & 1) inputs.push_back(graph_.addBoolScalar(false));
    const bool max = (p[0] & 1) != 0;
    return emit(max ? ANEURALNETWORKS_MAX_POOL_2D : ANEURALNETWORKS_AVERAGE_POOL_2D, inputs,
                {in[0], w->height, w->width, in[3]}, current().type,
                max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", p);
  }

  // p: axes {1, 2}, {1} or {2}; MEAN, REDUCE_SUM, REDUCE_MAX or REDUCE_MIN;
  // kept dims.
  std::optional<Image> reduce(const uint8_t* p) {
    Dims out = current().dims;
    std::vector<int32_t> axes;
    switch (p[0] % 3) {
      case 0: axes = {1, 2}; break;
      case 1: axes = {1}; break;
      default: axes = {2}; break;
    }
    for (int32_t axis : axes) out[axis] = 1;
    const uint32_t axesOperand =
        graph_.addConstant({static_cast<uint32_t>(axes.size())}, {ANEURALNETWORKS_TENSOR_INT32},
                           client::toBytes(axes));
    struct Kind {
      ANeuralNetworksOperationType type;
      const char* name;
    };
    static constexpr Kind kKinds[] = {{ANEURALNETWORKS_MEAN, "MEAN"},
                                      {ANEURALNETWORKS_REDUCE_SUM, "REDUCE_SUM"},
                                      {ANEURALNETWORKS_REDUCE_MAX, "REDUCE_MAX"},
                                      {ANEURALNETWORKS_REDUCE_MIN, "REDUCE_MIN"}};
    const Kind& kind = kKinds[p[1] % std::size(kKinds)];
    // MEAN keeps its dims by an INT32, the REDUCE_ operations by a BOOL.
    const uint32_t keep =
        kind.type == ANEURALNETWORKS_MEAN ? graph_.addInt32Scalar(1) : graph_.addBoolScalar(true);
    const TensorType type =
        kind.type == ANEURALNETWORKS_REDUCE_SUM ? quantization_.activation() : current().type;
    return emit(kind.type, {current().operand, axesOperand, keep}, out, type, kind.name, p);
  }

  // p: the operation (ADD, MUL, SUB, DIV, MAXIMUM, MINIMUM, PRELU); the
  // other operand (p1 % 4): a constant of the same dims, a channel vector, an
  // earlier image broadcast with this one (p2 chooses), a one-element
  // constant; activation; bit 0 of p4 swaps the operands (not PRELU's or
  // DIV's).
  std::optional<Image> binary(const uint8_t* p) {
    struct Kind {
      ANeuralNetworksOperationType type;
      const char* name;
      bool activation;  // takes a fused activation
    };
    static constexpr Kind kKinds[] = {
        {ANEURALNETWORKS_ADD, "ADD", true},          {ANEURALNETWORKS_MUL, "MUL", true},
        {ANEURALNETWORKS_SUB, "SUB", true},          {ANEURALNETWORKS_DIV, "DIV", true},
        {ANEURALNETWORKS_MAXIMUM, "MAXIMUM", false}, {ANEURALNETWORKS_MINIMUM, "MINIMUM", false},
        {ANEURALNETWORKS_PRELU, "PRELU", false}};
    const Kind& kind = kKinds[p[0] % std::size(kKinds)];
    // A DIV divides by a constant at least 0.5 from 0 (a divisor of 0 makes
    // infinities and NaNs, see unary()).
    const bool divide = kind.type == ANEURALNETWORKS_DIV;
    Dims out = current().dims;
    uint32_t other = 0;
    switch (divide ? 0 : p[1] % 4) {
      case 1: other = constant({out[3]}, values_.fill(out[3], 1.0f), quantization_.unit()); break;
      case 2:
        if (const Image* earlier = broadcastImage(out, p[2])) {
          other = earlier->operand;
          for (size_t d = 0; d < out.size(); ++d) out[d] = std::max(out[d], earlier->dims[d]);
          break;
        }
        [[fallthrough]];
      case 0: {
        std::vector<float> values = values_.fill(elementCount(out), 1.0f);
        if (divide) {
          for (float& v : values) v = v < 0 ? v - 0.5f : v + 0.5f;
        }
        other = constant(out, values, divide ? quantization_.activation() : quantization_.unit());
        break;
      }
      default: other = constant({1, 1, 1, 1}, values_.fill(1, 1.0f), quantization_.unit()); break;
    }
    std::vector<uint32_t> inputs = {current().operand, other};
    if ((p[4] & 1) && kind.type != ANEURALNETWORKS_PRELU && !divide) {
      std::swap(inputs[0], inputs[1]);
    }
    if (kind.activation) inputs.push_back(graph_.addInt32Scalar(p[3] % 4));
    return emit(kind.type, inputs, out, quantization_.activation(), kind.name, p);
  }

  // p: the other operand (a constant 1 + p1 % 32 long on the axis, the image
  // itself, an earlier image matching all dims but the axis, p1 chooses);
  // the axis (3, 1, 2 or -1); bit 0 of p3 adds the image once more.
  std::optional<Image> concatenation(const uint8_t* p) {
    const Dims& dims = current().dims;
    static constexpr int32_t kAxes[] = {3, 1, 2, -1};
    const int32_t axis = kAxes[p[2] % 4];
    const size_t at = axis < 0 ? 3 : static_cast<size_t>(axis);
    std::vector<uint32_t> inputs = {current().operand};
    Dims out = dims;
    const Image* earlier = p[0] % 3 == 2 ? earlierImage(dims, at, p[1]) : nullptr;
    if (p[0] % 3 == 1) {
      inputs.push_back(current().operand);
      out[at] += dims[at];
    } else if (earlier != nullptr) {
      inputs.push_back(earlier->operand);
      out[at] += earlier->dims[at];
    } else {
      Dims constant = dims;
      constant[at] = 1 + p[1] % 32;
      inputs.push_back(
          this->constant(constant, values_.fill(elementCount(constant), 1.0f), current().type));
      out[at] += constant[at];
    }
    if (p[3] & 1) {
      inputs.push_back(current().operand);
      out[at] += dims[at];
    }
    inputs.push_back(graph_.addInt32Scalar(axis));
    return emit(ANEURALNETWORKS_CONCATENATION, inputs, out, current().type, "CONCATENATION", p);
  }

  // p: pads top, bottom, left, right (0-2 each); bit 0 of p4 pads the
  // channels' end by p5 % 3; bit 1 of p4 is PAD_V2 with a value from p6.
  std::optional<Image> pad(const uint8_t* p) {
    const Dims& dims = current().dims;
    const int32_t channels = (p[4] & 1) ? p[5] % 3 : 0;
    const std::vector<int32_t> pads = {0, 0, p[0] % 3, p[1] % 3, p[2] % 3, p[3] % 3, 0, channels};
    Dims out = dims;
    for (size_t d = 0; d < 4; ++d) out[d] += static_cast<uint32_t>(pads[2 * d] + pads[2 * d + 1]);
    const uint32_t padsOperand =
        graph_.addConstant({4, 2}, {ANEURALNETWORKS_TENSOR_INT32}, client::toBytes(pads));
    if ((p[4] & 2) == 0) {
      return emit(ANEURALNETWORKS_PAD, {current().operand, padsOperand}, out, current().type, "PAD",
                  p);
    }
    // PAD_V2's value: a float, or a quantized value as an INT32.
    const TensorType& type = current().type;
    const uint32_t value =
        quantization_.quantized()
            ? graph_.addInt32Scalar(type.zeroPoint + p[6] % 64 - 32)
            : graph_.addFloat32Scalar(static_cast<float>(static_cast<int>(p[6]) - 128) / 64);
    return emit(ANEURALNETWORKS_PAD_V2, {current().operand, padsOperand, value}, out, type,
                "PAD_V2", p);
  }

  // p: block size 2 or 3; bit 0 of p1 the layout input.
  std::optional<Image> depthToSpace(const uint8_t* p) {
    const Dims& d = current().dims;
    const uint32_t block = 2 + p[0] % 2;
    if (d[3] % (block * block) != 0) return std::nullopt;
    std::vector<uint32_t> inputs = {current().operand,
                                    graph_.addInt32Scalar(static_cast<int32_t>(block))};
    if (p[1] & 1) inputs.push_back(graph_.addBoolScalar(false));
    return emit(ANEURALNETWORKS_DEPTH_TO_SPACE, inputs,
                {d[0], d[1] * block, d[2] * block, d[3] / (block * block)}, current().type,
                "DEPTH_TO_SPACE", p);
  }

  // p: groups (2, 3, 4 or 8) and out channels per group (1-8); then as
  // convolution's, without dilations.
  std::optional<Image> groupedConvolution(const uint8_t* p) {
    static constexpr uint32_t kGroups[] = {2, 3, 4, 8};
    const Dims& in = current().dims;
    const uint32_t groups = kGroups[p[0] % 4], outC = groups * (1 + (p[0] / 4) % 8);
    const WindowShape s = decodeStrides({1u + p[1] % 5, 1u + p[2] % 5}, p[3]);
    const auto w = decodeWindow(p[5], p[6], in, s);
    if (!w || in[3] % groups != 0) return std::nullopt;
    const Dims filter = {outC, s.kh, s.kw, in[3] / groups};
    std::vector<uint32_t> inputs = {current().operand,
                                    weights(filter, s.kh * s.kw * in[3] / groups), bias(outC)};
    addWindow(inputs, *w, s);
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(groups)));
    inputs.push_back(graph_.addInt32Scalar((p[5] / 4) % 4));
    inputs.push_back(graph_.addBoolScalar(false));
    return emit(ANEURALNETWORKS_GROUPED_CONV_2D, inputs, {in[0], w->height, w->width, outC},
                quantization_.activation(), "GROUPED_CONV_2D", p);
  }

  // p: the new dims ([N, H*W, 1, C], [N, W, H, C], [N, 1, H*W, C] or the
  // same); bit 0 of p1 writes dim p2 % 4 as -1.
  std::optional<Image> reshape(const uint8_t* p) {
    const Dims& d = current().dims;
    Dims out;
    switch (p[0] % 4) {
      case 0: out = {d[0], d[1] * d[2], 1, d[3]}; break;
      case 1: out = {d[0], d[2], d[1], d[3]}; break;
      case 2: out = {d[0], 1, d[1] * d[2], d[3]}; break;
      default: out = d; break;
    }
    std::vector<int32_t> shape(out.begin(), out.end());
    if (p[1] & 1) shape[p[2] % 4] = -1;
    const uint32_t shapeOperand =
        graph_.addConstant({4}, {ANEURALNETWORKS_TENSOR_INT32}, client::toBytes(shape));
    return emit(ANEURALNETWORKS_RESHAPE, {current().operand, shapeOperand}, out, current().type,
                "RESHAPE", p);
  }

  // p: RELU, RELU1, RELU6, LOGISTIC, TANH, HARD_SWISH, ABS, NEG, SQRT or ELU
  // (alpha 1). Not FLOOR: a value a rounding away from an integer would make
  // the devices differ by 1.
  std::optional<Image> unary(const uint8_t* p) {
    // The output's range: the input's (RELUs), LOGISTIC's [0, 1), TANH's
    // [-1, 1], HARD_SWISH's own.
    enum class Range { kInput, kProbability, kUnit, kActivation };
    struct Kind {
      ANeuralNetworksOperationType type;
      const char* name;
      Range range;
    };
    static constexpr Kind kKinds[] = {
        {ANEURALNETWORKS_RELU, "RELU", Range::kInput},
        {ANEURALNETWORKS_RELU1, "RELU1", Range::kInput},
        {ANEURALNETWORKS_RELU6, "RELU6", Range::kInput},
        {ANEURALNETWORKS_LOGISTIC, "LOGISTIC", Range::kProbability},
        {ANEURALNETWORKS_TANH, "TANH", Range::kUnit},
        {ANEURALNETWORKS_HARD_SWISH, "HARD_SWISH", Range::kActivation},
        {ANEURALNETWORKS_ABS, "ABS", Range::kInput},
        {ANEURALNETWORKS_NEG, "NEG", Range::kInput},
        {ANEURALNETWORKS_SQRT, "SQRT", Range::kInput},
        {ANEURALNETWORKS_ELU, "ELU", Range::kActivation}};
    const Kind& kind = kKinds[p[0] % std::size(kKinds)];
    TensorType type = current().type;
    switch (kind.range) {
      case Range::kProbability: type = quantization_.probability(); break;
      case Range::kUnit: type = quantization_.unit(); break;
      case Range::kActivation: type = quantization_.activation(); break;
      case Range::kInput: break;
    }
    std::vector<uint32_t> inputs = {current().operand};
    if (kind.type == ANEURALNETWORKS_ELU) inputs.push_back(graph_.addFloat32Scalar(1.0f));
    if (kind.type == ANEURALNETWORKS_SQRT) {
      // Of |x| + 1: of a negative x it would be a NaN, which operations after
      // it may treat as they like (a REDUCE_MIN may skip it or not), and near
      // 0 its slope would turn the devices' rounding into differences no
      // tolerance bounds.
      const std::optional<Image> magnitude =
          emit(ANEURALNETWORKS_ABS, inputs, current().dims, type, "ABS", p);
      if (!magnitude) return std::nullopt;
      const std::optional<Image> shifted =
          emit(ANEURALNETWORKS_ADD,
               {magnitude->operand, constant({1}, {1.0f}, quantization_.unit()),
                graph_.addInt32Scalar(ANEURALNETWORKS_FUSED_NONE)},
               current().dims, type, "ADD", p);
      if (!shifted) return std::nullopt;
      inputs = {shifted->operand};
    }
    return emit(kind.type, inputs, current().dims, type, kind.name, p);
  }

  // p: output height and width (1-40), corners (none, aligned, half
  // pixels), bit 0 of p3 nearest neighbour instead of bilinear.
  std::optional<Image> resize(const uint8_t* p) {
    const Dims& d = current().dims;
    const uint32_t height = 1 + p[0] % 40, width = 1 + p[1] % 40;
    const bool nearest = (p[3] & 1) != 0;
    const std::vector<uint32_t> inputs = {current().operand,
                                          graph_.addInt32Scalar(static_cast<int32_t>(width)),
                                          graph_.addInt32Scalar(static_cast<int32_t>(height)),
                                          graph_.addBoolScalar(false),
                                          graph_.addBoolScalar(p[2] % 3 == 1),
                                          graph_.addBoolScalar(p[2] % 3 == 2)};
    return emit(nearest ? ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR : ANEURALNETWORKS_RESIZE_BILINEAR,
                inputs, {d[0], height, width, d[3]}, current().type,
                nearest ? "RESIZE_NEAREST_NEIGHBOR" : "RESIZE_BILINEAR", p);
  }

  // p: beta 1 or 0.5; bit 0 of p1 gives the axis (-1) explicitly.
  std::optional<Image> softmax(const uint8_t* p) {
    std::vector<uint32_t> inputs = {current().operand,
                                    graph_.addFloat32Scalar(p[0] & 1 ? 0.5f : 1.0f)};
    if (p[1] & 1) inputs.push_back(graph_.addInt32Scalar(-1));
    return emit(ANEURALNETWORKS_SOFTMAX, inputs, current().dims, quantization_.probability(),
                "SOFTMAX", p);
  }

  // p: units (1-32), activation.
  std::optional<Image> fullyConnected(const uint8_t* p) {
    const Dims& d = current().dims;
    const uint32_t units = 1 + p[0] % 32, size = d[1] * d[2] * d[3];
    const Dims filter = {units, size};
    if (elementCount(filter) > 2 * kMaxElements) return std::nullopt;
    const std::vector<uint32_t> inputs = {current().operand, weights(filter, size), bias(units),
                                          graph_.addInt32Scalar(p[1] % 4)};
    return emit(ANEURALNETWORKS_FULLY_CONNECTED, inputs, {d[0], units}, quantization_.activation(),
                "FULLY_CONNECTED", p);
  }

  Dims declared(Dims dims) const {
    if (dynamicBatch_) dims[0] = 0;
    return dims;
  }

  // Weights scaled by the fan-in, so values stay near 1 down the chain.
  uint32_t weights(const Dims& dims, uint32_t fanIn) {
    const float limit = 1.0f / std::sqrt(static_cast<float>(fanIn));
    weightsType_ = quantization_.weights(limit);
    return constant(dims, values_.fill(elementCount(dims), limit), weightsType_);
  }
  // The bias of the weights made last, on the current image.
  uint32_t bias(uint32_t count) {
    return constant({count}, values_.fill(count, 0.5f),
                    quantization_.bias(current().type, weightsType_));
  }
  uint32_t constant(const Dims& dims, const std::vector<float>& values, const TensorType& type) {
    return graph_.addConstant(dims, type, Quantization::encode(values, type));
  }

  void addWindow(std::vector<uint32_t>& inputs, const Window& w, const WindowShape& s) {
    if (w.scheme != 0) {
      inputs.push_back(graph_.addInt32Scalar(w.scheme));
    } else {
      for (uint32_t pad : {w.left, w.right, w.top, w.bottom}) {
        inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(pad)));
      }
    }
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.sw)));
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.sh)));
  }

  void addDilations(std::vector<uint32_t>& inputs, const WindowShape& s, bool always) {
    if (!always && s.dh == 1 && s.dw == 1) return;
    inputs.push_back(graph_.addBoolScalar(false));
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.dw)));
    inputs.push_back(graph_.addInt32Scalar(static_cast<int32_t>(s.dh)));
  }

  // The `choice`-th, counting back, of the images made before the current
  // one that `matches`.
  template <class Matches>
  const Image* findEarlier(uint8_t choice, Matches&& matches) const {
    std::vector<const Image*> found;
    for (size_t i = 0; i + 1 < images_.size(); ++i) {
      if (images_[i].dims.size() == 4 && matches(images_[i].dims)) found.push_back(&images_[i]);
    }
    return found.empty() ? nullptr : found[found.size() - 1 - choice % found.size()];
  }
  // One whose dims equal `dims` but at `except`.
  const Image* earlierImage(const Dims& dims, size_t except, uint8_t choice) const {
    return findEarlier(choice, [&](const Dims& e) {
      for (size_t d = 0; d < 4; ++d) {
        if (d != except && e[d] != dims[d]) return false;
      }
      return true;
    });
  }
  // One that broadcasts with `dims` (each dim equal, or 1 in either).
  const Image* broadcastImage(const Dims& dims, uint8_t choice) const {
    return findEarlier(choice, [&](const Dims& e) {
      for (size_t d = 0; d < 4; ++d) {
        if (e[d] != dims[d] && e[d] != 1 && dims[d] != 1) return false;
      }
      return true;
    });
  }

  std::optional<Image> emit(ANeuralNetworksOperationType operation,
                            const std::vector<uint32_t>& inputs, const Dims& out,
                            const TensorType& type, const char* name, const uint8_t* p) {
    if (elementCount(out) == 0 || elementCount(out) > kMaxElements) return std::nullopt;
    const uint32_t output = graph_.addTensor(declared(out), type);
    graph_.addOperation(operation, inputs, {output});
    description_ += std::string(name) + " [";
    for (size_t i = 0; i < out.size(); ++i) description_ += (i ? "," : "") + std::to_string(out[i]);
    description_ += "] p=";
    for (size_t i = 0; i < 7; ++i) description_ += (i ? "," : "") + std::to_string(p[i]);
    description_ += "\n";
    return Image{output, out, type};
  }

  ByteReader& in_;
  Values& values_;
  client::GraphBuilder graph_;
  Quantization quantization_;
  TensorType weightsType_;
  Image input_;
  std::vector<Image> images_;
  std::string description_;
  bool dynamicBatch_ = false;
};

}  // namespace annrt::fuzz
