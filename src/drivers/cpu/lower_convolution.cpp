// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D (NHWC, constant filter and bias) and
// FULLY_CONNECTED (constant weights and bias).
#include "drivers/cpu/op_lowering.h"
#include "drivers/cpu/window.h"

namespace annrt::cpu {
namespace {

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;

struct ConvOp {
  Window window;
  OutputRange range;
  uint32_t inChannels = 0, outChannels = 0, depthMultiplier = 1;
  bool depthwise = false;
};

Result<void> checkFilterAndBias(const LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {kInput, kFilter, kBias}));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, kFilter));
  return context.checkConstant(op, kBias);
}

Result<ConvOp> readConv(const LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(checkFilterAndBias(context, op));
  ConvOp conv;
  conv.depthwise = op.type == OperationType::DEPTHWISE_CONV_2D;
  const WindowForm form = windowForm(context, op, /*first=*/3, conv.depthwise ? 1 : 0);
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, form.layoutIndex));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(filter) == 4, "input and filter must have rank 4");
  ANNRT_ASSIGN_OR_RETURN(conv.window,
                         readWindow(context, op, form, true, filter.dims[1], filter.dims[2]));
  ANNRT_ASSIGN_OR_RETURN(conv.range, fusedActivation(context, op, form.activationIndex));
  conv.inChannels = input.dims[3];
  conv.outChannels = conv.depthwise ? filter.dims[3] : filter.dims[0];
  if (conv.depthwise) {
    ANNRT_ASSIGN_OR_RETURN(int32_t multiplier, context.intScalar(op, form.strideIndex + 2));
    ANNRT_CPU_REQUIRE(multiplier > 0 && filter.dims[0] == 1 &&
                          conv.inChannels * static_cast<uint32_t>(multiplier) == conv.outChannels,
                      "depthwise filter {} does not match {} channels x multiplier {}",
                      toString(filter.dims), conv.inChannels, multiplier);
    conv.depthMultiplier = static_cast<uint32_t>(multiplier);
  } else {
    ANNRT_CPU_REQUIRE(filter.dims[3] == conv.inChannels, "filter {} does not match {} channels",
                      toString(filter.dims), conv.inChannels);
  }
  const Shape& bias = context.input(op, kBias).shape;
  ANNRT_CPU_REQUIRE(rank(bias) == 1 && bias.dims[0] == conv.outChannels,
                    "bias {} does not match {} output channels", toString(bias.dims),
                    conv.outChannels);
  const Shape& output = context.output(op, 0).shape;
  ANNRT_RETURN_IF_ERROR(checkWindowOutput(conv.window, input, output));
  ANNRT_CPU_REQUIRE(output.dims[3] == conv.outChannels, "output {} does not have {} channels",
                    toString(output.dims), conv.outChannels);
  return conv;
}

Result<void> defineConv(LoweringContext& context, const Operation& op, const ConvOp& conv) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.inputValue(op, kInput));
  ANNRT_ASSIGN_OR_RETURN(uint32_t filter, context.inputValue(op, kFilter));
  ANNRT_ASSIGN_OR_RETURN(uint32_t bias, context.inputValue(op, kBias));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, context.outputValue(op, 0));
  const Window& w = conv.window;
  if (conv.depthwise) {
    return checkXnn(xnn_define_depthwise_convolution_2d(
                        context.subgraph(), w.padTop, w.padRight, w.padBottom, w.padLeft,
                        w.filterHeight, w.filterWidth, w.strideHeight, w.strideWidth,
                        w.dilationHeight, w.dilationWidth, conv.depthMultiplier, conv.inChannels,
                        conv.range.min, conv.range.max, input, filter, bias, output, 0),
                    "xnn_define_depthwise_convolution_2d");
  }
  return checkXnn(
      xnn_define_convolution_2d(context.subgraph(), w.padTop, w.padRight, w.padBottom, w.padLeft,
                                w.filterHeight, w.filterWidth, w.strideHeight, w.strideWidth,
                                w.dilationHeight, w.dilationWidth, /*groups=*/1, conv.inChannels,
                                conv.outChannels, conv.range.min, conv.range.max, input, filter,
                                bias, output, 0),
      "xnn_define_convolution_2d");
}

}  // namespace

Result<void> lowerConvolution(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(ConvOp conv, readConv(context, op));
  if (context.checking()) return {};
  return defineConv(context, op, conv);
}

Result<void> lowerFullyConnected(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 4, "FULLY_CONNECTED needs 4 inputs");
  ANNRT_RETURN_IF_ERROR(checkFilterAndBias(context, op));
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, 3));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& weights = context.input(op, kFilter).shape;
  const Shape& bias = context.input(op, kBias).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(rank(weights) == 2 && rank(bias) == 1 && rank(output) == 2,
                    "weights, bias and output must have ranks 2, 1 and 2");
  const uint32_t units = weights.dims[0], inputSize = weights.dims[1];
  ANNRT_CPU_REQUIRE(bias.dims[0] == units && output.dims[1] == units &&
                        elementCount(input) == size_t{output.dims[0]} * inputSize,
                    "shapes input {} weights {} bias {} output {} do not match",
                    toString(input.dims), toString(weights.dims), toString(bias.dims),
                    toString(output.dims));
  if (context.checking()) return {};
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, kInput));
  ANNRT_ASSIGN_OR_RETURN(uint32_t filter, context.inputValue(op, kFilter));
  ANNRT_ASSIGN_OR_RETURN(uint32_t biasId, context.inputValue(op, kBias));
  ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
  return checkXnn(xnn_define_fully_connected(context.subgraph(), range.min, range.max, in, filter,
                                             biasId, out, XNN_FLAG_TENSORFLOW_RESHAPE_2D),
                  "xnn_define_fully_connected");
}

}  // namespace annrt::cpu
