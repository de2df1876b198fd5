// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/node_options.h"

#include "tflite_delegate/builtin_op_data.h"

namespace annrt::tflite::delegate {
namespace {

using flatbuffers::FlatBufferBuilder;
namespace abi = ::annrt::tflite::delegate::abi;

// BuiltinOperator values (TFLite's schema).
enum Builtin : int32_t {
  ADD = 0,
  AVERAGE_POOL_2D = 1,
  CONCATENATION = 2,
  CONV_2D = 3,
  DEPTHWISE_CONV_2D = 4,
  DEQUANTIZE = 6,
  FULLY_CONNECTED = 9,
  LOGISTIC = 14,
  MAX_POOL_2D = 17,
  MUL = 18,
  RELU = 19,
  RELU_N1_TO_1 = 20,
  RELU6 = 21,
  RESHAPE = 22,
  RESIZE_BILINEAR = 23,
  SOFTMAX = 25,
  TANH = 28,
  CUSTOM = 32,
  PAD = 34,
  TRANSPOSE = 39,
  MEAN = 40,
  SUB = 41,
  DIV = 42,
  PRELU = 54,
  MAXIMUM = 55,
  MINIMUM = 57,
  TRANSPOSE_CONV = 67,
  HARD_SWISH = 117,
};

fb::Padding padding(abi::TfLitePadding value) {
  return value == abi::kTfLitePaddingValid ? fb::Padding::VALID : fb::Padding::SAME;
}

// kTfLiteActSigmoid has no .tflite counterpart (TFLite's converter never
// fuses it); nullopt leaves such a node with TFLite.
std::optional<fb::ActivationFunctionType> activation(abi::TfLiteFusedActivation value) {
  switch (value) {
    case abi::kTfLiteActNone: return fb::ActivationFunctionType::NONE;
    case abi::kTfLiteActRelu: return fb::ActivationFunctionType::RELU;
    case abi::kTfLiteActReluN1To1: return fb::ActivationFunctionType::RELU_N1_TO_1;
    case abi::kTfLiteActRelu6: return fb::ActivationFunctionType::RELU6;
    case abi::kTfLiteActTanh: return fb::ActivationFunctionType::TANH;
    default: return std::nullopt;
  }
}

template <typename T>
const T& params(const TfLiteNode& node) {
  return *static_cast<const T*>(node.builtin_data);
}

std::optional<NodeOptions> convOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLiteConvParams>(node);
  const auto act = activation(p.activation);
  if (!act) return std::nullopt;
  return NodeOptions{
      fb::BuiltinOptions::Conv2DOptions,
      fb::CreateConv2DOptions(b, padding(p.padding), p.stride_width, p.stride_height, *act,
                              p.dilation_width_factor, p.dilation_height_factor)
          .Union()};
}

std::optional<NodeOptions> depthwiseOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLiteDepthwiseConvParams>(node);
  const auto act = activation(p.activation);
  if (!act) return std::nullopt;
  return NodeOptions{fb::BuiltinOptions::DepthwiseConv2DOptions,
                     fb::CreateDepthwiseConv2DOptions(
                         b, padding(p.padding), p.stride_width, p.stride_height, p.depth_multiplier,
                         *act, p.dilation_width_factor, p.dilation_height_factor)
                         .Union()};
}

std::optional<NodeOptions> poolOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLitePoolParams>(node);
  const auto act = activation(p.activation);
  if (!act) return std::nullopt;
  return NodeOptions{fb::BuiltinOptions::Pool2DOptions,
                     fb::CreatePool2DOptions(b, padding(p.padding), p.stride_width, p.stride_height,
                                             p.filter_width, p.filter_height, *act)
                         .Union()};
}

// ADD, SUB, MUL and DIV: their parameters start with the activation.
std::optional<NodeOptions> activationOptions(FlatBufferBuilder& b, fb::BuiltinOptions type,
                                             const TfLiteNode& node) {
  const auto act = activation(params<abi::TfLiteActivationParams>(node).activation);
  if (!act) return std::nullopt;
  return NodeOptions{type, fb::CreateActivationOptions(b, *act).Union()};
}

std::optional<NodeOptions> concatenationOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLiteConcatenationParams>(node);
  const auto act = activation(p.activation);
  if (!act) return std::nullopt;
  return NodeOptions{fb::BuiltinOptions::ConcatenationOptions,
                     fb::CreateConcatenationOptions(b, p.axis, *act).Union()};
}

std::optional<NodeOptions> fullyConnectedOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLiteFullyConnectedParams>(node);
  const auto act = activation(p.activation);
  if (!act || p.weights_format != abi::kTfLiteFullyConnectedWeightsFormatDefault) {
    return std::nullopt;
  }
  return NodeOptions{fb::BuiltinOptions::FullyConnectedOptions,
                     fb::CreateFullyConnectedOptions(b, *act, 0, p.keep_num_dims).Union()};
}

// The new shape is RESHAPE's second input in every model TFLite's converter
// writes; the parameters only matter for old models without it.
std::optional<NodeOptions> reshapeOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  if (node.builtin_data == nullptr) return NodeOptions{};
  const auto& p = params<abi::TfLiteReshapeParams>(node);
  if (p.num_dimensions < 0 || p.num_dimensions > abi::kReshapeMaxDimensions) return std::nullopt;
  const std::vector<int32_t> shape(p.shape, p.shape + p.num_dimensions);
  return NodeOptions{fb::BuiltinOptions::ReshapeOptions,
                     fb::CreateReshapeOptions(b, b.CreateVector(shape)).Union()};
}

}  // namespace

std::optional<NodeOptions> writeNodeOptions(FlatBufferBuilder& b, int32_t builtin,
                                            const TfLiteNode& node) {
  const bool hasParams = node.builtin_data != nullptr;
  switch (builtin) {
    case CONV_2D: return hasParams ? convOptions(b, node) : std::nullopt;
    case DEPTHWISE_CONV_2D: return hasParams ? depthwiseOptions(b, node) : std::nullopt;
    case AVERAGE_POOL_2D:
    case MAX_POOL_2D: return hasParams ? poolOptions(b, node) : std::nullopt;
    case ADD:
      return hasParams ? activationOptions(b, fb::BuiltinOptions::AddOptions, node) : std::nullopt;
    case SUB:
      return hasParams ? activationOptions(b, fb::BuiltinOptions::SubOptions, node) : std::nullopt;
    case MUL:
      return hasParams ? activationOptions(b, fb::BuiltinOptions::MulOptions, node) : std::nullopt;
    case DIV:
      return hasParams ? activationOptions(b, fb::BuiltinOptions::DivOptions, node) : std::nullopt;
    case CONCATENATION: return hasParams ? concatenationOptions(b, node) : std::nullopt;
    case FULLY_CONNECTED: return hasParams ? fullyConnectedOptions(b, node) : std::nullopt;
    case RESHAPE: return reshapeOptions(b, node);
    case SOFTMAX:
      if (!hasParams) return std::nullopt;
      return NodeOptions{
          fb::BuiltinOptions::SoftmaxOptions,
          fb::CreateSoftmaxOptions(b, params<abi::TfLiteSoftmaxParams>(node).beta).Union()};
    case RESIZE_BILINEAR: {
      if (!hasParams) return std::nullopt;
      const auto& p = params<abi::TfLiteResizeBilinearParams>(node);
      return NodeOptions{
          fb::BuiltinOptions::ResizeBilinearOptions,
          fb::CreateResizeBilinearOptions(b, p.align_corners, p.half_pixel_centers).Union()};
    }
    case MEAN:
      if (!hasParams) return std::nullopt;
      return NodeOptions{
          fb::BuiltinOptions::ReducerOptions,
          fb::CreateReducerOptions(b, params<abi::TfLiteReducerParams>(node).keep_dims).Union()};
    case TRANSPOSE_CONV: {
      if (!hasParams) return std::nullopt;
      const auto& p = params<abi::TfLiteTransposeConvParams>(node);
      return NodeOptions{
          fb::BuiltinOptions::TransposeConvOptions,
          fb::CreateTransposeConvOptions(b, padding(p.padding), p.stride_width, p.stride_height)
              .Union()};
    }
    // Operators without options; MediaPipe's custom operators carry theirs
    // as custom_options (the node's custom_initial_data).
    case DEQUANTIZE:
    case LOGISTIC:
    case RELU:
    case RELU_N1_TO_1:
    case RELU6:
    case TANH:
    case PAD:
    case TRANSPOSE:
    case PRELU:
    case MAXIMUM:
    case MINIMUM:
    case HARD_SWISH:
    case CUSTOM: return NodeOptions{};
    default: return std::nullopt;
  }
}

}  // namespace annrt::tflite::delegate
