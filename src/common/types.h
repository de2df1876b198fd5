// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Operand and operation codes and the per-operand description shared by the
// runtime, the operation library and every driver. Values equal the NNAPI ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace annrt {

using Float16 = _Float16;

enum class OperandType : int32_t {
  FLOAT32 = 0,
  INT32 = 1,
  UINT32 = 2,
  TENSOR_FLOAT32 = 3,
  TENSOR_INT32 = 4,
  TENSOR_QUANT8_ASYMM = 5,
  BOOL = 6,
  TENSOR_QUANT16_SYMM = 7,
  TENSOR_FLOAT16 = 8,
  TENSOR_BOOL8 = 9,
  FLOAT16 = 10,
  TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
  TENSOR_QUANT16_ASYMM = 12,
  TENSOR_QUANT8_SYMM = 13,
  TENSOR_QUANT8_ASYMM_SIGNED = 14,
  SUBGRAPH = 15,  // ANEURALNETWORKS_MODEL in the NDK header
  OEM_SCALAR = 10000,
  TENSOR_OEM_BYTE = 10001,
};

enum class OperationType : int32_t {
  ADD = 0,
  AVERAGE_POOL_2D = 1,
  CONCATENATION = 2,
  CONV_2D = 3,
  DEPTHWISE_CONV_2D = 4,
  DEPTH_TO_SPACE = 5,
  DEQUANTIZE = 6,
  EMBEDDING_LOOKUP = 7,
  FLOOR = 8,
  FULLY_CONNECTED = 9,
  HASHTABLE_LOOKUP = 10,
  L2_NORMALIZATION = 11,
  L2_POOL_2D = 12,
  LOCAL_RESPONSE_NORMALIZATION = 13,
  LOGISTIC = 14,
  LSH_PROJECTION = 15,
  LSTM = 16,
  MAX_POOL_2D = 17,
  MUL = 18,
  RELU = 19,
  RELU1 = 20,
  RELU6 = 21,
  RESHAPE = 22,
  RESIZE_BILINEAR = 23,
  RNN = 24,
  SOFTMAX = 25,
  SPACE_TO_DEPTH = 26,
  SVDF = 27,
  TANH = 28,
  BATCH_TO_SPACE_ND = 29,
  DIV = 30,
  MEAN = 31,
  PAD = 32,
  SPACE_TO_BATCH_ND = 33,
  SQUEEZE = 34,
  STRIDED_SLICE = 35,
  SUB = 36,
  TRANSPOSE = 37,
  ABS = 38,
  ARGMAX = 39,
  ARGMIN = 40,
  AXIS_ALIGNED_BBOX_TRANSFORM = 41,
  BIDIRECTIONAL_SEQUENCE_LSTM = 42,
  BIDIRECTIONAL_SEQUENCE_RNN = 43,
  BOX_WITH_NMS_LIMIT = 44,
  CAST = 45,
  CHANNEL_SHUFFLE = 46,
  DETECTION_POSTPROCESSING = 47,
  EQUAL = 48,
  EXP = 49,
  EXPAND_DIMS = 50,
  GATHER = 51,
  GENERATE_PROPOSALS = 52,
  GREATER = 53,
  GREATER_EQUAL = 54,
  GROUPED_CONV_2D = 55,
  HEATMAP_MAX_KEYPOINT = 56,
  INSTANCE_NORMALIZATION = 57,
  LESS = 58,
  LESS_EQUAL = 59,
  LOG = 60,
  LOGICAL_AND = 61,
  LOGICAL_NOT = 62,
  LOGICAL_OR = 63,
  LOG_SOFTMAX = 64,
  MAXIMUM = 65,
  MINIMUM = 66,
  NEG = 67,
  NOT_EQUAL = 68,
  PAD_V2 = 69,
  POW = 70,
  PRELU = 71,
  QUANTIZE = 72,
  QUANTIZED_16BIT_LSTM = 73,
  RANDOM_MULTINOMIAL = 74,
  REDUCE_ALL = 75,
  REDUCE_ANY = 76,
  REDUCE_MAX = 77,
  REDUCE_MIN = 78,
  REDUCE_PROD = 79,
  REDUCE_SUM = 80,
  ROI_ALIGN = 81,
  ROI_POOLING = 82,
  RSQRT = 83,
  SELECT = 84,
  SIN = 85,
  SLICE = 86,
  SPLIT = 87,
  SQRT = 88,
  TILE = 89,
  TOPK_V2 = 90,
  TRANSPOSE_CONV_2D = 91,
  UNIDIRECTIONAL_SEQUENCE_LSTM = 92,
  UNIDIRECTIONAL_SEQUENCE_RNN = 93,
  RESIZE_NEAREST_NEIGHBOR = 94,
  QUANTIZED_LSTM = 95,
  IF = 96,
  WHILE = 97,
  ELU = 98,
  HARD_SWISH = 99,
  FILL = 100,
  RANK = 101,
  BATCH_MATMUL = 102,
  PACK = 103,
  MIRROR_PAD = 104,
  REVERSE = 105,
  OEM_OPERATION = 10000,
  DENSIFY = 20000,
};

// NNAPI feature levels as small ordinals (1..8); see featureLevelCode().
inline constexpr int kMaxFeatureLevel = 8;
int64_t featureLevelCode(int level);     // 1 -> 27, ..., 5 -> 31, 6 -> 1000006, ...
int featureLevelFromCode(int64_t code);  // inverse; 0 for an unknown code

// Fused activation codes (FuseCode).
enum class FusedActivation : int32_t { NONE = 0, RELU = 1, RELU1 = 2, RELU6 = 3 };

const char* operandTypeName(OperandType type);
const char* operationTypeName(OperationType type);  // "UNKNOWN" for unknown codes
bool isKnownOperandType(int32_t code);
bool isTensorType(OperandType type);
bool isScalarType(OperandType type);
bool isQuantizedType(OperandType type);
// Bytes per element (tensors) or of the value (scalars); 0 for SUBGRAPH/OEM.
size_t elementSize(OperandType type);

// An extension type is (prefix << 16 | code within extension), prefix > 0.
inline constexpr int kExtensionTypeBits = 16;
inline bool isExtensionCode(int32_t code) {
  return code >= (1 << kExtensionTypeBits);
}

struct ChannelQuant {
  uint32_t channelDim = 0;
  std::vector<float> scales;
  bool operator==(const ChannelQuant&) const = default;
};

// Type, dimensions and quantization of one operand. A dimension of 0 is unknown
// at model-build time; a tensor of rank 0 has unknown rank. At execution time
// all dimensions are known and a 0 then means a zero-sized tensor.
struct Shape {
  OperandType type = OperandType::TENSOR_FLOAT32;
  std::vector<uint32_t> dims;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  std::optional<ChannelQuant> channelQuant;
  bool operator==(const Shape&) const = default;
};

uint32_t rank(const Shape& shape);
uint32_t dim(const Shape& shape, uint32_t axis);
// Product of the dimensions (1 for a scalar or rank-0 shape); 0 if any is 0.
size_t elementCount(const std::vector<uint32_t>& dims);
inline size_t elementCount(const Shape& shape) {
  return elementCount(shape.dims);
}
// Byte size of the data; scalars are one element. Returns 0 on overflow.
size_t byteSize(const Shape& shape);
bool hasUnknownDims(const Shape& shape);  // unknown rank or any 0 dimension
// `count` float16 values stored at `half` (any alignment) as float32 values.
std::vector<float> halfToFloat(const uint8_t* half, size_t count);
std::string toString(const std::vector<uint32_t>& dims);
std::string toString(const Shape& shape);

}  // namespace annrt
