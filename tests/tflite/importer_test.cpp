// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The importer on synthesized models: malformed files are rejected cleanly
// with BAD_DATA and a message (never a crash, also under ASan/UBSan), control
// flow imports and runs, and every imported operation is supported.
#include "tflite/importer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <random>

#include "import_expect.h"
#include "model_runner.h"
#include "tflite_builder.h"

namespace annrt::tflite {
namespace {

using testing::addModel;
using testing::expectRejected;
using testing::ModelSpec;
using testing::serialize;
namespace fb = ::annrt::tflite::fb;

constexpr int32_t kWhile = 119, kLess = 58, kAdd = 0, kEmbeddingLookup = 7, kConv2d = 3,
                  kSplitV = 102;

testing::Options whileOptions(int32_t cond, int32_t body) {
  return {fb::BuiltinOptions::WhileOptions, [=](flatbuffers::FlatBufferBuilder& b) {
            return fb::CreateWhileOptions(b, cond, body).Union();
          }};
}

TEST(ImporterTest, ImportsAndRunsTheSynthesizedModel) {
  auto imported = importBuffer(serialize(addModel()));
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& model = **imported;
  ASSERT_EQ(model.inputs().size(), 1u);
  EXPECT_EQ(model.inputs()[0].name, "input");
  EXPECT_EQ(model.inputs()[0].dims, (std::vector<uint32_t>{1, 2, 2, 1}));
  EXPECT_EQ(model.inputs()[0].byteSize(), 16u);
  ASSERT_EQ(model.operations().size(), 1u);
  EXPECT_EQ(model.operations()[0].tfliteName, "ADD");
  EXPECT_EQ(model.operations()[0].nnapiName, "ADD");
  EXPECT_TRUE(unsupportedOperations(model).empty());
  std::vector<float> x = {10, 20, 30, 40};
  std::vector<uint8_t> input(16);
  std::memcpy(input.data(), x.data(), 16);
  auto outputs = testing::runModel(model.model(), {input}, model.outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  const auto* y = reinterpret_cast<const float*>((*outputs)[0].data());
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{11, 22, 33, 44}));
}

struct MalformedCase {
  const char* name;
  std::function<void(ModelSpec&)> mutate;
  const char* expected;
};

// Names the case in test listings (gtest would otherwise dump its bytes).
void PrintTo(const MalformedCase& c, std::ostream* os) {
  *os << c.name;
}

const MalformedCase kMalformed[] = {
    {"UnknownOpVersion", [](ModelSpec& m) { m.opcodes[0].version = 99; },
     "ADD (tflite op #0): unknown operator version 99"},
    {"OpcodeIndexOutOfRange", [](ModelSpec& m) { m.subgraphs[0].operators[0].opcode = 5; },
     "operator 0 has opcode index 5, but the model has 1 operator codes"},
    {"TensorIndexOutOfRange",
     [](ModelSpec& m) {
       m.subgraphs[0].operators[0].inputs = {0, 17};
     },
     "operator 0 input tensor index 17 out of range"},
    {"NegativeOutputIndex", [](ModelSpec& m) { m.subgraphs[0].operators[0].outputs = {-1}; },
     "operator 0 output tensor index -1 out of range"},
    {"SubgraphInputOutOfRange", [](ModelSpec& m) { m.subgraphs[0].inputs = {9}; },
     "subgraph 0 input tensor index 9 out of range"},
    {"BufferIndexOutOfRange", [](ModelSpec& m) { m.subgraphs[0].tensors[1].buffer = 42; },
     "refers to buffer 42, but the model has 2 buffers"},
    {"BufferSizeMismatch", [](ModelSpec& m) { m.buffers[1].data.resize(12); },
     "needs 16 bytes, its buffer has 12"},
    {"BufferOffsetOutsideFile",
     [](ModelSpec& m) {
       m.buffers[1] = {{}, uint64_t{1} << 40, 16};
     },
     "lies outside the"},
    {"BufferSizeOutsideFile",
     [](ModelSpec& m) {
       m.buffers[1] = {{}, 8, uint64_t{1} << 62};
     },
     "lies outside the"},
    {"HugeShape",
     [](ModelSpec& m) {
       m.subgraphs[0].tensors[0].shape = {1 << 20, 1 << 20, 1 << 20, 1};
     },
     "tensor 0 is too large"},
    {"NegativeDimension",
     [](ModelSpec& m) {
       m.subgraphs[0].tensors[0].shape = {1, -2, 2, 1};
     },
     "negative dimension -2"},
    {"RankOverLimit", [](ModelSpec& m) { m.subgraphs[0].tensors[0].shape.assign(33, 1); },
     "tensor 0 'input' has rank 33, over annrt's limit of 32"},
    {"TooManySubgraphs", [](ModelSpec& m) { m.subgraphs.resize(4097, m.subgraphs[0]); },
     "the model has 4097 subgraphs, over annrt's limit of 4096"},
    {"UnknownTensorType", [](ModelSpec& m) { m.subgraphs[0].tensors[2].type = 99; },
     "has unknown type 99"},
    {"SchemaVersion", [](ModelSpec& m) { m.version = 2; }, "unsupported TFLite schema version 2"},
    {"NoSubgraphs", [](ModelSpec& m) { m.subgraphs.clear(); }, "the model has no subgraphs"},
    {"UnsupportedBuiltin", [](ModelSpec& m) { m.opcodes[0].builtin = 113; },
     "MATRIX_DIAG (tflite op #0): operator not supported"},
    {"UnknownCustomOp",
     [](ModelSpec& m) {
       m.opcodes[0] = {32, 1, "NoSuchOp"};
     },
     "NoSuchOp (tflite op #0): operator not supported"},
    {"BadPerChannelScales",
     [](ModelSpec& m) {
       auto& t = m.subgraphs[0].tensors[1];
       t.scales = {0.5f, 0.25f};
       t.zeroPoints = {0, 0};
       t.quantizedDimension = 3;
     },
     "has 2 per-channel scales for dimension 3 of size 1"},
    {"ConstantOutput", [](ModelSpec& m) { m.subgraphs[0].outputs = {1}; },
     "subgraph 0 output tensor 1 is a constant"},
    {"BadSubgraphReference",
     [](ModelSpec& m) {
       m.opcodes[0].builtin = kWhile;
       m.subgraphs[0].operators[0] = {0, {0}, {2}, whileOptions(7, 7)};
     },
     "WHILE (tflite op #0): refers to subgraph 7, but the model has subgraphs 1..0"},
    {"RecursiveSubgraph",
     [](ModelSpec& m) {
       m.opcodes[0].builtin = kWhile;
       m.subgraphs[0].operators[0] = {0, {0}, {2}, whileOptions(1, 1)};
       m.subgraphs.push_back(m.subgraphs[0]);  // subgraph 1 loops on itself
     },
     "subgraph 1 refers to itself"},
    // Mappers read a filter's dims before asking for the filter: with one
    // input they read past the operator's list (fuzz_tflite_import, UBSan).
    {"ConvolutionWithoutFilter",
     [](ModelSpec& m) {
       m.opcodes[0].builtin = kConv2d;
       m.subgraphs[0].operators[0] = {
           0, {0}, {2}, {fb::BuiltinOptions::Conv2DOptions, [](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateConv2DOptions(b, fb::Padding::VALID, 1, 1).Union();
                         }}};
     },
     "CONV_2D (tflite op #0): input 1 is missing"},
    // A size of -1 takes the output's dim on the axis, which a lower-rank
    // output does not have.
    {"SplitVOutputWithoutTheAxis",
     [](ModelSpec& m) {
       m.opcodes[0].builtin = kSplitV;
       auto& graph = m.subgraphs[0];
       graph.tensors.push_back({{1}, 2, m.addBuffer(std::vector<int32_t>{-1}), "sizes"});
       graph.tensors.push_back({{1}, 2, m.addBuffer(std::vector<int32_t>{3}), "axis"});
       graph.tensors[2].shape = {4};
       graph.operators[0] = {0, {0, 3, 4}, {2}};
     },
     "output 0 has rank 1, no axis 3 to take its size from"},
};

class MalformedTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedTest, IsRejectedWithAMessage) {
  ModelSpec spec = addModel();
  GetParam().mutate(spec);
  expectRejected(serialize(spec), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Importer, MalformedTest, ::testing::ValuesIn(kMalformed),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ImporterTest, RejectsTruncatedFiles) {
  const std::vector<uint8_t> bytes = serialize(addModel());
  for (size_t size = 0; size < bytes.size(); size += 7) {
    auto imported = importBuffer(std::span(bytes.data(), size));
    ASSERT_FALSE(imported.ok()) << "accepted " << size << " of " << bytes.size() << " bytes";
    EXPECT_EQ(imported.error().code, ErrorCode::BAD_DATA);
    EXPECT_FALSE(imported.error().message.empty());
  }
}

TEST(ImporterTest, RejectsFilesThatAreNotTflite) {
  const std::string text = "this is not a flatbuffer, just some text";
  expectRejected({text.begin(), text.end()}, "no \"TFL3\" file identifier");
}

TEST(ImporterTest, ReportsMissingFiles) {
  auto imported = importFile("/nonexistent/model.tflite");
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.error().message.find("cannot open /nonexistent/model.tflite"),
            std::string::npos);
}

// Random byte corruption must never crash the importer (ASan/UBSan builds
// check memory safety too); imports either fail cleanly or succeed.
void fuzz(const std::vector<uint8_t>& original, int rounds, uint32_t seed) {
  std::mt19937 random(seed);
  for (int round = 0; round < rounds; ++round) {
    std::vector<uint8_t> bytes = original;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < flips; ++i) bytes[random() % bytes.size()] = random() & 0xff;
    auto imported = importBuffer(bytes);
    if (!imported.ok()) {
      EXPECT_FALSE(imported.error().message.empty());
    }
  }
}

TEST(ImporterTest, SurvivesCorruptedBytes) {
  fuzz(serialize(addModel()), 2000, 1);
}

TEST(ImporterTest, SurvivesCorruptedRealModel) {
  const auto path =
      std::filesystem::path(ANNRT_SOURCE_DIR) / "models/face_detection_short_range.tflite";
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " not found: run scripts/fetch-models.sh";
  std::ifstream file(path, std::ios::binary);
  fuzz({std::istreambuf_iterator<char>(file), {}}, 60, 2);
}

// WHILE (x < 10) x = x + 1, with condition and body in subgraphs 1 and 2.
ModelSpec whileModel() {
  ModelSpec spec;
  const uint32_t ten = spec.addBuffer(std::vector<float>{10});
  const uint32_t one = spec.addBuffer(std::vector<float>{1});
  spec.addOpcode(kWhile);
  spec.addOpcode(kLess, 1);
  spec.addOpcode(kAdd);
  testing::SubgraphSpec main{
      {{{1}, 0, 0, "x"}, {{1}, 0, 0, "y"}}, {{0, {0}, {1}, whileOptions(1, 2)}}, {0}, {1}};
  testing::SubgraphSpec cond{
      {{{1}, 0, 0, "a"}, {{1}, 0, ten, "ten"}, {{1}, 6, 0, "less"}}, {{1, {0, 1}, {2}}}, {0}, {2}};
  testing::SubgraphSpec body{
      {{{1}, 0, 0, "a"}, {{1}, 0, one, "one"}, {{1}, 0, 0, "next"}}, {{2, {0, 1}, {2}}}, {0}, {2}};
  spec.subgraphs = {main, cond, body};
  return spec;
}

TEST(ImporterTest, ImportsAndRunsWhileLoops) {
  auto imported = importBuffer(serialize(whileModel()));
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& model = **imported;
  ASSERT_EQ(model.operations().size(), 1u);
  EXPECT_EQ(model.operations()[0].nnapiName, "WHILE");
  const float x = 0.5f;
  std::vector<uint8_t> input(4);
  std::memcpy(input.data(), &x, 4);
  auto outputs = testing::runModel(model.model(), {input}, model.outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  float y;
  std::memcpy(&y, (*outputs)[0].data(), 4);
  EXPECT_EQ(y, 10.5f);
}

// EMBEDDING_LOOKUP maps straight to NNAPI EMBEDDING_LOOKUP. (This model used
// to show how an operation no device supported is reported; since the
// reference device implements every standard NNAPI operation, none is left.)
TEST(ImporterTest, ImportsAndRunsEmbeddingLookup) {
  ModelSpec spec = addModel();
  const uint32_t lookup = spec.addOpcode(kEmbeddingLookup);
  auto& main = spec.subgraphs[0];
  main.tensors.push_back({{1}, 2, spec.addBuffer(std::vector<int32_t>{0}), "ids"});
  main.tensors.push_back({{1, 2, 2, 1}, 0, 0, "rows"});
  main.operators.push_back({lookup, {3, 2}, {4}});
  main.outputs = {4};
  auto imported = importBuffer(serialize(spec));
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_EQ((*imported)->operations()[1].nnapiName, "EMBEDDING_LOOKUP");
  EXPECT_TRUE(unsupportedOperations(**imported).empty());
  auto outputs =
      testing::runModel((*imported)->model(), {std::vector<uint8_t>(16)}, (*imported)->outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  const auto* rows = reinterpret_cast<const float*>((*outputs)[0].data());
  EXPECT_EQ(std::vector<float>(rows, rows + 4), (std::vector<float>{1, 2, 3, 4}));
}

namespace quantized {

constexpr int32_t kConv2d = 3;
constexpr int8_t kInt8 = 9, kInt32 = 2;

// input int8 [1,2,2,2] (scale 0.5, zero point -1) -> CONV_2D 1x1 with a
// per-channel int8 filter and int32 bias -> int8 [1,2,2,2] (scale 0.25, zero point 3).
ModelSpec convModel() {
  ModelSpec spec;
  spec.addOpcode(kConv2d, 3);
  const std::vector<int8_t> filter = {2, -4, 8, 1};  // [out=2][1][1][in=2]
  const std::vector<int32_t> bias = {8, -16};
  testing::TensorSpec input{{1, 2, 2, 2}, kInt8, 0, "input"};
  input.scales = {0.5f};
  input.zeroPoints = {-1};
  testing::TensorSpec weights{{2, 1, 1, 2}, kInt8, spec.addBuffer(filter), "filter"};
  weights.scales = {0.25f, 0.125f};
  weights.zeroPoints = {0, 0};
  testing::TensorSpec biases{{2}, kInt32, spec.addBuffer(bias), "bias"};
  biases.scales = {0.125f, 0.0625f};
  biases.zeroPoints = {0, 0};
  testing::TensorSpec output{{1, 2, 2, 2}, kInt8, 0, "output"};
  output.scales = {0.25f};
  output.zeroPoints = {3};
  testing::OperatorSpec conv{0, {0, 1, 2}, {3}};
  conv.options = {fb::BuiltinOptions::Conv2DOptions, [](flatbuffers::FlatBufferBuilder& b) {
                    return fb::CreateConv2DOptions(b, fb::Padding::VALID, 1, 1).Union();
                  }};
  spec.subgraphs = {{{input, weights, biases, output}, {conv}, {0}, {3}}};
  return spec;
}

TEST(ImporterTest, MapsPerChannelInt8Convolution) {
  auto imported = importBuffer(serialize(convModel()));
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& model = **imported;
  EXPECT_EQ(model.inputs()[0].type, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED);
  EXPECT_EQ(model.inputs()[0].scale, 0.5f);
  EXPECT_EQ(model.inputs()[0].zeroPoint, -1);
  EXPECT_EQ(model.outputs()[0].zeroPoint, 3);
  const std::vector<int8_t> x = {-1, 1, 3, -5, 7, 9, -9, 0};
  std::vector<uint8_t> input(x.size());
  std::memcpy(input.data(), x.data(), x.size());
  auto outputs = testing::runModel(model.model(), {input}, model.outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  const float filter[2][2] = {{2 * 0.25f, -4 * 0.25f}, {8 * 0.125f, 1 * 0.125f}};
  const float bias[2] = {8 * 0.125f, -16 * 0.0625f};
  for (size_t pixel = 0; pixel < 4; ++pixel) {
    for (size_t oc = 0; oc < 2; ++oc) {
      float sum = bias[oc];
      for (size_t ic = 0; ic < 2; ++ic) {
        sum += (x[pixel * 2 + ic] + 1) * 0.5f * filter[oc][ic];
      }
      const int expected = std::clamp(static_cast<int>(std::lround(sum / 0.25f)) + 3, -128, 127);
      const auto actual = static_cast<int8_t>((*outputs)[0][pixel * 2 + oc]);
      EXPECT_NEAR(actual, expected, 1) << "pixel " << pixel << " channel " << oc;
    }
  }
}

}  // namespace quantized

TEST(ImporterTest, AppliesInputShapeOverridesAndRelaxation) {
  ImportOptions options;
  options.inputShapes = {{1, 2, 2, 1}};
  options.relaxFloat32toFloat16 = true;
  auto imported = importBuffer(serialize(addModel()), options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_EQ((*imported)->inputs()[0].dims, (std::vector<uint32_t>{1, 2, 2, 1}));
  auto outputs =
      testing::runModel((*imported)->model(), {std::vector<uint8_t>(16)}, (*imported)->outputs());
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  options.inputShapes = {{1, 2, 2}};
  auto rejected = importBuffer(serialize(addModel()), options);
  ASSERT_FALSE(rejected.ok());
  EXPECT_NE(rejected.error().message.find("input 0 shape override has rank 3"), std::string::npos)
      << rejected.error().message;
}

}  // namespace
}  // namespace annrt::tflite
