// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A driver built on exported_device.cpp receives AnnrtModels it cannot trust
// (fuzz_abi_model found the out-of-range index): malformed structures,
// invalid NNAPI models and requests that do not fit the model are BAD_DATA
// with a message, never a crash; a correct model still prepares and runs.
#include "driver_abi/abi_model.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "driver_abi/exported_device.h"
#include "drivers/reference/reference_device.h"
#include "ops/model_validation.h"
#include "unit/internal_model.h"

namespace annrt::abi {
namespace {

class AbiModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = test::maxPoolChain(1);
    view_ = std::make_unique<AbiModelView>(*model_);
    abi_ = *view_->get();
    operands_.assign(abi_.main.operands, abi_.main.operands + abi_.main.operandCount);
    operations_.assign(abi_.main.operations, abi_.main.operations + abi_.main.operationCount);
    inputs_.assign(operations_[0].inputs, operations_[0].inputs + operations_[0].inputCount);
    abi_.main.operands = operands_.data();
    abi_.main.operations = operations_.data();
    operations_[0].inputs = inputs_.data();
  }

  // prepare's result code, its message in `message`; the prepared model in
  // `kept` if given, else released.
  int32_t prepare(std::string* message = nullptr, AnnrtPreparedModel** kept = nullptr) {
    const AnnrtDevice& device = exporter_.driver()->devices[0];
    AnnrtPrepareOptions options{};
    options.size = sizeof(options);
    options.deadlineNs = -1;
    AnnrtPreparedModel* prepared = nullptr;
    AnnrtMessage text{};
    const int32_t code = device.prepare(device.context, &abi_, &options, &prepared, &text);
    if (kept) {
      *kept = prepared;
    } else if (prepared) {
      device.release(prepared);
    }
    if (message) *message = text.text;
    return code;
  }
  int32_t getSupported(bool* flag = nullptr) {
    const AnnrtDevice& device = exporter_.driver()->devices[0];
    bool supported[1] = {true};
    const int32_t code = device.getSupportedOperations(device.context, &abi_, supported);
    if (flag) *flag = supported[0];
    return code;
  }
  // A float32 argument over `values`, of the model's dims when `dims` is empty.
  static AnnrtArgument floats(std::vector<float>& values, std::span<const uint32_t> dims = {}) {
    return {false, values.data(), values.size() * sizeof(float), static_cast<uint32_t>(dims.size()),
            dims.empty() ? nullptr : dims.data()};
  }
  // Prepares the model and executes `request`: execute's result code, its
  // message in `message`.
  int32_t execute(const AnnrtRequest& request, std::string* message) {
    const AnnrtDevice& device = exporter_.driver()->devices[0];
    AnnrtPreparedModel* prepared = nullptr;
    EXPECT_EQ(prepare(nullptr, &prepared), 0);
    if (prepared == nullptr) return -1;
    AnnrtExecuteOptions options{};
    options.size = sizeof(options);
    options.deadlineNs = -1;
    options.loopTimeoutNs = 1'000'000'000;
    const AnnrtResultSink sink{
        nullptr, [](AnnrtExecuteResult*, uint32_t, uint32_t, const uint32_t*, bool) {},
        [](AnnrtExecuteResult*, uint64_t, uint64_t) {},
        [](AnnrtExecuteResult*, uint32_t, uint64_t) {}};
    AnnrtMessage text{};
    const int32_t code = device.execute(prepared, &request, &options, &sink, &text);
    device.release(prepared);
    *message = text.text;
    return code;
  }

  DeviceExporter exporter_{"test", {reference::createReferenceDevice()}};
  std::shared_ptr<const Model> model_;
  std::unique_ptr<AbiModelView> view_;
  AnnrtModel abi_{};
  std::vector<AnnrtOperand> operands_;
  std::vector<AnnrtOperation> operations_;
  std::vector<uint32_t> inputs_;
};

TEST_F(AbiModelTest, CorrectModelPrepares) {
  EXPECT_EQ(getSupported(), 0);
  EXPECT_EQ(prepare(), 0);
}

TEST_F(AbiModelTest, OperationInputOutOfRangeIsBadData) {
  inputs_[0] = 1000;
  std::string message;
  EXPECT_EQ(prepare(&message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("operand 1000 of"), std::string::npos) << message;
  EXPECT_EQ(getSupported(), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(AbiModelTest, SubgraphOutputOutOfRangeIsBadData) {
  const uint32_t outputs[] = {abi_.main.operandCount};
  abi_.main.outputs = outputs;
  EXPECT_EQ(prepare(), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(AbiModelTest, UnknownLifetimeIsBadData) {
  operands_[0].lifetime = 4;  // CONSTANT_REFERENCE exists only inside annrt
  EXPECT_EQ(prepare(), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(AbiModelTest, ReferencedSubgraphOutOfRangeIsBadData) {
  operands_[0].lifetime = ANNRT_LIFETIME_SUBGRAPH;
  operands_[0].subgraph = 0;  // the model references no subgraph
  EXPECT_EQ(prepare(), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(AbiModelTest, NullDimensionsIsBadData) {
  operands_[0].dimensions = nullptr;
  EXPECT_EQ(prepare(), ANEURALNETWORKS_BAD_DATA);
}

// fuzz/regressions/fuzz_abi_model/request-without-inputs: the reference
// device read request.inputs[0] of an empty request.
TEST_F(AbiModelTest, RequestOfOtherArgumentCountIsBadData) {
  std::vector<float> output(4);
  const AnnrtArgument outputs[] = {floats(output)};
  std::string message;
  EXPECT_EQ(execute({0, nullptr, 1, outputs}, &message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("the request has 0 inputs"), std::string::npos) << message;
}

// A structurally sound model that is not a valid NNAPI model (MAX_POOL_2D
// without its activation) is rejected before any device runs it, and has
// no supported operation.
TEST_F(AbiModelTest, InvalidOperationSignatureIsBadData) {
  operations_[0].inputCount -= 1;
  std::string message;
  EXPECT_EQ(prepare(&message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("invalid MAX_POOL_2D operation"), std::string::npos) << message;
  bool supported = true;
  EXPECT_EQ(getSupported(&supported), ANEURALNETWORKS_BAD_DATA);
  EXPECT_FALSE(supported);
}

TEST_F(AbiModelTest, ConstantShorterThanItsTypeIsBadData) {
  const uint32_t size = inputs_[1];  // an INT32 scalar
  operands_[size].length = 2;
  std::string message;
  EXPECT_EQ(prepare(&message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("needs 4 bytes, has 2"), std::string::npos) << message;
}

// The input is [1, 4, 4, 1] floats: 64 bytes.
TEST_F(AbiModelTest, InputBufferTooShortIsBadData) {
  std::vector<float> input(15), output(4);
  const AnnrtArgument inputs[] = {floats(input)};
  const AnnrtArgument outputs[] = {floats(output)};
  std::string message;
  EXPECT_EQ(execute({1, inputs, 1, outputs}, &message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("input 0 of TENSOR_FLOAT32[1,4,4,1] needs 64 bytes, the request gives 60"),
            std::string::npos)
      << message;
}

TEST_F(AbiModelTest, InputOfOtherRankIsBadData) {
  std::vector<float> input(16), output(4);
  const uint32_t dims[] = {16};
  const AnnrtArgument inputs[] = {floats(input, dims)};
  const AnnrtArgument outputs[] = {floats(output)};
  std::string message;
  EXPECT_EQ(execute({1, inputs, 1, outputs}, &message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("input 0 has dimensions [16]"), std::string::npos) << message;
}

TEST_F(AbiModelTest, ValidRequestExecutes) {
  std::vector<float> input(16), output(4);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
  const AnnrtArgument inputs[] = {floats(input)};
  const AnnrtArgument outputs[] = {floats(output)};
  std::string message;
  EXPECT_EQ(execute({1, inputs, 1, outputs}, &message), 0) << message;
  EXPECT_EQ(output, (std::vector<float>{5, 7, 13, 15}));
}

// fuzz/regressions/fuzz_abi_model/while-passes-omitted-input: a WHILE that
// loops no time copied its omitted input's (null) data into its output.
TEST_F(AbiModelTest, LoopPassingOnAnOmittedInputFails) {
  const Model model = test::loopNeverTaken();
  ASSERT_TRUE(ops::validateModel(model).ok()) << ops::validateModel(model).error().message;
  view_ = std::make_unique<AbiModelView>(model);
  abi_ = *view_->get();
  std::vector<float> input(1, 2.5f), output(1);
  const AnnrtArgument given[] = {floats(input)};
  AnnrtArgument omitted[] = {{true, nullptr, 0, 0, nullptr}};
  const AnnrtArgument outputs[] = {floats(output)};
  std::string message;
  EXPECT_EQ(execute({1, given, 1, outputs}, &message), 0) << message;
  EXPECT_EQ(output[0], 2.5f);
  EXPECT_EQ(execute({1, omitted, 1, outputs}, &message), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(message.find("passes on a value that was omitted"), std::string::npos) << message;
}

}  // namespace
}  // namespace annrt::abi
