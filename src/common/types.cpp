// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/types.h"

#include <fmt/format.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <array>
#include <cstring>
#include <limits>

#include "common/cpu_features.h"

namespace annrt {

int64_t featureLevelCode(int level) {
  static constexpr std::array<int64_t, 9> kCodes = {0,  27,      28,      29,     30,
                                                    31, 1000006, 1000007, 1000008};
  return level >= 1 && level <= kMaxFeatureLevel ? kCodes[level] : 0;
}

int featureLevelFromCode(int64_t code) {
  for (int level = 1; level <= kMaxFeatureLevel; ++level) {
    if (featureLevelCode(level) == code) return level;
  }
  return 0;
}

const char* operandTypeName(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32: return "FLOAT32";
    case OperandType::INT32: return "INT32";
    case OperandType::UINT32: return "UINT32";
    case OperandType::TENSOR_FLOAT32: return "TENSOR_FLOAT32";
    case OperandType::TENSOR_INT32: return "TENSOR_INT32";
    case OperandType::TENSOR_QUANT8_ASYMM: return "TENSOR_QUANT8_ASYMM";
    case OperandType::BOOL: return "BOOL";
    case OperandType::TENSOR_QUANT16_SYMM: return "TENSOR_QUANT16_SYMM";
    case OperandType::TENSOR_FLOAT16: return "TENSOR_FLOAT16";
    case OperandType::TENSOR_BOOL8: return "TENSOR_BOOL8";
    case OperandType::FLOAT16: return "FLOAT16";
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL: return "TENSOR_QUANT8_SYMM_PER_CHANNEL";
    case OperandType::TENSOR_QUANT16_ASYMM: return "TENSOR_QUANT16_ASYMM";
    case OperandType::TENSOR_QUANT8_SYMM: return "TENSOR_QUANT8_SYMM";
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return "TENSOR_QUANT8_ASYMM_SIGNED";
    case OperandType::SUBGRAPH: return "SUBGRAPH";
    case OperandType::OEM_SCALAR: return "OEM_SCALAR";
    case OperandType::TENSOR_OEM_BYTE: return "TENSOR_OEM_BYTE";
  }
  return isExtensionCode(static_cast<int32_t>(type)) ? "EXTENSION" : "UNKNOWN";
}

const char* operationTypeName(OperationType type) {
  static constexpr std::array<const char*, 106> kNames = {"ADD",
                                                          "AVERAGE_POOL_2D",
                                                          "CONCATENATION",
                                                          "CONV_2D",
                                                          "DEPTHWISE_CONV_2D",
                                                          "DEPTH_TO_SPACE",
                                                          "DEQUANTIZE",
                                                          "EMBEDDING_LOOKUP",
                                                          "FLOOR",
                                                          "FULLY_CONNECTED",
                                                          "HASHTABLE_LOOKUP",
                                                          "L2_NORMALIZATION",
                                                          "L2_POOL_2D",
                                                          "LOCAL_RESPONSE_NORMALIZATION",
                                                          "LOGISTIC",
                                                          "LSH_PROJECTION",
                                                          "LSTM",
                                                          "MAX_POOL_2D",
                                                          "MUL",
                                                          "RELU",
                                                          "RELU1",
                                                          "RELU6",
                                                          "RESHAPE",
                                                          "RESIZE_BILINEAR",
                                                          "RNN",
                                                          "SOFTMAX",
                                                          "SPACE_TO_DEPTH",
                                                          "SVDF",
                                                          "TANH",
                                                          "BATCH_TO_SPACE_ND",
                                                          "DIV",
                                                          "MEAN",
                                                          "PAD",
                                                          "SPACE_TO_BATCH_ND",
                                                          "SQUEEZE",
                                                          "STRIDED_SLICE",
                                                          "SUB",
                                                          "TRANSPOSE",
                                                          "ABS",
                                                          "ARGMAX",
                                                          "ARGMIN",
                                                          "AXIS_ALIGNED_BBOX_TRANSFORM",
                                                          "BIDIRECTIONAL_SEQUENCE_LSTM",
                                                          "BIDIRECTIONAL_SEQUENCE_RNN",
                                                          "BOX_WITH_NMS_LIMIT",
                                                          "CAST",
                                                          "CHANNEL_SHUFFLE",
                                                          "DETECTION_POSTPROCESSING",
                                                          "EQUAL",
                                                          "EXP",
                                                          "EXPAND_DIMS",
                                                          "GATHER",
                                                          "GENERATE_PROPOSALS",
                                                          "GREATER",
                                                          "GREATER_EQUAL",
                                                          "GROUPED_CONV_2D",
                                                          "HEATMAP_MAX_KEYPOINT",
                                                          "INSTANCE_NORMALIZATION",
                                                          "LESS",
                                                          "LESS_EQUAL",
                                                          "LOG",
                                                          "LOGICAL_AND",
                                                          "LOGICAL_NOT",
                                                          "LOGICAL_OR",
                                                          "LOG_SOFTMAX",
                                                          "MAXIMUM",
                                                          "MINIMUM",
                                                          "NEG",
                                                          "NOT_EQUAL",
                                                          "PAD_V2",
                                                          "POW",
                                                          "PRELU",
                                                          "QUANTIZE",
                                                          "QUANTIZED_16BIT_LSTM",
                                                          "RANDOM_MULTINOMIAL",
                                                          "REDUCE_ALL",
                                                          "REDUCE_ANY",
                                                          "REDUCE_MAX",
                                                          "REDUCE_MIN",
                                                          "REDUCE_PROD",
                                                          "REDUCE_SUM",
                                                          "ROI_ALIGN",
                                                          "ROI_POOLING",
                                                          "RSQRT",
                                                          "SELECT",
                                                          "SIN",
                                                          "SLICE",
                                                          "SPLIT",
                                                          "SQRT",
                                                          "TILE",
                                                          "TOPK_V2",
                                                          "TRANSPOSE_CONV_2D",
                                                          "UNIDIRECTIONAL_SEQUENCE_LSTM",
                                                          "UNIDIRECTIONAL_SEQUENCE_RNN",
                                                          "RESIZE_NEAREST_NEIGHBOR",
                                                          "QUANTIZED_LSTM",
                                                          "IF",
                                                          "WHILE",
                                                          "ELU",
                                                          "HARD_SWISH",
                                                          "FILL",
                                                          "RANK",
                                                          "BATCH_MATMUL",
                                                          "PACK",
                                                          "MIRROR_PAD",
                                                          "REVERSE"};
  const auto code = static_cast<int32_t>(type);
  if (code >= 0 && code < static_cast<int32_t>(kNames.size())) return kNames[code];
  if (type == OperationType::DENSIFY) return "DENSIFY";
  if (type == OperationType::OEM_OPERATION) return "OEM_OPERATION";
  return isExtensionCode(code) ? "EXTENSION" : "UNKNOWN";
}

bool isKnownOperandType(int32_t code) {
  return code >= 0 && code <= 15;
}

bool isTensorType(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_OEM_BYTE: return true;
    default: return false;
  }
}

bool isScalarType(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::BOOL:
    case OperandType::FLOAT16: return true;
    default: return false;
  }
}

bool isQuantizedType(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return true;
    default: return false;
  }
}

size_t elementSize(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32: return 4;
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::FLOAT16:
    case OperandType::TENSOR_QUANT16_ASYMM: return 2;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::OEM_SCALAR:
    case OperandType::TENSOR_OEM_BYTE: return 1;
    case OperandType::SUBGRAPH: return 0;
  }
  return 0;
}

uint32_t rank(const Shape& shape) {
  return static_cast<uint32_t>(shape.dims.size());
}

uint32_t dim(const Shape& shape, uint32_t axis) {
  return axis < shape.dims.size() ? shape.dims[axis] : 0;
}

size_t elementCount(const std::vector<uint32_t>& dims) {
  size_t count = 1;
  for (uint32_t d : dims) {
    if (d != 0 && count > std::numeric_limits<size_t>::max() / d) {
      return std::numeric_limits<size_t>::max();
    }
    count *= d;
  }
  return count;
}

size_t byteSize(const Shape& shape) {
  const size_t count = elementCount(shape.dims);
  const size_t size = elementSize(shape.type);
  if (size != 0 && count > std::numeric_limits<size_t>::max() / size) return 0;
  return count * size;
}

namespace {

void halfToFloatScalar(const uint8_t* half, size_t count, float* out) {
  for (size_t i = 0; i < count; ++i) {
    Float16 value;
    std::memcpy(&value, half + i * sizeof(Float16), sizeof(Float16));
    out[i] = static_cast<float>(value);
  }
}

#if defined(__x86_64__) || defined(__i386__)
// Without F16C, GCC converts each value with a libgcc call (__extendhfsf2).
// Models carry millions of float16 weights that every compilation widens
// once: with F16C, annrt-benchmark's Init for pose_landmark_full on annrt-cpu
// went from 34-42 ms to 20-21 ms, hand_landmark_full's from 35 to 16.5 ms.
__attribute__((target("avx,f16c"))) void halfToFloatF16c(const uint8_t* half, size_t count,
                                                         float* out) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m128i packed =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(half + i * sizeof(Float16)));
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(packed));
  }
  halfToFloatScalar(half + i * sizeof(Float16), count - i, out + i);
}
#endif

}  // namespace

std::vector<float> halfToFloat(const uint8_t* half, size_t count) {
  std::vector<float> values(count);
#if defined(__x86_64__) || defined(__i386__)
  if (cpuFeatures().f16c) {
    halfToFloatF16c(half, count, values.data());
    return values;
  }
#endif
  halfToFloatScalar(half, count, values.data());
  return values;
}

bool hasUnknownDims(const Shape& shape) {
  if (!isTensorType(shape.type)) return false;
  if (shape.dims.empty()) return true;
  for (uint32_t d : shape.dims) {
    if (d == 0) return true;
  }
  return false;
}

std::string toString(const std::vector<uint32_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ","));
}

std::string toString(const Shape& shape) {
  std::string s = fmt::format("{}{}", operandTypeName(shape.type), toString(shape.dims));
  if (isQuantizedType(shape.type) && !shape.channelQuant) {
    s += fmt::format(" scale={} zeroPoint={}", shape.scale, shape.zeroPoint);
  }
  return s;
}

}  // namespace annrt
