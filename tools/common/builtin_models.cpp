// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "builtin_models.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <deque>

#include "client/graph_builder.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

constexpr uint32_t kSize = 64;  // input height and width
constexpr uint32_t kInChannels = 3;
constexpr uint32_t kChannels = 16;  // channels inside the block
constexpr uint32_t kClasses = 10;

// Deterministic weights: a scaled sine, different per tensor (`seed`), with
// magnitude ~1/sqrt(fanIn) so activations stay in a sensible range.
std::vector<float> weights(size_t count, uint32_t fanIn, float seed) {
  std::vector<float> values(count);
  const float scale = 1.0f / std::sqrt(static_cast<float>(fanIn));
  for (size_t i = 0; i < count; ++i) {
    values[i] = scale * std::sin(0.37f * static_cast<float>(i) + seed);
  }
  return values;
}

std::vector<float> biases(size_t count, float seed) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = 0.05f * std::cos(static_cast<float>(i) + seed);
  return values;
}

class BuiltinModel : public ModelSource {
 public:
  BuiltinModel(ANeuralNetworksModel* model, std::deque<std::vector<uint8_t>> constants,
               uint64_t constantBytes, std::vector<TensorDesc> inputs,
               std::vector<TensorDesc> outputs, std::vector<OperationLabel> operations)
      : model_(model, ANeuralNetworksModel_free),
        constants_(std::move(constants)),
        constantBytes_(constantBytes),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)),
        operations_(std::move(operations)) {}

  ANeuralNetworksModel* model() const override { return model_.get(); }
  const std::vector<TensorDesc>& inputs() const override { return inputs_; }
  const std::vector<TensorDesc>& outputs() const override { return outputs_; }
  const std::vector<OperationLabel>& operations() const override { return operations_; }
  uint64_t sizeBytes() const override { return constantBytes_; }

 private:
  std::unique_ptr<ANeuralNetworksModel, decltype(&ANeuralNetworksModel_free)> model_;
  std::deque<std::vector<uint8_t>> constants_;  // referenced by model_
  uint64_t constantBytes_;
  std::vector<TensorDesc> inputs_;
  std::vector<TensorDesc> outputs_;
  std::vector<OperationLabel> operations_;
};

// CONV_2D with implicit padding; returns the output operand.
uint32_t addConv(client::GraphBuilder& b, uint32_t input, uint32_t inChannels, uint32_t outChannels,
                 uint32_t kernel, int32_t fuse, float seed) {
  const uint32_t fanIn = kernel * kernel * inChannels;
  const uint32_t filter = b.addFloatConstant({outChannels, kernel, kernel, inChannels},
                                             weights(size_t{outChannels} * fanIn, fanIn, seed));
  const uint32_t bias = b.addFloatConstant({outChannels}, biases(outChannels, seed));
  const uint32_t output = b.addFloatTensor({1, kSize, kSize, outChannels});
  b.addOperation(ANEURALNETWORKS_CONV_2D,
                 {input, filter, bias, b.addInt32Scalar(ANEURALNETWORKS_PADDING_SAME),
                  b.addInt32Scalar(1), b.addInt32Scalar(1), b.addInt32Scalar(fuse)},
                 {output});
  return output;
}

uint32_t addDepthwise(client::GraphBuilder& b, uint32_t input, float seed) {
  const uint32_t filter =
      b.addFloatConstant({1, 3, 3, kChannels}, weights(size_t{9} * kChannels, 9, seed));
  const uint32_t bias = b.addFloatConstant({kChannels}, biases(kChannels, seed));
  const uint32_t output = b.addFloatTensor({1, kSize, kSize, kChannels});
  b.addOperation(
      ANEURALNETWORKS_DEPTHWISE_CONV_2D,
      {input, filter, bias, b.addInt32Scalar(ANEURALNETWORKS_PADDING_SAME), b.addInt32Scalar(1),
       b.addInt32Scalar(1), b.addInt32Scalar(1), b.addInt32Scalar(ANEURALNETWORKS_FUSED_RELU6)},
      {output});
  return output;
}

uint32_t addGlobalPool(client::GraphBuilder& b, uint32_t input) {
  const uint32_t output = b.addFloatTensor({1, 1, 1, kChannels});
  b.addOperation(ANEURALNETWORKS_AVERAGE_POOL_2D,
                 {input, b.addInt32Scalar(ANEURALNETWORKS_PADDING_VALID), b.addInt32Scalar(1),
                  b.addInt32Scalar(1), b.addInt32Scalar(kSize), b.addInt32Scalar(kSize),
                  b.addInt32Scalar(ANEURALNETWORKS_FUSED_NONE)},
                 {output});
  return output;
}

uint32_t addClassifier(client::GraphBuilder& b, uint32_t input) {
  const uint32_t fcWeights = b.addFloatConstant(
      {kClasses, kChannels}, weights(size_t{kClasses} * kChannels, kChannels, 7.0f));
  const uint32_t fcBias = b.addFloatConstant({kClasses}, biases(kClasses, 7.0f));
  const uint32_t logits = b.addFloatTensor({1, kClasses});
  b.addOperation(ANEURALNETWORKS_FULLY_CONNECTED,
                 {input, fcWeights, fcBias, b.addInt32Scalar(ANEURALNETWORKS_FUSED_NONE)},
                 {logits});
  const uint32_t probabilities = b.addFloatTensor({1, kClasses});
  b.addOperation(ANEURALNETWORKS_SOFTMAX, {logits, b.addFloat32Scalar(1.0f)}, {probabilities});
  return probabilities;
}

Result<std::unique_ptr<ModelSource>> makeMobilenetBlock(const ModelSourceOptions& options) {
  ANNRT_CHECK(options.inputShapes.empty() ||
                  (options.inputShapes.size() == 1 &&
                   options.inputShapes[0] == std::vector<uint32_t>{1, kSize, kSize, kInChannels}),
              "builtin:mobilenet_block has a fixed input shape 1,{},{},{}", kSize, kSize,
              kInChannels);
  client::GraphBuilder b;
  const uint32_t input = b.addFloatTensor({1, kSize, kSize, kInChannels});
  const uint32_t expanded =
      addConv(b, input, kInChannels, kChannels, 3, ANEURALNETWORKS_FUSED_RELU6, 1.0f);
  const uint32_t depthwise = addDepthwise(b, expanded, 2.0f);
  const uint32_t projected =
      addConv(b, depthwise, kChannels, kChannels, 1, ANEURALNETWORKS_FUSED_NONE, 3.0f);
  const uint32_t sum = b.addFloatTensor({1, kSize, kSize, kChannels});
  b.addOperation(ANEURALNETWORKS_ADD,
                 {projected, expanded, b.addInt32Scalar(ANEURALNETWORKS_FUSED_NONE)}, {sum});
  const uint32_t output = addClassifier(b, addGlobalPool(b, sum));
  b.finish({input}, {output}, options.relaxFloat32toFloat16);
  ANNRT_RETURN_IF_ERROR(b.status());

  std::vector<TensorDesc> inputs{
      {"input", ANEURALNETWORKS_TENSOR_FLOAT32, {1, kSize, kSize, kInChannels}, 0.0f, 0}};
  std::vector<TensorDesc> outputs{
      {"probabilities", ANEURALNETWORKS_TENSOR_FLOAT32, {1, kClasses}, 0.0f, 0}};
  std::vector<OperationLabel> operations{
      {"CONV_2D", "conv_expand"},         {"DEPTHWISE_CONV_2D", "conv_depthwise"},
      {"CONV_2D", "conv_project"},        {"ADD", "residual_add"},
      {"AVERAGE_POOL_2D", "global_pool"}, {"FULLY_CONNECTED", "logits"},
      {"SOFTMAX", "probabilities"}};
  const uint64_t bytes = b.constantBytes();
  ANeuralNetworksModel* model = b.releaseModel();
  return std::unique_ptr<ModelSource>(new BuiltinModel(model, b.takeConstants(), bytes,
                                                       std::move(inputs), std::move(outputs),
                                                       std::move(operations)));
}

}  // namespace

std::vector<std::string> builtinModelNames() {
  return {"mobilenet_block"};
}

Result<std::unique_ptr<ModelSource>> makeBuiltinModel(const std::string& name,
                                                      const ModelSourceOptions& options) {
  if (name == "mobilenet_block") return makeMobilenetBlock(options);
  return toolError("unknown built-in model '{}{}' (available: {}{})", kBuiltinPrefix, name,
                   kBuiltinPrefix,
                   fmt::join(builtinModelNames(), std::string(", ") + kBuiltinPrefix));
}

}  // namespace annrt::tools
