// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {

Result<OutputRange> fusedActivation(const LoweringContext& context, const Operation& op,
                                    uint32_t i) {
  ANNRT_ASSIGN_OR_RETURN(int32_t code, context.intScalar(op, i));
  switch (static_cast<FusedActivation>(code)) {
    case FusedActivation::NONE: return OutputRange{};
    case FusedActivation::RELU: return OutputRange{.min = 0.0f};
    case FusedActivation::RELU1: return OutputRange{.min = -1.0f, .max = 1.0f};
    case FusedActivation::RELU6: return OutputRange{.min = 0.0f, .max = 6.0f};
  }
  return makeError(ErrorCode::OP_FAILED, "unknown fused activation {}", code);
}

std::optional<OutputRange> reluRange(OperationType type) {
  switch (type) {
    case OperationType::RELU: return OutputRange{.min = 0.0f};
    case OperationType::RELU1: return OutputRange{.min = -1.0f, .max = 1.0f};
    case OperationType::RELU6: return OutputRange{.min = 0.0f, .max = 6.0f};
    default: return std::nullopt;
  }
}

Result<void> requireNhwc(const LoweringContext& context, const Operation& op, uint32_t i) {
  if (i >= op.inputs.size()) return {};
  ANNRT_ASSIGN_OR_RETURN(bool nchw, context.boolScalar(op, i));
  ANNRT_CPU_REQUIRE(!nchw, "NCHW layout is not supported");
  return {};
}

bool isTransposeConvBias(const LoweringContext& context, const Operation& op) {
  return isTransposeConvBias(context.model(), op);
}

bool isTransposeConvBias(const Model& model, const Operation& op) {
  const auto code = static_cast<uint32_t>(op.type);
  if (!isExtensionCode(static_cast<int32_t>(op.type))) return false;
  const auto prefix = static_cast<uint16_t>(code >> kExtensionTypeBits);
  for (const ExtensionPrefix& extension : model.extensions) {
    if (extension.prefix == prefix && extension.name == "com.annrt.tflite" &&
        (code & 0xffff) == 0) {
      return true;
    }
  }
  return false;
}

namespace {

// Extension operations annrt-cpu lowers: com.annrt.tflite's
// CONVOLUTION_2D_TRANSPOSE_BIAS (code 0), which the TFLite importer emits
// for MediaPipe's Convolution2DTransposeBias.
Result<void> lowerExtension(LoweringContext& context, const Operation& op) {
  const auto code = static_cast<uint32_t>(op.type);
  if (isTransposeConvBias(context, op)) return lowerTransposedConvolution(context, op);
  return makeError(ErrorCode::OP_FAILED,
                   "extension operation {:#x} is not implemented by annrt-cpu", code);
}

}  // namespace

Result<void> lowerOperation(LoweringContext& context, const Operation& op) {
  switch (op.type) {
    case OperationType::CONV_2D:
    case OperationType::DEPTHWISE_CONV_2D:
    case OperationType::GROUPED_CONV_2D: return lowerConvolution(context, op);
    case OperationType::TRANSPOSE_CONV_2D: return lowerTransposedConvolution(context, op);
    case OperationType::BATCH_MATMUL: return lowerBatchMatmul(context, op);
    case OperationType::FULLY_CONNECTED: return lowerFullyConnected(context, op);
    case OperationType::AVERAGE_POOL_2D:
    case OperationType::MAX_POOL_2D: return lowerPooling(context, op);
    case OperationType::ADD:
    case OperationType::MUL:
    case OperationType::SUB:
    case OperationType::DIV:
    case OperationType::MAXIMUM:
    case OperationType::MINIMUM: return lowerBinary(context, op);
    case OperationType::RELU:
    case OperationType::RELU1:
    case OperationType::RELU6:
    case OperationType::LOGISTIC:
    case OperationType::TANH:
    case OperationType::HARD_SWISH:
    case OperationType::ELU:
    case OperationType::ABS:
    case OperationType::FLOOR:
    case OperationType::NEG:
    case OperationType::SQRT: return lowerUnary(context, op);
    case OperationType::SOFTMAX: return lowerSoftmax(context, op);
    case OperationType::RESHAPE:
    case OperationType::SQUEEZE:
    case OperationType::EXPAND_DIMS: return lowerReshape(context, op);
    case OperationType::PAD:
    case OperationType::PAD_V2: return lowerPad(context, op);
    case OperationType::RESIZE_BILINEAR: return lowerResize(context, op);
    case OperationType::DEPTH_TO_SPACE: return lowerDepthToSpace(context, op);
    case OperationType::CONCATENATION: return lowerConcatenation(context, op);
    case OperationType::MEAN:
    case OperationType::REDUCE_SUM:
    case OperationType::REDUCE_MAX:
    case OperationType::REDUCE_MIN: return lowerReduction(context, op);
    case OperationType::QUANTIZE:
    case OperationType::DEQUANTIZE: return lowerConversion(context, op);
    case OperationType::CAST: return lowerCast(context, op);
    case OperationType::PRELU: return lowerPrelu(context, op);
    default:
      if (isExtensionCode(static_cast<int32_t>(op.type))) return lowerExtension(context, op);
      return makeError(ErrorCode::OP_FAILED, "{} is not implemented by annrt-cpu",
                       operationTypeName(op.type));
  }
}

}  // namespace annrt::cpu
