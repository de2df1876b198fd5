// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of annrt-cts's case loading, data encoding, output checking and
// the quantization-coupling rewrite (no NNAPI calls).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>

#include "check.h"
#include "common/temp_path.h"
#include "test_case.h"

namespace annrt::cts {
namespace {

Operand makeOperand(int32_t type, std::vector<uint32_t> dims, Lifetime lifetime,
                    std::vector<double> data) {
  Operand operand;
  operand.type = type;
  operand.dimensions = std::move(dims);
  operand.lifetime = lifetime;
  operand.data = std::move(data);
  return operand;
}

// One operation: input -> output, with the README's default tolerances.
TestCase makeCase(int32_t type, std::vector<double> expected) {
  TestCase testCase;
  testCase.name = "unit";
  const uint32_t count = static_cast<uint32_t>(expected.size());
  testCase.main.operands.push_back(
      makeOperand(type, {count}, Lifetime::kSubgraphInput, std::vector<double>(count, 0.0)));
  testCase.main.operands.push_back(
      makeOperand(type, {count}, Lifetime::kSubgraphOutput, std::move(expected)));
  testCase.main.operations.push_back({0, "ADD", {0}, {1}});
  testCase.main.inputIndexes = {0};
  testCase.main.outputIndexes = {1};
  testCase.accuracy.float32 = {9.99999974738e-06, 5.960464477539062e-07};
  testCase.accuracy.float16 = {0.0048828125, 0.0048828125};
  testCase.accuracy.int32 = {1, 0};
  testCase.accuracy.quant8Asymm = {1, 0};
  testCase.accuracy.quant8AsymmSigned = {1, 0};
  return testCase;
}

TEST(CtsEncoding, RoundTripsEveryType) {
  const std::vector<std::pair<int32_t, std::vector<double>>> samples = {
      {kTensorFloat32, {0.10000000149011612, -2.5}},
      {kTensorFloat16, {0.0999755859375, 65504.0}},
      {kTensorInt32, {-7, 2147483647}},
      {kUint32, {4294967295.0}},
      {kTensorQuant8Asymm, {0, 255}},
      {kTensorQuant8AsymmSigned, {-128, 127}},
      {kTensorQuant8SymmPerChannel, {-127, 5}},
      {kTensorQuant16Asymm, {0, 65535}},
      {kTensorQuant16Symm, {-32768, 32767}},
      {kTensorBool8, {0, 1}},
  };
  for (const auto& [type, values] : samples) {
    const std::vector<uint8_t> bytes = encodeData(type, values);
    ASSERT_EQ(bytes.size(), values.size() * elementSize(type)) << "type " << type;
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(decodeElement(type, bytes.data(), i), values[i]) << "type " << type;
    }
  }
}

TEST(CtsCheck, Float32WithinAndBeyondTolerance) {
  TestCase testCase = makeCase(kTensorFloat32, {1.0, 2.0});
  EXPECT_FALSE(checkOutputs(testCase, {encodeData(kTensorFloat32, {1.000009, 2.0})}));
  const auto failure = checkOutputs(testCase, {encodeData(kTensorFloat32, {1.0, 2.0001})});
  ASSERT_TRUE(failure);
  ASSERT_TRUE(failure->mismatch);
  EXPECT_EQ(failure->mismatch->output, 0u);
  EXPECT_EQ(failure->mismatch->element, 1u);
  EXPECT_EQ(failure->mismatch->expected, 2.0);
  EXPECT_NEAR(failure->mismatch->tolerance, 9.99999974738e-06 + 2 * 5.960464477539062e-07, 1e-12);
}

TEST(CtsCheck, NanNeverMatches) {
  TestCase testCase = makeCase(kTensorFloat32, {1.0});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<uint8_t> bytes(sizeof(float));
  std::memcpy(bytes.data(), &nan, sizeof(float));
  EXPECT_TRUE(checkOutputs(testCase, {bytes}));
}

TEST(CtsCheck, QuantizedToleranceIsOneStep) {
  TestCase testCase = makeCase(kTensorQuant8Asymm, {10, 20});
  EXPECT_FALSE(checkOutputs(testCase, {encodeData(kTensorQuant8Asymm, {11, 19})}));
  EXPECT_TRUE(checkOutputs(testCase, {encodeData(kTensorQuant8Asymm, {12, 20})}));
}

TEST(CtsCheck, Bool8IsExact) {
  TestCase testCase = makeCase(kTensorBool8, {1, 0});
  EXPECT_FALSE(checkOutputs(testCase, {encodeData(kTensorBool8, {1, 0})}));
  EXPECT_TRUE(checkOutputs(testCase, {encodeData(kTensorBool8, {1, 1})}));
}

TEST(CtsCheck, IgnoredOutputsAreNotCompared) {
  TestCase testCase = makeCase(kTensorInt32, {5});
  testCase.main.operands[1].isIgnored = true;
  EXPECT_FALSE(checkOutputs(testCase, {encodeData(kTensorInt32, {100})}));
}

// RANDOM_MULTINOMIAL(logits, sample count, seeds) -> samples, with the logits
// as model input `logitsInput` (the seeds are the other input).
TestCase makeMultinomialCase(std::vector<uint32_t> logitsDims, std::vector<double> logits,
                             uint32_t samples, size_t logitsInput = 0) {
  TestCase testCase;
  testCase.multinomialTolerance = 0.025;
  const uint32_t batches = logitsDims[0];
  auto& operands = testCase.main.operands;
  operands.push_back(
      makeOperand(kTensorFloat32, logitsDims, Lifetime::kSubgraphInput, std::move(logits)));
  operands.push_back(makeOperand(kInt32, {}, Lifetime::kConstantCopy, {double(samples)}));
  operands.push_back(makeOperand(kTensorInt32, {2}, Lifetime::kSubgraphInput, {37, 42}));
  operands.push_back(makeOperand(kTensorInt32, {batches, samples}, Lifetime::kSubgraphOutput,
                                 std::vector<double>(size_t{batches} * samples, 0.0)));
  operands[3].isIgnored = true;
  testCase.main.operations.push_back({74, "RANDOM_MULTINOMIAL", {0, 1, 2}, {3}});
  testCase.main.inputIndexes =
      logitsInput == 0 ? std::vector<uint32_t>{0, 2} : std::vector<uint32_t>{2, 0};
  testCase.main.outputIndexes = {3};
  return testCase;
}

// Samples cycling through `pattern`.
std::vector<uint8_t> samplesOf(const std::vector<double>& pattern, size_t count) {
  std::vector<double> samples(count);
  for (size_t i = 0; i < count; ++i) samples[i] = pattern[i % pattern.size()];
  return encodeData(kTensorInt32, samples);
}

TEST(CtsCheck, MultinomialComparesFrequencies) {
  const TestCase testCase = makeMultinomialCase({1, 4}, {0, 0, 0, 0}, 128);
  EXPECT_FALSE(checkOutputs(testCase, {samplesOf({0, 1, 2, 3}, 128)}));
  EXPECT_TRUE(checkOutputs(testCase, {samplesOf({0}, 128)}));
  EXPECT_TRUE(checkOutputs(testCase, {samplesOf({0, 1, 2, 4}, 128)})) << "class 4 is out of range";
  EXPECT_TRUE(checkOutputs(testCase, {samplesOf({0, 1, 2, 3}, 127)})) << "a sample is missing";
}

// log(3) makes class 1 three times as likely as class 0: 32 + 96 samples.
TEST(CtsCheck, MultinomialUsesSoftmaxOfEachBatchRow) {
  const double log3 = std::log(3.0);
  const TestCase testCase = makeMultinomialCase({2, 2}, {0, log3, log3, 0}, 128);
  std::vector<double> samples(256);
  for (size_t i = 0; i < 128; ++i) samples[i] = i % 4 == 0 ? 0 : 1;
  for (size_t i = 0; i < 128; ++i) samples[128 + i] = i % 4 == 0 ? 1 : 0;
  EXPECT_FALSE(checkOutputs(testCase, {encodeData(kTensorInt32, samples)}));
  std::swap_ranges(samples.begin(), samples.begin() + 128, samples.begin() + 128);
  const auto failure = checkOutputs(testCase, {encodeData(kTensorInt32, samples)});
  ASSERT_TRUE(failure);
  ASSERT_TRUE(failure->mismatch);
  EXPECT_NEAR(failure->mismatch->expected, 0.25, 1e-12);
  EXPECT_NEAR(failure->mismatch->actual, 0.75, 1e-12);
}

TEST(CtsCheck, MultinomialFindsTheLogitsThroughTheOperation) {
  const TestCase testCase = makeMultinomialCase({1, 2}, {0, 100}, 64, /*logitsInput=*/1);
  EXPECT_FALSE(checkOutputs(testCase, {samplesOf({1}, 64)}));
  EXPECT_TRUE(checkOutputs(testCase, {samplesOf({0}, 64)}));
}

TEST(CtsCheck, MultinomialNeedsTheOperationAndTheLogitsValues) {
  TestCase noOperation = makeMultinomialCase({1, 2}, {0, 0}, 64);
  noOperation.main.operations.clear();
  EXPECT_TRUE(checkOutputs(noOperation, {samplesOf({0, 1}, 64)}));
  TestCase internalLogits = makeMultinomialCase({1, 2}, {0, 0}, 64);
  internalLogits.main.operands[0].data.clear();
  EXPECT_TRUE(checkOutputs(internalLogits, {samplesOf({0, 1}, 64)}));
}

TEST(CtsTransform, QuantizationCouplingShiftsToSigned) {
  TestCase testCase = makeCase(kTensorQuant8Asymm, {0, 128, 255});
  testCase.main.operands[1].zeroPoint = 128;
  const TestCase coupled = makeQuantizationCoupling(testCase);
  const Operand& output = coupled.main.operands[1];
  EXPECT_EQ(output.type, kTensorQuant8AsymmSigned);
  EXPECT_EQ(output.zeroPoint, 0);
  EXPECT_EQ(output.data, (std::vector<double>{-128, 0, 127}));
}

TEST(CtsTransform, MainOperationSkipsPlaceholderAdds) {
  TestCase testCase = makeCase(kTensorFloat32, {1.0});
  Operand placeholder = makeOperand(kTensorFloat32, {1}, Lifetime::kConstantCopy, {0});
  placeholder.name = "placeholder3";
  testCase.main.operands.push_back(placeholder);
  testCase.main.operations = {{0, "ADD", {0, 2}, {1}}, {42, "RELU", {1}, {0}}};
  EXPECT_EQ(mainOperationName(testCase), "RELU");
  testCase.main.operations = {{0, "ADD", {0, 1}, {1}}};
  EXPECT_EQ(mainOperationName(testCase), "ADD");
}

// A case in the README's format whose per-channel int8 weights are
// `weights` (a JSON array).
std::string oneCase(const std::string& weights) {
  std::string text = R"([{"name":"one","spec":"V1_0/one.mod.py",
    "versionDir":"V1_0","minFeatureLevel":27,"isRelaxed":false,"expectFailure":false,
    "expectedMultinomialDistributionTolerance":0.0,
    "main":{"operands":[{"name":"a","type":3,"dimensions":[2],"scale":0.0,"zeroPoint":0,
      "lifetime":"SUBGRAPH_INPUT","lifetimeCode":1,"channelQuant":null,"isIgnored":false,
      "data":[1.0,2.0]},{"name":"w","type":11,"dimensions":[2],"scale":0.0,"zeroPoint":0,
      "lifetime":"CONSTANT_REFERENCE","lifetimeCode":4,
      "channelQuant":{"channelDim":0,"scales":[0.5,0.25]},"isIgnored":false,"data":WEIGHTS}],
      "operations":[{"type":0,"typeName":"ADD","inputs":[0,1],"outputs":[0]}],
      "inputIndexes":[0],"outputIndexes":[0]},"referenced":[],
    "harness":{"GeneratedTests":true,"DynamicOutputShapeTest":true},
    "accuracy":{"float32":{"atol":1e-5,"rtol":0},"float16":{"atol":1,"rtol":1},
      "int32":{"atol":1,"rtol":0},"quant8Asymm":{"atol":1,"rtol":0},
      "quant8AsymmSigned":{"atol":1,"rtol":0},"quant8Symm":{"atol":1,"rtol":0},
      "quant16Asymm":{"atol":1,"rtol":0},"quant16Symm":{"atol":1,"rtol":0}}}])";
  text.replace(text.find("WEIGHTS"), 7, weights);
  return text;
}

TEST(CtsLoader, LoadsTheReadmeFormat) {
  const annrt::test::TempPath loaderDir("annrt_cts_loader_test");
  const std::filesystem::path dir = loaderDir.str();
  std::filesystem::create_directories(dir / "V1_0");
  std::ofstream(dir / "V1_0" / "one.json") << oneCase("[1,2]");
  const std::vector<TestCase> cases = loadTestCases(dir, false);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name, "one");
  EXPECT_EQ(cases[0].minFeatureLevel, 27);
  EXPECT_TRUE(cases[0].harness.dynamicOutputShapeTest);
  ASSERT_EQ(cases[0].main.operands.size(), 2u);
  const Operand& weights = cases[0].main.operands[1];
  EXPECT_EQ(weights.lifetime, Lifetime::kConstantReference);
  ASSERT_TRUE(weights.channelQuant);
  EXPECT_EQ(weights.channelQuant->scales, (std::vector<float>{0.5f, 0.25f}));
}

// fuzz/regressions/fuzz_cts_reader/int8-value-out-of-range: converting 170
// into an int8 buffer was undefined behaviour; such a file is malformed.
TEST(CtsLoader, RejectsDataOutsideTheOperandType) {
  EXPECT_EQ(parseTestCases(oneCase("[-128,127]")).size(), 1u);
  for (const char* weights : {"[170]", "[-129]", "[1e300]"}) {
    try {
      parseTestCases(oneCase(weights));
      ADD_FAILURE() << weights << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("does not fit type 11"), std::string::npos) << e.what();
    }
  }
}

// fuzz/regressions/fuzz_cts_reader/float-operand-type: nlohmann's get<int>
// of 4.4e86 was undefined behaviour; an integer field must be an integer in
// range.
TEST(CtsLoader, RejectsIntegerFieldsThatAreNotIntegersInRange) {
  const std::string good = oneCase("[1,2]");
  EXPECT_EQ(parseTestCases(good).size(), 1u);
  const std::vector<std::pair<std::string, std::string>> edits = {
      {R"("type":3,)", R"("type":4.4e86,)"},
      {R"("type":3,)", R"("type":3.5,)"},
      {R"("zeroPoint":0,)", R"("zeroPoint":2147483648,)"},
      {R"("dimensions":[2],)", R"("dimensions":[-1],)"},
      {R"("dimensions":[2],)", R"("dimensions":2,)"},
      {R"("inputs":[0,1])", R"("inputs":[0,1e10])"},
      {R"("lifetimeCode":1,)", R"("lifetimeCode":"1",)"},
      {R"("minFeatureLevel":27,)", R"("minFeatureLevel":27.0,)"}};
  for (const auto& [from, to] : edits) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    try {
      parseTestCases(text);
      ADD_FAILURE() << to << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("not an"), std::string::npos) << to << ": " << e.what();
    }
  }
}

// The suite's size (README: 9,602 cases, 228 of them experimental).
TEST(CtsLoader, CountsTheSharedVectors) {
  const std::filesystem::path vectors = ANNRT_CTS_VECTORS;
  if (!std::filesystem::is_directory(vectors)) GTEST_SKIP() << "no vectors at " << vectors;
  EXPECT_EQ(loadTestCases(vectors, false).size(), 9374u);
}

}  // namespace
}  // namespace annrt::cts
