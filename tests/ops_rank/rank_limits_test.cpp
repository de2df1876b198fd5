// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Ranks where AOSP's reference CPU implementation goes past the NDK header's
// "Supported tensor rank" line, or stops at it (docs/operation-limits.md):
// - MEAN checks a known input rank (at most 4) when the model is built, but
//   its execution (meanPrepare, meanGeneric) reduces any rank: an input
//   declared with an unknown rank runs at rank 5. REDUCE_SUM checks again
//   at run time (Reduce.cpp prepare) and fails there.
// - RESHAPE limits its input to rank 4 (validateReshape), not its output.
// - Operations documented "from 1" run at ranks 6 and 8.
// Expected values are computed here, independently of the kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

#include "api/test_models.h"
#include "common/single_op.h"

namespace annrt::test {
namespace {

std::vector<float> ramp(size_t count) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = 0.25f * static_cast<float>(i) - 3.0f;
  return v;
}

size_t elements(const std::vector<uint32_t>& dims) {
  return std::accumulate(dims.begin(), dims.end(), size_t{1}, std::multiplies<>());
}

// Operand 0: the data input of unknown rank; 1: constant axes; 2: constant
// keep_dims (INT32 for MEAN, BOOL for REDUCE_*); 3: the output, unknown rank.
Model reductionOfUnknownRank(int32_t operation, const std::vector<int32_t>& axes) {
  Model model = newModel();
  addOperand(model.get(), {ANEURALNETWORKS_TENSOR_FLOAT32, {}});
  addOperand(model.get(), {ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(axes.size())}});
  const bool isMean = operation == ANEURALNETWORKS_MEAN;
  addOperand(model.get(), {isMean ? ANEURALNETWORKS_INT32 : ANEURALNETWORKS_BOOL, {}});
  addOperand(model.get(), {ANEURALNETWORKS_TENSOR_FLOAT32, {}});
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(model.get(), 1, axes.data(),
                                                 axes.size() * sizeof(int32_t)),
            ANEURALNETWORKS_NO_ERROR);
  const int32_t keepMean = 0;
  const uint8_t keepReduce = 0;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(model.get(), 2,
                                                 isMean ? static_cast<const void*>(&keepMean)
                                                        : static_cast<const void*>(&keepReduce),
                                                 isMean ? sizeof(keepMean) : sizeof(keepReduce)),
            ANEURALNETWORKS_NO_ERROR);
  const uint32_t ins[] = {0, 1, 2}, out = 3, modelIn = 0;
  EXPECT_EQ(ANeuralNetworksModel_addOperation(model.get(), operation, 3, ins, 1, &out),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model.get(), 1, &modelIn, 1, &out),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(model.get()), ANEURALNETWORKS_NO_ERROR);
  return model;
}

// Runs `model` on nnapi-reference with a rank-given input; returns the status
// of compute and fills `output`.
int runWithInputDims(ANeuralNetworksModel* model, const std::vector<uint32_t>& dims,
                     const std::vector<float>& input, std::vector<float>& output,
                     std::vector<uint32_t>* outputDims) {
  const ANeuralNetworksDevice* device = findDevice("nnapi-reference");
  ANeuralNetworksCompilation* raw = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &raw),
            ANEURALNETWORKS_NO_ERROR);
  Compilation compilation = finishIf(raw, true);
  Execution execution = newExecution(compilation.get());
  const OperandType type = floatTensor(dims);
  const ANeuralNetworksOperandType inputType = type.get();
  EXPECT_EQ(ANeuralNetworksExecution_setInput(execution.get(), 0, &inputType, input.data(),
                                              input.size() * sizeof(float)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                               output.size() * sizeof(float)),
            ANEURALNETWORKS_NO_ERROR);
  const int status = ANeuralNetworksExecution_compute(execution.get());
  if (status == ANEURALNETWORKS_NO_ERROR && outputDims != nullptr) {
    uint32_t rank = 0;
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(execution.get(), 0, &rank),
              ANEURALNETWORKS_NO_ERROR);
    outputDims->resize(rank);
    EXPECT_EQ(
        ANeuralNetworksExecution_getOutputOperandDimensions(execution.get(), 0, outputDims->data()),
        ANEURALNETWORKS_NO_ERROR);
  }
  return status;
}

TEST(RankLimitsTest, MeanOfUnknownRankRunsAtRankFive) {
  // [2, 3, 1, 2, 2] averaged over axes 1 and -1 (4): [2, 1, 2].
  const std::vector<uint32_t> dims = {2, 3, 1, 2, 2};
  const std::vector<float> input = ramp(elements(dims));
  std::vector<float> expected(4, 0.0f);
  for (uint32_t a = 0; a < 2; ++a) {
    for (uint32_t b = 0; b < 3; ++b) {
      for (uint32_t d = 0; d < 2; ++d) {
        for (uint32_t e = 0; e < 2; ++e) {
          expected[a * 2 + d] += input[(((a * 3 + b) * 1) * 2 + d) * 2 + e] / 6.0f;
        }
      }
    }
  }
  Model model = reductionOfUnknownRank(ANEURALNETWORKS_MEAN, {1, -1});
  std::vector<float> output(4, -100.0f);
  std::vector<uint32_t> outputDims;
  ASSERT_EQ(runWithInputDims(model.get(), dims, input, output, &outputDims),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(outputDims, (std::vector<uint32_t>{2, 1, 2}));
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(output[i], expected[i], 1e-5) << i;
}

TEST(RankLimitsTest, ReduceSumOfUnknownRankStopsAtRankFour) {
  Model model = reductionOfUnknownRank(ANEURALNETWORKS_REDUCE_SUM, {1});
  const std::vector<uint32_t> dims = {2, 3, 1, 2, 2};
  std::vector<float> output(8);
  // The error code of a failed run-time check is the executor's business.
  EXPECT_NE(runWithInputDims(model.get(), dims, ramp(elements(dims)), output, nullptr),
            ANEURALNETWORKS_NO_ERROR);
}

TEST(RankLimitsTest, KnownRankFiveMeanIsRefusedWhenBuilt) {
  Operand out = output<float>(kF32, {2, 1, 2});
  EXPECT_EQ(run(ANEURALNETWORKS_MEAN, {f32({2, 3, 1, 2, 2}, ramp(24)), axes({1, 4}), i32(0)}, out),
            ANEURALNETWORKS_BAD_DATA);
}

TEST(RankLimitsTest, ReshapeOutputsRankSixButTakesInputsUpToRankFour) {
  Operand out = output<float>(kF32, {1, 2, 1, 3, 1, 4});
  ASSERT_EQ(run(ANEURALNETWORKS_RESHAPE, {f32({2, 3, 4}, ramp(24)), axes({1, 2, 1, 3, 1, 4})}, out),
            kOk);
  EXPECT_EQ(values<float>(out), ramp(24));
  Operand flat = output<float>(kF32, {2, 12});
  EXPECT_EQ(run(ANEURALNETWORKS_RESHAPE, {f32({2, 1, 3, 2, 2}, ramp(24)), axes({2, 12})}, flat),
            ANEURALNETWORKS_BAD_DATA);
}

TEST(RankLimitsTest, FromOneOperationsRunAtRankEight) {
  const std::vector<uint32_t> dims = {1, 2, 1, 2, 1, 2, 1, 3};
  const std::vector<float> x = ramp(24);
  Operand abs = output<float>(kF32, dims);
  ASSERT_EQ(run(ANEURALNETWORKS_ABS, {f32(dims, x)}, abs), kOk);
  // TILE doubles the axis of size 1 before the last: each row of 3 twice.
  const std::vector<uint32_t> tiledDims = {1, 2, 1, 2, 1, 2, 2, 3};
  Operand tiled = output<float>(kF32, tiledDims);
  ASSERT_EQ(run(ANEURALNETWORKS_TILE, {f32(dims, x), axes({1, 1, 1, 1, 1, 1, 2, 1})}, tiled), kOk);
  const std::vector<float> absValues = values<float>(abs);
  const std::vector<float> tiledValues = values<float>(tiled);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(absValues[i], std::fabs(x[i])) << i;
    // Input row i / 3 of 3 floats appears twice in a row in the output.
    const size_t row = i / 3, column = i % 3;
    EXPECT_EQ(tiledValues[row * 6 + column], x[i]) << i;
    EXPECT_EQ(tiledValues[row * 6 + 3 + column], x[i]) << i;
  }
}

}  // namespace
}  // namespace annrt::test
