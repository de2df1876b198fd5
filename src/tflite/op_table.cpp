// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The operator table. Versions: the highest TFLite operator version whose
// semantics the mapping implements (later versions mostly add tensor types,
// which the type mapping checks on its own).
#include "tflite/op_table.h"

#include <array>

namespace annrt::tflite {
namespace {

using OT = OperationType;
namespace m = mappers;

// TFLite BuiltinOperator codes used below.
enum Builtin : int32_t {
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
  L2_NORMALIZATION = 11,
  L2_POOL_2D = 12,
  LOGISTIC = 14,
  MAX_POOL_2D = 17,
  MUL = 18,
  RELU = 19,
  RELU_N1_TO_1 = 20,
  RELU6 = 21,
  RESHAPE = 22,
  RESIZE_BILINEAR = 23,
  SOFTMAX = 25,
  SPACE_TO_DEPTH = 26,
  TANH = 28,
  PAD = 34,
  GATHER = 36,
  TRANSPOSE = 39,
  MEAN = 40,
  SUB = 41,
  DIV = 42,
  SQUEEZE = 43,
  STRIDED_SLICE = 45,
  EXP = 47,
  SPLIT = 49,
  CAST = 53,
  PRELU = 54,
  MAXIMUM = 55,
  ARG_MAX = 56,
  MINIMUM = 57,
  LESS = 58,
  NEG = 59,
  PADV2 = 60,
  GREATER = 61,
  GREATER_EQUAL = 62,
  LESS_EQUAL = 63,
  SLICE = 65,
  SIN = 66,
  TRANSPOSE_CONV = 67,
  TILE = 69,
  EXPAND_DIMS = 70,
  EQUAL = 71,
  NOT_EQUAL = 72,
  LOG = 73,
  SUM = 74,
  SQRT = 75,
  RSQRT = 76,
  POW = 78,
  ARG_MIN = 79,
  REDUCE_PROD = 81,
  REDUCE_MAX = 82,
  PACK = 83,
  LOGICAL_OR = 84,
  LOGICAL_AND = 86,
  LOGICAL_NOT = 87,
  REDUCE_MIN = 89,
  REDUCE_ANY = 91,
  RESIZE_NEAREST_NEIGHBOR = 97,
  LEAKY_RELU = 98,
  SQUARED_DIFFERENCE = 99,
  MIRROR_PAD = 100,
  ABS = 101,
  SPLIT_V = 102,
  ELU = 111,
  QUANTIZE = 114,
  HARD_SWISH = 117,
  IF = 118,
  WHILE = 119,
  DENSIFY = 124,
  BATCH_MATMUL = 126,
};

constexpr OpMapping builtin(int32_t code, int maxVersion, MapFunction map, OT nnapi = OT::ADD) {
  return OpMapping{code, nullptr, maxVersion, map, nnapi};
}

// clang-format off
constexpr std::array kBuiltins = {
    // Element-wise.
    builtin(ADD, 5, m::binaryFused, OT::ADD),
    builtin(SUB, 5, m::binaryFused, OT::SUB),
    builtin(MUL, 6, m::binaryFused, OT::MUL),
    builtin(DIV, 2, m::binaryFused, OT::DIV),
    builtin(MAXIMUM, 4, m::direct, OT::MAXIMUM),
    builtin(MINIMUM, 4, m::direct, OT::MINIMUM),
    builtin(POW, 1, m::direct, OT::POW),
    builtin(PRELU, 1, m::direct, OT::PRELU),
    builtin(SQUARED_DIFFERENCE, 2, m::squaredDifference),
    builtin(LEAKY_RELU, 2, m::leakyRelu),
    builtin(LOGISTIC, 3, m::direct, OT::LOGISTIC),
    builtin(TANH, 3, m::direct, OT::TANH),
    builtin(RELU, 3, m::direct, OT::RELU),
    builtin(RELU6, 3, m::direct, OT::RELU6),
    builtin(RELU_N1_TO_1, 2, m::direct, OT::RELU1),
    builtin(HARD_SWISH, 1, m::direct, OT::HARD_SWISH),
    builtin(ELU, 1, m::direct, OT::ELU),
    builtin(EXP, 2, m::direct, OT::EXP),
    builtin(LOG, 2, m::direct, OT::LOG),
    builtin(SQRT, 2, m::direct, OT::SQRT),
    builtin(RSQRT, 2, m::direct, OT::RSQRT),
    builtin(ABS, 4, m::direct, OT::ABS),
    builtin(NEG, 2, m::direct, OT::NEG),
    builtin(SIN, 1, m::direct, OT::SIN),
    builtin(FLOOR, 2, m::direct, OT::FLOOR),
    builtin(CAST, 4, m::direct, OT::CAST),
    builtin(QUANTIZE, 3, m::direct, OT::QUANTIZE),
    builtin(DEQUANTIZE, 5, m::dequantize, OT::DEQUANTIZE),
    builtin(DENSIFY, 1, m::densify),
    builtin(L2_NORMALIZATION, 2, m::direct, OT::L2_NORMALIZATION),
    builtin(EQUAL, 3, m::direct, OT::EQUAL),
    builtin(NOT_EQUAL, 3, m::direct, OT::NOT_EQUAL),
    builtin(LESS, 3, m::direct, OT::LESS),
    builtin(LESS_EQUAL, 3, m::direct, OT::LESS_EQUAL),
    builtin(GREATER, 3, m::direct, OT::GREATER),
    builtin(GREATER_EQUAL, 3, m::direct, OT::GREATER_EQUAL),
    builtin(LOGICAL_AND, 1, m::direct, OT::LOGICAL_AND),
    builtin(LOGICAL_OR, 1, m::direct, OT::LOGICAL_OR),
    builtin(LOGICAL_NOT, 1, m::direct, OT::LOGICAL_NOT),
    // Convolutions.
    builtin(CONV_2D, 6, m::conv2d),
    builtin(DEPTHWISE_CONV_2D, 7, m::depthwiseConv2d),
    builtin(TRANSPOSE_CONV, 4, m::transposeConv),
    builtin(FULLY_CONNECTED, 9, m::fullyConnected),
    builtin(BATCH_MATMUL, 4, m::batchMatmul),
    // Pooling, softmax, reductions, resizing.
    builtin(AVERAGE_POOL_2D, 3, m::pool2d, OT::AVERAGE_POOL_2D),
    builtin(MAX_POOL_2D, 3, m::pool2d, OT::MAX_POOL_2D),
    builtin(L2_POOL_2D, 1, m::pool2d, OT::L2_POOL_2D),
    builtin(SOFTMAX, 3, m::softmax),
    builtin(MEAN, 3, m::reduce, OT::MEAN),
    builtin(SUM, 2, m::reduce, OT::REDUCE_SUM),
    builtin(REDUCE_PROD, 2, m::reduce, OT::REDUCE_PROD),
    builtin(REDUCE_MAX, 3, m::reduce, OT::REDUCE_MAX),
    builtin(REDUCE_MIN, 3, m::reduce, OT::REDUCE_MIN),
    builtin(REDUCE_ANY, 1, m::reduce, OT::REDUCE_ANY),
    builtin(ARG_MAX, 3, m::argMinMax, OT::ARGMAX),
    builtin(ARG_MIN, 3, m::argMinMax, OT::ARGMIN),
    builtin(RESIZE_BILINEAR, 4, m::resize, OT::RESIZE_BILINEAR),
    builtin(RESIZE_NEAREST_NEIGHBOR, 4, m::resize, OT::RESIZE_NEAREST_NEIGHBOR),
    // Shapes and data movement.
    builtin(RESHAPE, 3, m::reshape),
    builtin(SQUEEZE, 2, m::squeeze),
    builtin(EXPAND_DIMS, 1, m::expandDims),
    builtin(CONCATENATION, 4, m::concatenation),
    builtin(PAD, 4, m::pad),
    builtin(PADV2, 3, m::pad),
    builtin(MIRROR_PAD, 2, m::mirrorPad),
    builtin(TRANSPOSE, 5, m::transpose),
    builtin(SLICE, 5, m::slice),
    builtin(STRIDED_SLICE, 6, m::stridedSlice),
    builtin(SPLIT, 4, m::split),
    builtin(SPLIT_V, 2, m::splitV),
    builtin(GATHER, 4, m::gather),
    builtin(PACK, 3, m::pack),
    builtin(TILE, 2, m::direct, OT::TILE),
    builtin(EMBEDDING_LOOKUP, 1, m::direct, OT::EMBEDDING_LOOKUP),
    builtin(DEPTH_TO_SPACE, 2, m::blockSize, OT::DEPTH_TO_SPACE),
    builtin(SPACE_TO_DEPTH, 2, m::blockSize, OT::SPACE_TO_DEPTH),
    // Control flow.
    builtin(IF, 1, m::ifOp),
    builtin(WHILE, 1, m::whileOp),
};
// clang-format on

constexpr std::array kCustoms = {
    OpMapping{32, "Convolution2DTransposeBias", 1, m::convolution2dTransposeBias},
};

}  // namespace

const OpMapping* findMapping(int32_t builtin, std::string_view customCode) {
  if (builtin == 32) {  // CUSTOM
    for (const OpMapping& mapping : kCustoms) {
      if (customCode == mapping.custom) return &mapping;
    }
    return nullptr;
  }
  for (const OpMapping& mapping : kBuiltins) {
    if (mapping.builtin == builtin) return &mapping;
  }
  return nullptr;
}

}  // namespace annrt::tflite
