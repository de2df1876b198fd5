// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A driver built on exported_device.cpp receives AnnrtModels it cannot trust
// (fuzz_abi_model found the out-of-range index): malformed structures are
// BAD_DATA with a message, never a crash; a correct model still prepares.
#include "driver_abi/abi_model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver_abi/exported_device.h"
#include "drivers/reference/reference_device.h"
#include "unit/internal_model.h"

namespace annrt::abi {
namespace {

class AbiModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::InternalModel builder;
    const uint32_t input = builder.tensor({1, 4, 4, 1});
    const uint32_t output = builder.maxPool(input, 2, {1, 2, 2, 1});
    model_ = builder.finish({input}, {output});
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
  int32_t getSupported() {
    const AnnrtDevice& device = exporter_.driver()->devices[0];
    bool supported[1] = {false};
    return device.getSupportedOperations(device.context, &abi_, supported);
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
  const AnnrtDevice& device = exporter_.driver()->devices[0];
  AnnrtPreparedModel* prepared = nullptr;
  ASSERT_EQ(prepare(nullptr, &prepared), 0);
  AnnrtMessage message{};
  std::vector<float> output(4);
  const AnnrtArgument outputs[] = {
      {false, output.data(), output.size() * sizeof(float), 0, nullptr}};
  const AnnrtRequest request{0, nullptr, 1, outputs};
  AnnrtExecuteOptions executeOptions{};
  executeOptions.size = sizeof(executeOptions);
  executeOptions.deadlineNs = -1;
  const AnnrtResultSink sink{nullptr,
                             [](AnnrtExecuteResult*, uint32_t, uint32_t, const uint32_t*, bool) {},
                             [](AnnrtExecuteResult*, uint64_t, uint64_t) {},
                             [](AnnrtExecuteResult*, uint32_t, uint64_t) {}};
  EXPECT_EQ(device.execute(prepared, &request, &executeOptions, &sink, &message),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(std::string(message.text).find("the request has 0 inputs"), std::string::npos)
      << message.text;
  device.release(prepared);
}

}  // namespace
}  // namespace annrt::abi
