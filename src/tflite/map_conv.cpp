// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Convolution-like operators: CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV,
// FULLY_CONNECTED, and MediaPipe's Convolution2DTransposeBias custom operator
// (an extension operation of com.annrt.tflite). TFLite and NNAPI share the
// NHWC layout and the OHWI / 1HWO filter layouts, so weights pass unchanged.
#include <cstring>

#include "tflite/extension_ops.h"
#include "tflite/map_helpers.h"

namespace annrt::tflite::mappers {
namespace {

constexpr size_t kInput = 0;
constexpr size_t kFilter = 1;
constexpr size_t kBias = 2;

uint32_t dimOf(const TensorView& tensor, size_t axis) {
  return axis < tensor.shape.size() ? static_cast<uint32_t>(tensor.shape[axis]) : 0;
}

// Appends [layout, dilation_w, dilation_h] when a dilation is not 1.
Result<void> appendDilation(Converter& c, std::vector<uint32_t>& inputs, int32_t w, int32_t h) {
  if (w == 1 && h == 1) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t layout, c.writer().addBool(false));
  ANNRT_ASSIGN_OR_RETURN(uint32_t dilationW, c.writer().addInt32(w));
  ANNRT_ASSIGN_OR_RETURN(uint32_t dilationH, c.writer().addInt32(h));
  inputs.insert(inputs.end(), {layout, dilationW, dilationH});
  return {};
}

// [input, filter, bias, padding, stride_w, stride_h] of the implicit-padding signatures.
Result<std::vector<uint32_t>> convInputs(Converter& c, size_t input, size_t filter, size_t bias,
                                         uint32_t units, fb::Padding padding, int32_t strideW,
                                         int32_t strideH) {
  std::vector<uint32_t> inputs(6);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(input));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], c.input(filter));
  ANNRT_ASSIGN_OR_RETURN(inputs[2], biasOrZeros(c, bias, input, filter, units));
  ANNRT_ASSIGN_OR_RETURN(inputs[3], c.writer().addInt32(paddingCode(padding)));
  ANNRT_ASSIGN_OR_RETURN(inputs[4], c.writer().addInt32(strideW));
  ANNRT_ASSIGN_OR_RETURN(inputs[5], c.writer().addInt32(strideH));
  return inputs;
}

}  // namespace

Result<void> conv2d(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_Conv2DOptions()));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> inputs,
                         convInputs(c, kInput, kFilter, kBias, dimOf(c.inputTensor(kFilter), 0),
                                    o->padding(), o->stride_w(), o->stride_h()));
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan, planActivation(c, o->fused_activation_function()));
  inputs.push_back(plan.fuse);
  ANNRT_RETURN_IF_ERROR(appendDilation(c, inputs, o->dilation_w_factor(), o->dilation_h_factor()));
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::CONV_2D, inputs, {plan.result}));
  return finishActivation(c, plan);
}

Result<void> depthwiseConv2d(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(
      auto* o, requireOptions(c, c.op().raw->builtin_options_as_DepthwiseConv2DOptions()));
  const uint32_t units = dimOf(c.inputTensor(kFilter), 3);
  const uint32_t inputDepth = dimOf(c.inputTensor(kInput), 3);
  // TFLite ignores depth_multiplier from version 2 on: the shapes define it.
  const int32_t multiplier =
      inputDepth > 0 ? static_cast<int32_t>(units / inputDepth) : o->depth_multiplier();
  ANNRT_ASSIGN_OR_RETURN(
      std::vector<uint32_t> inputs,
      convInputs(c, kInput, kFilter, kBias, units, o->padding(), o->stride_w(), o->stride_h()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t multiplierOperand, c.writer().addInt32(multiplier));
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan, planActivation(c, o->fused_activation_function()));
  inputs.insert(inputs.end(), {multiplierOperand, plan.fuse});
  ANNRT_RETURN_IF_ERROR(appendDilation(c, inputs, o->dilation_w_factor(), o->dilation_h_factor()));
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::DEPTHWISE_CONV_2D, inputs, {plan.result}));
  return finishActivation(c, plan);
}

// TFLite TRANSPOSE_CONV inputs: output shape, filter, input, optional bias.
Result<void> transposeConv(Converter& c, const OpMapping& m) {
  constexpr size_t kOutputShape = 0, kWeights = 1, kData = 2, kTransposeBias = 3;
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_TransposeConvOptions()));
  ANNRT_ASSIGN_OR_RETURN(
      std::vector<uint32_t> inputs,
      convInputs(c, kData, kWeights, kTransposeBias, dimOf(c.inputTensor(kWeights), 0),
                 o->padding(), o->stride_w(), o->stride_h()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t outputShape, c.input(kOutputShape));
  inputs.insert(inputs.begin() + 3, outputShape);
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan, planActivation(c, o->fused_activation_function()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t layout, c.writer().addBool(false));
  inputs.insert(inputs.end(), {plan.fuse, layout});
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::TRANSPOSE_CONV_2D, inputs, {plan.result}));
  return finishActivation(c, plan);
}

Result<void> fullyConnected(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_FullyConnectedOptions()));
  if (o->weights_format() != 0) return c.opError("shuffled weights are not supported");
  const uint32_t units = dimOf(c.inputTensor(kFilter), 0);
  std::vector<uint32_t> inputs(3);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(kInput));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], c.input(kFilter));
  ANNRT_ASSIGN_OR_RETURN(inputs[2], biasOrZeros(c, kBias, kInput, kFilter, units));
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan, planActivation(c, o->fused_activation_function()));
  inputs.push_back(plan.fuse);
  const TensorView& output = c.outputTensor(0);
  if (!o->keep_num_dims() || output.shape.size() == 2) {
    ANNRT_RETURN_IF_ERROR(c.emit(OperationType::FULLY_CONNECTED, inputs, {plan.result}));
    return finishActivation(c, plan);
  }
  // keep_num_dims: NNAPI produces [batch, units]; reshape to the TFLite output.
  ANNRT_ASSIGN_OR_RETURN(Shape flat, c.operandShape(output));
  flat.dims = {static_cast<uint32_t>(output.elementCount() / std::max(units, 1u)), units};
  ANNRT_ASSIGN_OR_RETURN(uint32_t product, c.temporary(flat));
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::FULLY_CONNECTED, inputs, {product}));
  // The stored output shape is for the declared batch; a resized one is
  // whatever the product's rows make (TFLite keeps the input's leading dims).
  std::vector<int32_t> target = output.shape;
  if (!c.storedShapesHold() && !target.empty()) target[0] = -1;
  ANNRT_ASSIGN_OR_RETURN(uint32_t shape, c.writer().addInt32Tensor(target));
  if (!plan.after) return c.emit(OperationType::RESHAPE, {product, shape}, {plan.output});
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::RESHAPE, {product, shape}, {plan.result}));
  return finishActivation(c, plan);
}

// MediaPipe's Convolution2DTransposeBias: inputs (input, filter, bias); the
// custom options are TfLiteTransposeConvParams {int32 padding (1 SAME,
// 2 VALID), int32 stride_width, int32 stride_height}.
Result<void> convolution2dTransposeBias(Converter& c, const OpMapping& m) {
  const std::span<const uint8_t> options = c.op().customOptions;
  if (options.size() < 3 * sizeof(int32_t)) {
    return c.opError("custom options have {} bytes, 12 expected", options.size());
  }
  int32_t params[3];
  std::memcpy(params, options.data(), sizeof(params));
  if (params[0] != ANEURALNETWORKS_PADDING_SAME && params[0] != ANEURALNETWORKS_PADDING_VALID) {
    return c.opError("unknown padding {}", params[0]);
  }
  if (params[1] <= 0 || params[2] <= 0) {
    return c.opError("strides {}x{} must be positive", params[1], params[2]);
  }
  std::vector<uint32_t> inputs(6);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(kInput));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], c.input(kFilter));
  ANNRT_ASSIGN_OR_RETURN(inputs[2], c.input(kBias));
  for (size_t i = 0; i < 3; ++i) {
    ANNRT_ASSIGN_OR_RETURN(inputs[3 + i], c.writer().addInt32(params[i]));
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emitExtension(kConvolution2dTransposeBias, kConvolution2dTransposeBiasName, inputs,
                         {output});
}

}  // namespace annrt::tflite::mappers
