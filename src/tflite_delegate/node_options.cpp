// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/node_options.h"

#include <map>
#include <string>

#include "tflite/builtin_names.h"
#include "tflite_delegate/builtin_op_data.h"

namespace annrt::tflite::delegate {
namespace {

using flatbuffers::FlatBufferBuilder;
namespace abi = ::annrt::tflite::delegate::abi;

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

using OptionsWriter = std::optional<NodeOptions> (*)(FlatBufferBuilder&, const TfLiteNode&);

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
template <fb::BuiltinOptions type>
std::optional<NodeOptions> activationOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
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

std::optional<NodeOptions> softmaxOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  return NodeOptions{
      fb::BuiltinOptions::SoftmaxOptions,
      fb::CreateSoftmaxOptions(b, params<abi::TfLiteSoftmaxParams>(node).beta).Union()};
}

std::optional<NodeOptions> resizeBilinearOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLiteResizeBilinearParams>(node);
  return NodeOptions{
      fb::BuiltinOptions::ResizeBilinearOptions,
      fb::CreateResizeBilinearOptions(b, p.align_corners, p.half_pixel_centers).Union()};
}

std::optional<NodeOptions> reducerOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  return NodeOptions{
      fb::BuiltinOptions::ReducerOptions,
      fb::CreateReducerOptions(b, params<abi::TfLiteReducerParams>(node).keep_dims).Union()};
}

std::optional<NodeOptions> transposeConvOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  const auto& p = params<abi::TfLiteTransposeConvParams>(node);
  return NodeOptions{
      fb::BuiltinOptions::TransposeConvOptions,
      fb::CreateTransposeConvOptions(b, padding(p.padding), p.stride_width, p.stride_height)
          .Union()};
}

std::optional<NodeOptions> depthToSpaceOptions(FlatBufferBuilder& b, const TfLiteNode& node) {
  return NodeOptions{
      fb::BuiltinOptions::DepthToSpaceOptions,
      fb::CreateDepthToSpaceOptions(b, params<abi::TfLiteDepthToSpaceParams>(node).block_size)
          .Union()};
}

// Operators without options; MediaPipe's custom operators carry theirs as
// custom_options (the node's custom_initial_data).
std::optional<NodeOptions> noOptions(FlatBufferBuilder&, const TfLiteNode&) {
  return NodeOptions{};
}

struct Entry {
  OptionsWriter write;
  bool needsParams;    // reads TfLiteNode::builtin_data
  int maxVersion = 0;  // > 0: the highest version whose parameters it reads
};

// By TFLite operator name (builtinName).
const std::map<std::string, Entry, std::less<>>& writers() {
  static const std::map<std::string, Entry, std::less<>> kWriters = {
      {"CONV_2D", {convOptions, true}},
      {"DEPTHWISE_CONV_2D", {depthwiseOptions, true}},
      // Version 4 adds a fused activation, a field TFLite 2.9's struct lacks.
      {"TRANSPOSE_CONV", {transposeConvOptions, true, 3}},
      {"AVERAGE_POOL_2D", {poolOptions, true}},
      {"MAX_POOL_2D", {poolOptions, true}},
      {"ADD", {activationOptions<fb::BuiltinOptions::AddOptions>, true}},
      {"SUB", {activationOptions<fb::BuiltinOptions::SubOptions>, true}},
      {"MUL", {activationOptions<fb::BuiltinOptions::MulOptions>, true}},
      {"DIV", {activationOptions<fb::BuiltinOptions::DivOptions>, true}},
      {"CONCATENATION", {concatenationOptions, true}},
      {"FULLY_CONNECTED", {fullyConnectedOptions, true}},
      {"RESHAPE", {reshapeOptions, false}},
      {"SOFTMAX", {softmaxOptions, true}},
      {"RESIZE_BILINEAR", {resizeBilinearOptions, true}},
      {"MEAN", {reducerOptions, true}},
      {"DEPTH_TO_SPACE", {depthToSpaceOptions, true}},
      {"DEQUANTIZE", {noOptions, false}},
      {"DENSIFY", {noOptions, false}},
      {"LOGISTIC", {noOptions, false}},
      {"RELU", {noOptions, false}},
      {"RELU_N1_TO_1", {noOptions, false}},
      {"RELU6", {noOptions, false}},
      {"TANH", {noOptions, false}},
      {"HARD_SWISH", {noOptions, false}},
      {"PAD", {noOptions, false}},
      {"TRANSPOSE", {noOptions, false}},
      {"PRELU", {noOptions, false}},
      {"MAXIMUM", {noOptions, false}},
      {"MINIMUM", {noOptions, false}},
      {"CUSTOM", {noOptions, false}},
  };
  return kWriters;
}

}  // namespace

std::optional<NodeOptions> writeNodeOptions(FlatBufferBuilder& b, int32_t builtin, int version,
                                            const TfLiteNode& node) {
  const auto found = writers().find(builtinName(builtin));
  if (found == writers().end()) return std::nullopt;
  if (found->second.maxVersion > 0 && version > found->second.maxVersion) return std::nullopt;
  if (found->second.needsParams && node.builtin_data == nullptr) return std::nullopt;
  return found->second.write(b, node);
}

}  // namespace annrt::tflite::delegate
