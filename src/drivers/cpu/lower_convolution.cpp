// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONV_2D, GROUPED_CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV_2D (NHWC,
// constant filter and bias), MediaPipe's Convolution2DTransposeBias (the
// com.annrt.tflite extension), FULLY_CONNECTED (constant weights and bias)
// and BATCH_MATMUL (constant right-hand side), in float32 and in quant8 asymm (uint8) or asymm
// signed (int8), also with per-channel int8 filters.
//
// Quantized ops run on XNNPACK's integer kernels when they take the op as
// is. Where their constraints differ from NNAPI's (per-channel filters with
// uint8 activations or in transposed convolutions, int8 filters with a zero
// point, requantization scales outside [2^-32, 256), a fused activation that
// leaves no quantized range), the op is computed in float32 instead: the
// input dequantized (exactly), the constant filter and bias dequantized once
// when the runtime is built, one float convolution and one quantize of the
// result, which is NNAPI's definition of the quantized op up to rounding.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "common/log.h"
#include "drivers/cpu/convolution_params.h"
#include "drivers/cpu/op_lowering.h"
#include "drivers/cpu/window.h"
#include "ops/util/shape_helpers.h"

namespace annrt::cpu {
namespace {

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;

// XNNPACK's quantized kernels requantize with one float multiplier per
// output channel, input_scale * filter_scale / output_scale, and only accept
// it in [2^-32, 256) (below it asserts, above it refuses the runtime).
Result<void> checkRequantization(float inputScale, float filterScale, float outputScale) {
  const float scale = inputScale * filterScale / outputScale;
  ANNRT_CPU_REQUIRE(scale >= 0x1.0p-32f && scale < 256.0f,
                    "requantization scale {} (input {} x filter {} / output {}) is outside "
                    "XNNPACK's [2^-32, 256)",
                    scale, inputScale, filterScale, outputScale);
  return {};
}

// Whether XNNPACK's integer kernels compute the quantized op exactly as
// NNAPI defines it; the error says why not. `perChannelKernels`: XNNPACK has
// per-channel (qc8) kernels for this op, which take int8 activations only.
Result<void> checkIntegerKernels(const LoweringContext& context, const Operation& op,
                                 bool perChannelKernels, const OutputRange& range) {
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_RETURN_IF_ERROR(checkQuantizedRange(range, output));
  if (filter.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    ANNRT_CPU_REQUIRE(perChannelKernels, "XNNPACK has no per-channel kernels for {}",
                      operationTypeName(op.type));
    ANNRT_CPU_REQUIRE(input.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                      "XNNPACK's per-channel kernels take int8 activations, input is {}",
                      operandTypeName(input.type));
    ANNRT_CPU_REQUIRE(filter.channelQuant.has_value(), "a per-channel filter without its scales");
    for (float scale : filter.channelQuant->scales) {
      ANNRT_RETURN_IF_ERROR(checkRequantization(input.scale, scale, output.scale));
    }
    return {};
  }
  // XNNPACK's int8 kernels take symmetric filters (they ignore a zero point).
  ANNRT_CPU_REQUIRE(filter.type == OperandType::TENSOR_QUANT8_ASYMM || filter.zeroPoint == 0,
                    "XNNPACK's int8 kernels need filter zero point 0, not {}", filter.zeroPoint);
  return checkRequantization(input.scale, filter.scale, output.scale);
}

// Checks the filter's and bias's types against the input's; for quantized
// ops, returns why the op must run in float32 (empty: XNNPACK's integer
// kernels). `channelDim` is where NNAPI keeps per-channel filter scales.
Result<std::string> checkFilterAndBias(const LoweringContext& context, const Operation& op,
                                       uint32_t channelDim, bool perChannelKernels,
                                       const OutputRange& range) {
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {kInput}));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, kFilter));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, kBias));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  const Shape& bias = context.input(op, kBias).shape;
  if (input.type == OperandType::TENSOR_FLOAT32) {
    ANNRT_CPU_REQUIRE(filter.type == input.type && bias.type == input.type,
                      "float32 input needs float32 filter and bias");
    return std::string();
  }
  ANNRT_CPU_REQUIRE(bias.type == OperandType::TENSOR_INT32, "quantized bias must be int32");
  if (filter.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    ANNRT_CPU_REQUIRE(filter.channelQuant && filter.channelQuant->channelDim == channelDim &&
                          filter.channelQuant->scales.size() == filter.dims[channelDim],
                      "per-channel scales must be along filter dimension {}", channelDim);
    for (float scale : filter.channelQuant->scales) {
      ANNRT_CPU_REQUIRE(std::isnormal(scale) && scale > 0.0f, "filter channel scale {}", scale);
    }
  } else {
    ANNRT_CPU_REQUIRE(filter.type == input.type, "filter is {}, input {}",
                      operandTypeName(filter.type), operandTypeName(input.type));
    ANNRT_CPU_REQUIRE(std::isnormal(filter.scale) && filter.scale > 0.0f, "filter scale {}",
                      filter.scale);
  }
  Result<void> native = checkIntegerKernels(context, op, perChannelKernels, range);
  return native.ok() ? std::string() : native.error().message;
}

using DefineNode =
    std::function<Result<void>(uint32_t input, uint32_t filter, uint32_t bias, uint32_t output)>;

// Defines a convolution node on the op's own values, or on float32 ones for
// a quantized op computed in float32 (the node then writes a float32 value
// that is quantized into the output).
Result<void> defineWithValues(LoweringContext& context, const Operation& op,
                              const std::string& floatReason, const DefineNode& define) {
  if (floatReason.empty()) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.inputValue(op, kInput));
    ANNRT_ASSIGN_OR_RETURN(uint32_t filter, context.filterValue(op, kFilter));
    ANNRT_ASSIGN_OR_RETURN(uint32_t bias, context.biasValue(op, kBias, kInput, kFilter));
    ANNRT_ASSIGN_OR_RETURN(uint32_t output, context.outputValue(op, 0));
    return define(input, filter, bias, output);
  }
  ANNRT_VLOG(DRIVER, "annrt-cpu: computing a quantized {} in float32: {}",
             operationTypeName(op.type), floatReason);
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, context.floatInputValue(op, kInput));
  ANNRT_ASSIGN_OR_RETURN(uint32_t filter, context.dequantizedConstant(op, kFilter));
  ANNRT_ASSIGN_OR_RETURN(uint32_t bias, context.floatBias(op, kBias, kInput, kFilter));
  return context.withFloatOutput(
      op, 0, [&](uint32_t output) { return define(input, filter, bias, output); });
}

}  // namespace

Result<ConvParams> readConvolution(const LoweringContext& context, const Operation& op) {
  ConvParams conv;
  conv.depthwise = op.type == OperationType::DEPTHWISE_CONV_2D;
  const bool grouped = op.type == OperationType::GROUPED_CONV_2D;
  // DEPTHWISE_CONV_2D's multiplier and GROUPED_CONV_2D's group count follow
  // the strides; GROUPED_CONV_2D has no dilation.
  const WindowForm form = windowForm(context, op, /*first=*/3, conv.depthwise || grouped ? 1 : 0);
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, form.layoutIndex));
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {kInput}));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(filter) == 4, "input and filter must have rank 4");
  ANNRT_ASSIGN_OR_RETURN(conv.window, readWindow(context, op, form, /*hasDilation=*/!grouped,
                                                 filter.dims[1], filter.dims[2]));
  ANNRT_ASSIGN_OR_RETURN(conv.range, fusedActivation(context, op, form.activationIndex));
  ANNRT_ASSIGN_OR_RETURN(conv.floatReason,
                         checkFilterAndBias(context, op, conv.depthwise ? 3 : 0,
                                            /*perChannelKernels=*/true, conv.range));
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
    if (grouped) {
      ANNRT_ASSIGN_OR_RETURN(int32_t groups, context.intScalar(op, form.strideIndex + 2));
      ANNRT_CPU_REQUIRE(groups > 0 && conv.inChannels % static_cast<uint32_t>(groups) == 0 &&
                            conv.outChannels % static_cast<uint32_t>(groups) == 0,
                        "{} groups do not divide {} input and {} output channels", groups,
                        conv.inChannels, conv.outChannels);
      conv.groups = static_cast<uint32_t>(groups);
    }
    ANNRT_CPU_REQUIRE(filter.dims[3] * conv.groups == conv.inChannels,
                      "filter {} does not match {} channels in {} groups", toString(filter.dims),
                      conv.inChannels, conv.groups);
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

namespace {

Result<void> defineConv(LoweringContext& context, const Operation& op, const ConvParams& conv) {
  const Window& w = conv.window;
  return defineWithValues(
      context, op, conv.floatReason,
      [&](uint32_t input, uint32_t filter, uint32_t bias, uint32_t output) -> Result<void> {
        if (conv.depthwise) {
          return checkXnn(
              xnn_define_depthwise_convolution_2d(
                  context.subgraph(), w.padTop, w.padRight, w.padBottom, w.padLeft, w.filterHeight,
                  w.filterWidth, w.strideHeight, w.strideWidth, w.dilationHeight, w.dilationWidth,
                  conv.depthMultiplier, conv.inChannels, conv.range.min, conv.range.max, input,
                  filter, bias, output, 0),
              "xnn_define_depthwise_convolution_2d");
        }
        // NNAPI's grouped filter [groups * out_per_group, h, w, in_per_group]
        // is XNNPACK's grouped layout as is.
        return checkXnn(
            xnn_define_convolution_2d(
                context.subgraph(), w.padTop, w.padRight, w.padBottom, w.padLeft, w.filterHeight,
                w.filterWidth, w.strideHeight, w.strideWidth, w.dilationHeight, w.dilationWidth,
                conv.groups, conv.inChannels / conv.groups, conv.outChannels / conv.groups,
                conv.range.min, conv.range.max, input, filter, bias, output, 0),
            "xnn_define_convolution_2d");
      });
}

}  // namespace

Result<void> lowerConvolution(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(ConvParams conv, readConvolution(context, op));
  if (context.checking()) return {};
  return defineConv(context, op, conv);
}

Result<void> lowerFullyConnected(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 4, "FULLY_CONNECTED needs 4 inputs");
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, 3));
  ANNRT_ASSIGN_OR_RETURN(std::string floatReason,
                         checkFilterAndBias(context, op, 0, /*perChannelKernels=*/false, range));
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
  return defineWithValues(
      context, op, floatReason, [&](uint32_t in, uint32_t filter, uint32_t bias, uint32_t out) {
        return checkXnn(
            xnn_define_fully_connected(context.subgraph(), range.min, range.max, in, filter, bias,
                                       out, XNN_FLAG_TENSORFLOW_RESHAPE_2D),
            "xnn_define_fully_connected");
      });
}

namespace {

Result<DeconvAxis> deconvAxis(int64_t head, int64_t tail, uint32_t stride) {
  ANNRT_CPU_REQUIRE(head >= 0 && tail > -static_cast<int64_t>(stride),
                    "paddings {} and {} are not supported", head, tail);
  DeconvAxis axis{.head = static_cast<uint32_t>(head)};
  if (tail >= 0) {
    axis.tail = static_cast<uint32_t>(tail);
  } else {
    axis.adjustment = static_cast<uint32_t>(-tail);
  }
  return axis;
}

// Implicit padding of one axis for a requested output size, as the reference
// computes it: SAME pads like a forward convolution over the output.
std::pair<int64_t, int64_t> implicitDeconvPadding(int32_t scheme, int64_t out, int64_t stride,
                                                  int64_t filter) {
  if (scheme != static_cast<int32_t>(ops::PaddingScheme::SAME)) return {0, 0};
  const int64_t windows = (out + stride - 1) / stride;
  const int64_t needed = (windows - 1) * stride + filter - out;
  const int64_t head = needed > 0 ? needed / 2 : 0;
  return {head, needed - head};
}

// XNNPACK runs a strided deconvolution as stride x stride subconvolutions,
// one per first output row and column (0 .. stride - 1), and sizes each as
// (output size - first row or column) in unsigned arithmetic: an output
// smaller than its stride minus 1 makes that wrap, and XNNPACK writes or
// reads far out of bounds (found by fuzz_cpu_vs_reference).
Result<void> requireSubconvolutionSizes(const LoweringContext& context, const Operation& op,
                                        const DeconvParams& deconv) {
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(
      output.dims[1] + 1 >= deconv.strideHeight && output.dims[2] + 1 >= deconv.strideWidth,
      "an output {}x{} is smaller than its strides {}x{} minus 1", output.dims[1], output.dims[2],
      deconv.strideHeight, deconv.strideWidth);
  return {};
}

Result<void> defineDeconv(LoweringContext& context, const Operation& op,
                          const DeconvParams& deconv) {
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  const DeconvAxis& v = deconv.vertical;
  const DeconvAxis& h = deconv.horizontal;
  return defineWithValues(
      context, op, deconv.floatReason,
      [&](uint32_t in, uint32_t filterId, uint32_t bias, uint32_t out) {
        return checkXnn(xnn_define_deconvolution_2d(
                            context.subgraph(), v.head, h.tail, v.tail, h.head, v.adjustment,
                            h.adjustment, filter.dims[1], filter.dims[2], deconv.strideHeight,
                            deconv.strideWidth, 1, 1, 1, input.dims[3], filter.dims[0],
                            deconv.range.min, deconv.range.max, in, filterId, bias, out, 0),
                        "xnn_define_deconvolution_2d");
      });
}

Result<DeconvParams> readTransposeConv(const LoweringContext& context, const Operation& op);
Result<DeconvParams> readTransposeConvBias(const LoweringContext& context, const Operation& op);

}  // namespace

Result<DeconvParams> readTransposedConvolution(const LoweringContext& context,
                                               const Operation& op) {
  return op.type == OperationType::TRANSPOSE_CONV_2D ? readTransposeConv(context, op)
                                                     : readTransposeConvBias(context, op);
}

Result<void> lowerTransposedConvolution(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(DeconvParams deconv, readTransposedConvolution(context, op));
  ANNRT_RETURN_IF_ERROR(requireSubconvolutionSizes(context, op, deconv));
  if (context.checking()) return {};
  return defineDeconv(context, op, deconv);
}

namespace {

// Inputs: image, filter [out, h, w, in], bias, then explicit paddings
// (left, right, top, bottom) or an output shape tensor and a padding scheme,
// strides (width, height), the fused activation and the layout.
Result<DeconvParams> readTransposeConv(const LoweringContext& context, const Operation& op) {
  const bool explicitPadding = op.inputs.size() == 11;
  ANNRT_CPU_REQUIRE(explicitPadding || op.inputs.size() == 9, "unexpected input count {}",
                    op.inputs.size());
  const uint32_t strideIndex = explicitPadding ? 7 : 5;
  ANNRT_RETURN_IF_ERROR(requireNhwc(context, op, strideIndex + 3));
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, strideIndex + 2));
  // Debian's XNNPACK has no per-channel deconvolution kernels.
  ANNRT_ASSIGN_OR_RETURN(std::string floatReason,
                         checkFilterAndBias(context, op, 0, /*perChannelKernels=*/false, range));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  const Shape& bias = context.input(op, kBias).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(filter) == 4 && rank(output) == 4,
                    "input, filter and output must have rank 4");
  ANNRT_CPU_REQUIRE(filter.dims[3] == input.dims[3] && bias.dims[0] == filter.dims[0] &&
                        output.dims[3] == filter.dims[0] && output.dims[0] == input.dims[0],
                    "filter {} bias {} do not match input {} and output {}", toString(filter.dims),
                    toString(bias.dims), toString(input.dims), toString(output.dims));
  ANNRT_ASSIGN_OR_RETURN(int32_t strideWidth, context.intScalar(op, strideIndex));
  ANNRT_ASSIGN_OR_RETURN(int32_t strideHeight, context.intScalar(op, strideIndex + 1));
  ANNRT_CPU_REQUIRE(strideWidth > 0 && strideHeight > 0, "strides must be positive");
  const uint32_t sh = static_cast<uint32_t>(strideHeight), sw = static_cast<uint32_t>(strideWidth);
  std::pair<int64_t, int64_t> vertical, horizontal;
  if (explicitPadding) {
    ANNRT_ASSIGN_OR_RETURN(int32_t left, context.intScalar(op, 3));
    ANNRT_ASSIGN_OR_RETURN(int32_t right, context.intScalar(op, 4));
    ANNRT_ASSIGN_OR_RETURN(int32_t top, context.intScalar(op, 5));
    ANNRT_ASSIGN_OR_RETURN(int32_t bottom, context.intScalar(op, 6));
    ANNRT_CPU_REQUIRE(left >= 0 && right >= 0 && top >= 0 && bottom >= 0, "negative paddings");
    vertical = {top, bottom};
    horizontal = {left, right};
  } else {
    ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> shape, context.intTensor(op, 3));
    ANNRT_CPU_REQUIRE(shape.size() == 4 && shape[1] == static_cast<int32_t>(output.dims[1]) &&
                          shape[2] == static_cast<int32_t>(output.dims[2]),
                      "output shape tensor does not match output {}", toString(output.dims));
    ANNRT_ASSIGN_OR_RETURN(int32_t scheme, context.intScalar(op, 4));
    vertical = implicitDeconvPadding(scheme, output.dims[1], sh, filter.dims[1]);
    horizontal = implicitDeconvPadding(scheme, output.dims[2], sw, filter.dims[2]);
  }
  ANNRT_ASSIGN_OR_RETURN(DeconvAxis v, deconvAxis(vertical.first, vertical.second, sh));
  ANNRT_ASSIGN_OR_RETURN(DeconvAxis h, deconvAxis(horizontal.first, horizontal.second, sw));
  auto size = [](uint32_t in, uint32_t stride, uint32_t k, const DeconvAxis& a) {
    return int64_t{in - 1} * stride + k + a.adjustment - a.head - a.tail;
  };
  ANNRT_CPU_REQUIRE(size(input.dims[1], sh, filter.dims[1], v) == output.dims[1] &&
                        size(input.dims[2], sw, filter.dims[2], h) == output.dims[2],
                    "output {} does not match the transposed convolution of {}",
                    toString(output.dims), toString(input.dims));
  return DeconvParams{v, h, sh, sw, range, floatReason};
}

// MediaPipe's Convolution2DTransposeBias (float32, no activation): inputs
// image, filter [out, h, w, in], bias, padding scheme (1 SAME, 2 VALID),
// stride width, stride height. Per axis the output is stride * (in - 1) +
// filter - pad, with pad = max(0, filter - (in - 1) % stride - 1) for SAME, of
// which pad / 2 comes first: XNNPACK's deconvolution with those paddings.
Result<DeconvParams> readTransposeConvBias(const LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 6, "unexpected input count {}", op.inputs.size());
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {kInput}));
  ANNRT_RETURN_IF_ERROR(checkFilterAndBias(context, op, 0, false, OutputRange{}));
  ANNRT_ASSIGN_OR_RETURN(int32_t scheme, context.intScalar(op, 3));
  ANNRT_ASSIGN_OR_RETURN(int32_t strideWidth, context.intScalar(op, 4));
  ANNRT_ASSIGN_OR_RETURN(int32_t strideHeight, context.intScalar(op, 5));
  ANNRT_CPU_REQUIRE((scheme == 1 || scheme == 2) && strideWidth > 0 && strideHeight > 0,
                    "padding scheme {} or strides {}x{} are invalid", scheme, strideWidth,
                    strideHeight);
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  const Shape& bias = context.input(op, kBias).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && rank(filter) == 4 && rank(bias) == 1 && rank(output) == 4,
                    "input, filter, bias and output must have ranks 4, 4, 1, 4");
  ANNRT_CPU_REQUIRE(filter.dims[3] == input.dims[3] && bias.dims[0] == filter.dims[0] &&
                        output.dims[3] == filter.dims[0] && output.dims[0] == input.dims[0],
                    "filter {} bias {} do not match input {} and output {}", toString(filter.dims),
                    toString(bias.dims), toString(input.dims), toString(output.dims));
  auto axis = [&](uint32_t in, uint32_t k, uint32_t stride, uint32_t out) -> Result<DeconvAxis> {
    const int64_t pad = scheme == 1 ? std::max<int64_t>(0, int64_t{k} - (in - 1) % stride - 1) : 0;
    ANNRT_CPU_REQUIRE(int64_t{stride} * (in - 1) + k - pad == out,
                      "output {} does not match the transposed convolution of {}",
                      toString(output.dims), toString(input.dims));
    return DeconvAxis{.head = static_cast<uint32_t>(pad / 2),
                      .tail = static_cast<uint32_t>(pad - pad / 2)};
  };
  const uint32_t sh = static_cast<uint32_t>(strideHeight), sw = static_cast<uint32_t>(strideWidth);
  ANNRT_ASSIGN_OR_RETURN(DeconvAxis v, axis(input.dims[1], filter.dims[1], sh, output.dims[1]));
  ANNRT_ASSIGN_OR_RETURN(DeconvAxis h, axis(input.dims[2], filter.dims[2], sw, output.dims[2]));
  return DeconvParams{v, h, sh, sw, OutputRange{}, std::string()};
}

}  // namespace

// BATCH_MATMUL with a constant right-hand side [..., K, N] whose batch
// dimensions are 1 is a fully connected layer applied to the last dimension
// of the left-hand side: XNNPACK's fully connected node without the 2-D
// reshape keeps the leading dimensions, and takes [K, N] weights with
// XNN_FLAG_TRANSPOSE_WEIGHTS (adj_y: [N, K] as they are). adj_x, a transposed
// left-hand side, has no XNNPACK transpose to go through.
Result<void> lowerBatchMatmul(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 4, "unexpected input count {}", op.inputs.size());
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, 1));
  ANNRT_ASSIGN_OR_RETURN(bool adjX, context.boolScalar(op, 2));
  ANNRT_ASSIGN_OR_RETURN(bool adjY, context.boolScalar(op, 3));
  ANNRT_CPU_REQUIRE(!adjX, "adj_x (a transposed left-hand side) is not lowered");
  const Shape& lhs = context.input(op, 0).shape;
  const Shape& rhs = context.input(op, 1).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(rhs.type == lhs.type, "right-hand side is {}, left {}",
                    operandTypeName(rhs.type), operandTypeName(lhs.type));
  ANNRT_CPU_REQUIRE(rank(lhs) >= 2 && rank(rhs) >= 2, "operands must have rank 2 or more");
  for (uint32_t d = 0; d + 2 < rank(rhs); ++d) {
    ANNRT_CPU_REQUIRE(rhs.dims[d] == 1, "right-hand side {} has batches", toString(rhs.dims));
  }
  const uint32_t rows = rhs.dims[rank(rhs) - 2], cols = rhs.dims[rank(rhs) - 1];
  const uint32_t k = adjY ? cols : rows, n = adjY ? rows : cols;
  std::vector<uint32_t> expected = lhs.dims;
  expected.back() = n;
  ANNRT_CPU_REQUIRE(lhs.dims.back() == k && output.dims == expected,
                    "cannot multiply {} by {} into {}", toString(lhs.dims), toString(rhs.dims),
                    toString(output.dims));
  std::string floatReason;
  if (isQuantized8(lhs.type)) {
    Result<void> native =
        rhs.type == OperandType::TENSOR_QUANT8_ASYMM || rhs.zeroPoint == 0
            ? checkRequantization(lhs.scale, rhs.scale, output.scale)
            : makeError(ErrorCode::OP_FAILED, "XNNPACK's int8 kernels need weight zero point 0");
    if (!native.ok()) floatReason = native.error().message;
  }
  if (context.checking()) return {};
  const std::vector<uint32_t> weightDims{rows, cols};
  const uint32_t flags = adjY ? 0 : XNN_FLAG_TRANSPOSE_WEIGHTS;
  auto define = [&](uint32_t in, uint32_t weights, uint32_t out) {
    return checkXnn(xnn_define_fully_connected(context.subgraph(), -INFINITY, INFINITY, in, weights,
                                               XNN_INVALID_VALUE_ID, out, flags),
                    "xnn_define_fully_connected");
  };
  if (floatReason.empty()) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.inputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(uint32_t weights, context.reshapedConstant(op, 1, weightDims));
    ANNRT_ASSIGN_OR_RETURN(uint32_t out, context.outputValue(op, 0));
    return define(in, weights, out);
  }
  ANNRT_VLOG(DRIVER, "annrt-cpu: computing a quantized BATCH_MATMUL in float32: {}", floatReason);
  ANNRT_ASSIGN_OR_RETURN(uint32_t in, context.floatInputValue(op, 0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t weights, context.dequantizedConstant(op, 1, weightDims));
  return context.withFloatOutput(op, 0, [&](uint32_t out) { return define(in, weights, out); });
}

}  // namespace annrt::cpu
