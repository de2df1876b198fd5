// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "input_layers.h"

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

const std::vector<TensorDesc> kInputs = {
    {"image", ANEURALNETWORKS_TENSOR_FLOAT32, {1, 0, 0, 3}, 0.0f, 0},
    {"serving:0", ANEURALNETWORKS_TENSOR_INT32, {1, 20}, 0.0f, 0}};

TEST(InputLayersTest, SplitList) {
  EXPECT_TRUE(splitList("", ',').empty());
  EXPECT_EQ(splitList("a", ','), (std::vector<std::string>{"a"}));
  EXPECT_EQ(splitList("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
}

TEST(InputLayersTest, ParsesNamesShapesAndFiles) {
  auto flags = parseInputLayerFlags("image,serving:0", "1,224,224,3:1,20",
                                    "image:/tmp/in.bin,serving:0:/tmp/s.bin");
  ASSERT_TRUE(flags.ok()) << flags.error().message;
  EXPECT_EQ(flags->names, (std::vector<std::string>{"image", "serving:0"}));
  EXPECT_EQ(flags->shapes[0], (std::vector<uint32_t>{1, 224, 224, 3}));
  EXPECT_EQ(flags->shapes[1], (std::vector<uint32_t>{1, 20}));
  ASSERT_EQ(flags->valueFiles.size(), 2u);
  // The name ends at the last ':'.
  EXPECT_EQ(flags->valueFiles[1].first, "serving:0");
  EXPECT_EQ(flags->valueFiles[1].second, "/tmp/s.bin");
}

TEST(InputLayersTest, RejectsMismatchedOrBadShapes) {
  auto mismatched = parseInputLayerFlags("a,b", "1,2", "");
  ASSERT_FALSE(mismatched.ok());
  EXPECT_NE(mismatched.error().message.find("--input_layer_shape has 1 item(s)"),
            std::string::npos);
  auto unknown = parseInputLayerFlags("a", "1,-1,3", "");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("must be positive"), std::string::npos);
  EXPECT_FALSE(parseInputLayerFlags("a", "1,x", "").ok());
  EXPECT_FALSE(parseInputLayerFlags("", "", "nofile").ok());
  EXPECT_FALSE(parseInputLayerFlags("", "", "a:").ok());
}

TEST(InputLayersTest, ChecksAgainstTheModel) {
  auto flags = parseInputLayerFlags("img,serving:0", "1,8,8,3:1,20", "");
  ASSERT_TRUE(flags.ok());
  auto warnings = checkInputLayers(*flags, kInputs);
  ASSERT_TRUE(warnings.ok());
  ASSERT_EQ(warnings->size(), 1u);
  EXPECT_EQ((*warnings)[0], "Tensor # 0 is named image but flags call it img");
  auto wrongRank = parseInputLayerFlags("image,serving:0", "1,8,8:1,20", "");
  ASSERT_TRUE(wrongRank.ok());
  EXPECT_FALSE(checkInputLayers(*wrongRank, kInputs).ok());
  auto tooFew = parseInputLayerFlags("image", "1,8,8,3", "");
  EXPECT_FALSE(checkInputLayers(*tooFew, kInputs).ok());
}

TEST(InputLayersTest, AppliesShapesAndResolvesFiles) {
  auto flags = parseInputLayerFlags("img,serving:0", "1,8,8,3:1,20", "img:a.bin,serving:0:b.bin");
  ASSERT_TRUE(flags.ok());
  const auto inputs = applyInputShapes(*flags, kInputs);
  EXPECT_EQ(inputs[0].dims, (std::vector<uint32_t>{1, 8, 8, 3}));
  EXPECT_EQ(inputs[0].byteSize(), 8u * 8 * 3 * 4);
  auto files = resolveValueFiles(*flags, kInputs);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(*files, (std::vector<std::string>{"a.bin", "b.bin"}));
  // Without --input_layer, model input names work too.
  auto byModelName = parseInputLayerFlags("", "", "serving:0:c.bin");
  EXPECT_EQ(*resolveValueFiles(*byModelName, kInputs), (std::vector<std::string>{"", "c.bin"}));
  auto unknown = parseInputLayerFlags("", "", "label:c.bin");
  auto unresolved = resolveValueFiles(*unknown, kInputs);
  ASSERT_FALSE(unresolved.ok());
  EXPECT_NE(unresolved.error().message.find("image, serving:0"), std::string::npos);
}

}  // namespace
}  // namespace annrt::tools
