// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The com.annrt.tflite extension operation CONVOLUTION_2D_TRANSPOSE_BIAS
// (MediaPipe's Convolution2DTransposeBias) against a hand-made composition of
// standard NNAPI operations: TRANSPOSE_CONV_2D with explicit padding and a
// zero bias, then ADD of the bias. Also the selfie segmentation models, which
// use it, end to end on nnapi-reference.
#include <android/NeuralNetworksExtensions.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "model_runner.h"
#include "tflite/extension_ops.h"
#include "tflite/importer.h"
#include "tflite/nnapi_writer.h"

namespace annrt::tflite {
namespace {

struct Geometry {
  uint32_t height, width, inDepth, outDepth, filter;
  int32_t stride;
  bool same;
};

std::string name(const Geometry& g) {
  return fmt::format("in{}x{}x{}_out{}_k{}_s{}_{}", g.height, g.width, g.inDepth, g.outDepth,
                     g.filter, g.stride, g.same ? "same" : "valid");
}

void PrintTo(const Geometry& g, std::ostream* os) {
  *os << name(g);
}

// MediaPipe's total padding of one axis.
int32_t totalPadding(const Geometry& g, uint32_t in) {
  if (!g.same) return 0;
  const auto filter = static_cast<int32_t>(g.filter);
  const auto last = static_cast<int32_t>(in - 1);
  return std::max<int32_t>(0, filter - last % g.stride - 1);
}

uint32_t outSize(const Geometry& g, uint32_t in) {
  return g.stride * (in - 1) + g.filter - totalPadding(g, in);
}

std::vector<float> randomValues(size_t count, std::mt19937& random) {
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(random);
  return values;
}

std::vector<uint8_t> bytesOf(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

Shape tensor(const std::vector<uint32_t>& dims) {
  return makeShape(OperandType::TENSOR_FLOAT32, dims);
}

struct Operands {
  uint32_t input, filter, bias, output;
};

Result<Operands> commonOperands(NnapiWriter& w, const Geometry& g, const std::vector<float>& filter,
                                const std::vector<float>& bias) {
  Operands o;
  ANNRT_ASSIGN_OR_RETURN(o.input, w.addOperand(tensor({1, g.height, g.width, g.inDepth})));
  ANNRT_ASSIGN_OR_RETURN(
      o.filter,
      w.addOwnedConstant(tensor({g.outDepth, g.filter, g.filter, g.inDepth}), bytesOf(filter)));
  ANNRT_ASSIGN_OR_RETURN(o.bias, w.addOwnedConstant(tensor({g.outDepth}), bytesOf(bias)));
  ANNRT_ASSIGN_OR_RETURN(
      o.output, w.addOperand(tensor({1, outSize(g, g.height), outSize(g, g.width), g.outDepth})));
  return o;
}

Result<void> buildExtension(NnapiWriter& w, const Geometry& g, const std::vector<float>& filter,
                            const std::vector<float>& bias) {
  ANNRT_ASSIGN_OR_RETURN(Operands o, commonOperands(w, g, filter, bias));
  std::vector<uint32_t> inputs = {o.input, o.filter, o.bias};
  for (int32_t value :
       {int32_t{g.same ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID}, g.stride,
        g.stride}) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t scalar, w.addInt32(value));
    inputs.push_back(scalar);
  }
  ANNRT_ASSIGN_OR_RETURN(int32_t type,
                         w.extensionOperationType(kExtensionName, kConvolution2dTransposeBias));
  ANNRT_RETURN_IF_ERROR(w.addOperation(type, inputs, {o.output}));
  ANNRT_RETURN_IF_ERROR(w.identifyInputsAndOutputs({o.input}, {o.output}));
  return w.finish(false);
}

Result<void> buildComposition(NnapiWriter& w, const Geometry& g, const std::vector<float>& filter,
                              const std::vector<float>& bias) {
  ANNRT_ASSIGN_OR_RETURN(Operands o, commonOperands(w, g, filter, bias));
  ANNRT_ASSIGN_OR_RETURN(
      uint32_t zeros,
      w.addOwnedConstant(tensor({g.outDepth}), std::vector<uint8_t>(size_t{4} * g.outDepth)));
  const int32_t padH = totalPadding(g, g.height), padW = totalPadding(g, g.width);
  std::vector<uint32_t> inputs = {o.input, o.filter, zeros};
  for (int32_t value : {padW / 2, padW - padW / 2, padH / 2, padH - padH / 2, g.stride, g.stride,
                        int32_t{ANEURALNETWORKS_FUSED_NONE}}) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t scalar, w.addInt32(value));
    inputs.push_back(scalar);
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t layout, w.addBool(false));
  inputs.push_back(layout);
  ANNRT_ASSIGN_OR_RETURN(
      uint32_t product,
      w.addOperand(tensor({1, outSize(g, g.height), outSize(g, g.width), g.outDepth})));
  ANNRT_RETURN_IF_ERROR(w.addOperation(ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, {product}));
  ANNRT_ASSIGN_OR_RETURN(uint32_t none, w.addInt32(ANEURALNETWORKS_FUSED_NONE));
  ANNRT_RETURN_IF_ERROR(w.addOperation(ANEURALNETWORKS_ADD, {product, o.bias, none}, {o.output}));
  ANNRT_RETURN_IF_ERROR(w.identifyInputsAndOutputs({o.input}, {o.output}));
  return w.finish(false);
}

class ConvolutionTransposeBiasTest : public ::testing::TestWithParam<Geometry> {};

TEST_P(ConvolutionTransposeBiasTest, EqualsTransposeConvPlusBias) {
  const Geometry g = GetParam();
  std::mt19937 random(42);
  const auto filter = randomValues(size_t{g.outDepth} * g.filter * g.filter * g.inDepth, random);
  const auto bias = randomValues(g.outDepth, random);
  const auto input = bytesOf(randomValues(size_t{g.height} * g.width * g.inDepth, random));
  NnapiWriter extension, composition;
  ASSERT_TRUE(extension.create().ok() && composition.create().ok());
  auto built = buildExtension(extension, g, filter, bias);
  ASSERT_TRUE(built.ok()) << built.error().message;
  built = buildComposition(composition, g, filter, bias);
  ASSERT_TRUE(built.ok()) << built.error().message;
  TensorInfo output{"out",
                    ANEURALNETWORKS_TENSOR_FLOAT32,
                    {1, outSize(g, g.height), outSize(g, g.width), g.outDepth}};
  auto actual = testing::runModel(extension.model(), {input}, {output});
  ASSERT_TRUE(actual.ok()) << actual.error().message;
  auto expected = testing::runModel(composition.model(), {input}, {output});
  ASSERT_TRUE(expected.ok()) << expected.error().message;
  const auto* a = reinterpret_cast<const float*>((*actual)[0].data());
  const auto* e = reinterpret_cast<const float*>((*expected)[0].data());
  for (size_t i = 0; i < (*actual)[0].size() / 4; ++i) {
    ASSERT_NEAR(a[i], e[i], 1e-5) << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Geometries, ConvolutionTransposeBiasTest,
    ::testing::Values(Geometry{4, 5, 3, 2, 2, 2, true}, Geometry{4, 5, 3, 2, 3, 2, true},
                      Geometry{6, 3, 2, 4, 4, 2, true}, Geometry{5, 5, 2, 3, 3, 1, true},
                      Geometry{4, 5, 3, 2, 3, 2, false}, Geometry{7, 6, 1, 1, 3, 3, true},
                      Geometry{16, 16, 8, 1, 2, 2, true}),
    [](const auto& info) { return name(info.param); });

TEST(ConvolutionTransposeBiasTest, RejectsBadSignatureAtAddOperation) {
  NnapiWriter w;
  ASSERT_TRUE(w.create().ok());
  auto input = w.addOperand(tensor({1, 2, 2, 1}));
  auto output = w.addOperand(tensor({1, 4, 4, 1}));
  auto type = w.extensionOperationType(kExtensionName, kConvolution2dTransposeBias);
  ASSERT_TRUE(input.ok() && output.ok() && type.ok());
  auto added = w.addOperation(*type, {*input}, {*output});  // 1 input instead of 6
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code, ErrorCode::BAD_DATA);
}

TEST(ConvolutionTransposeBiasTest, ReferenceDeviceSupportsTheExtension) {
  uint32_t count = 0;
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  bool found = false;
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* device = nullptr;
    const char* name = nullptr;
    ASSERT_EQ(ANeuralNetworks_getDevice(i, &device), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksDevice_getName(device, &name), ANEURALNETWORKS_NO_ERROR);
    if (std::string(name) != "nnapi-reference") continue;
    bool supported = false;
    ASSERT_EQ(ANeuralNetworksDevice_getExtensionSupport(device, kExtensionName, &supported),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_TRUE(supported);
    found = true;
  }
  EXPECT_TRUE(found);
}

// The selfie segmentation models import with the extension operation and run
// on nnapi-reference; their output is a sigmoid mask.
class SelfieTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SelfieTest, ImportsAndRunsWithTheExtensionOperation) {
  const auto path =
      std::filesystem::path(ANNRT_SOURCE_DIR) / "models" / (std::string(GetParam()) + ".tflite");
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " not found: run scripts/fetch-models.sh";
  auto imported = importFile(path.string());
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& model = **imported;
  int extensionOps = 0;
  for (const OperationInfo& op : model.operations()) {
    if (op.tfliteName == "Convolution2DTransposeBias") {
      EXPECT_EQ(op.nnapiName, "com.annrt.tflite:CONVOLUTION_2D_TRANSPOSE_BIAS");
      ++extensionOps;
    }
  }
  EXPECT_EQ(extensionOps, 1);
  EXPECT_TRUE(unsupportedOperations(model).empty());
  auto outputs = testing::runModel(model.model(), {testing::oracleInput(model.inputs()[0], 0)},
                                   model.outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  const auto& mask = (*outputs)[0];
  const auto* values = reinterpret_cast<const float*>(mask.data());
  for (size_t i = 0; i < mask.size() / 4; ++i) {
    ASSERT_TRUE(values[i] >= 0 && values[i] <= 1) << "element " << i << " = " << values[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Models, SelfieTest,
                         ::testing::Values("selfie_segmentation", "selfie_segmentation_landscape"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace annrt::tflite
