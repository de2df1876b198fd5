// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksModel_*: null arguments, modification after finish, operand
// indexes out of range, mismatched types and lengths. After each rejected call
// the model must still build, finish and run.
#include <limits>

#include "test_models.h"

namespace annrt::test {
namespace {

class ModelTest : public ::testing::Test {
 protected:
  void SetUp() override { model_ = newModel(); }
  ANeuralNetworksModel* model() const { return model_.get(); }

  // Completes model_ as FLOOR(operand 0) -> operand 1 and checks that it
  // finishes and computes: the earlier rejected calls left it usable.
  void expectStillUsable() {
    const uint32_t in = 0, out = 1;
    ASSERT_OK(ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, &out));
    ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, &out));
    expectFinishesAndRuns();
  }
  void expectFinishesAndRuns() {
    ASSERT_OK(ANeuralNetworksModel_finish(model()));
    Compilation compilation = compile(model());
    expectFloors(newExecution(compilation.get()).get());
  }
  void addFloatTensors(int count) {
    for (int i = 0; i < count; ++i) addOperand(model(), floatTensor(kDims));
  }

  Model model_;
};

TEST_F(ModelTest, CreateAndFreeNull) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_create(nullptr));
  ANeuralNetworksModel_free(nullptr);  // documented as a no-op
}

TEST_F(ModelTest, AddOperandRejectsInvalidTypes) {
  const OperandType validOwner = floatTensor(kDims);
  const ANeuralNetworksOperandType valid = validOwner.get();
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_addOperand(nullptr, &valid));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_addOperand(model(), nullptr));

  const uint32_t dim = 2;
  const ANeuralNetworksOperandType invalid[] = {
      {.type = 9999},  // unknown code
      {.type = -1},    // no such extension
      {.type = ANEURALNETWORKS_INT32, .dimensionCount = 1, .dimensions = &dim},  // scalar rank 1
      {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .dimensionCount = 1},             // null dims
      {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .dimensions = &dim},              // dims, count 0
      {.type = ANEURALNETWORKS_TENSOR_FLOAT32,
       .dimensionCount = 1,
       .dimensions = &dim,
       .scale = 0.5f},  // a float tensor has no scale
      {.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
       .dimensionCount = 1,
       .dimensions = &dim,
       .scale = -1.0f},  // negative scale
      {.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
       .dimensionCount = 1,
       .dimensions = &dim,
       .scale = 1.0f,
       .zeroPoint = 256},  // zero point outside [0, 255]
      {.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
       .dimensionCount = 1,
       .dimensions = &dim,
       .scale = 1.0f,
       .zeroPoint = -129},
      {.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
       .dimensionCount = 1,
       .dimensions = &dim,
       .scale = std::numeric_limits<float>::quiet_NaN()},
  };
  for (const auto& type : invalid) {
    SCOPED_TRACE(::testing::Message() << "type " << type.type);
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperand(model(), &type));
  }
  // None of the rejected operands was added: the next ones are 0 and 1.
  addFloatTensors(2);
  expectStillUsable();
}

// Every call that modifies a model, on operand `index` of `model`: all must
// be BAD_STATE.
void expectModificationsAreBadState(ANeuralNetworksModel* model, int32_t index) {
  const OperandType typeOwner = floatTensor(kDims);
  const ANeuralNetworksOperandType type = typeOwner.get();
  const float value[4] = {};
  const float scale = 0.5f;
  const ANeuralNetworksSymmPerChannelQuantParams channelQuant = {0, 1, &scale};
  SharedMemory memory(sizeof(value));
  Model other = floorModel();
  const uint32_t in = 0, out = static_cast<uint32_t>(index);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksModel_addOperand(model, &type));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_setOperandValue(model, index, value, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksModel_setOperandValueFromMemory(
                                           model, index, memory.get(), 0, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_setOperandValueFromModel(model, index, other.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, index, &channelQuant));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_setOperandExtensionData(model, index, value, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_FLOOR, 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksModel_finish(model));
}

TEST_F(ModelTest, ModificationAfterFinishIsBadState) {
  addFloatTensors(2);
  expectStillUsable();
  expectModificationsAreBadState(model(), 1);
  // The finished model still compiles.
  Compilation compilation = compile(model());
  EXPECT_NE(compilation, nullptr);
}

// As AOSP, a model whose finish failed is invalid: it can be neither modified,
// finished again, compiled, queried nor referenced.
TEST_F(ModelTest, FailedFinishMakesTheModelInvalid) {
  addFloatTensors(3);  // 2: a temporary nothing writes
  const uint32_t in = 0, out = 1;
  ASSERT_OK(ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, &out));
  ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_finish(model()));
  expectModificationsAreBadState(model(), 2);
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_create(model(), &compilation));
  EXPECT_EQ(compilation, nullptr);
  const ANeuralNetworksDevice* device = deviceAt(0);
  bool supported[1] = {};
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_getSupportedOperationsForDevices(model(), &device, 1, supported));
  Model outer = newModel();
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  ASSERT_OK(ANeuralNetworksModel_addOperand(outer.get(), &modelType));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_setOperandValueFromModel(outer.get(), 0, model()));
}

// A failed finish leaves the model invalid (ModelValidationTest has the rest).
TEST_F(ModelTest, FinishRejectsNullAndEmptyModels) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_finish(nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_finish(model()));  // empty
}

TEST_F(ModelTest, FinishRejectsAnOutputNoOperationWrites) {
  addFloatTensors(3);
  const uint32_t in = 0, out = 1, orphan[] = {1, 2};
  ASSERT_OK(ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, &out));
  ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 2, orphan));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_finish(model()));
}

TEST_F(ModelTest, SetOperandValueChecksIndexLengthAndRole) {
  addFloatTensors(3);  // 2 becomes a constant
  const float value[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandValue(nullptr, 2, value, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandValue(model(), 2, nullptr, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_setOperandValue(model(), 2, value, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValue(model(), 2, value, sizeof(value) + 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValue(model(), -1, value, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValue(model(), 3, value, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandValue(model(), 2, value, sizeof(value)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_setOperandValue(model(), 2, nullptr, 0));

  // An omitted value cannot become an input (a value on an input fails only
  // at finish: ModelValidationTest).
  const uint32_t out = 1, omitted = 2;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &omitted, 1, &out));
  expectStillUsable();
}

TEST_F(ModelTest, SetOperandValueRejectsUnspecifiedDimensions) {
  addOperand(model(), floatTensor({0, 2}));
  const float value[4] = {};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValue(model(), 0, value, sizeof(value)));
}

TEST_F(ModelTest, SetOperandValueFromMemoryChecksRanges) {
  addFloatTensors(3);
  constexpr size_t kBytes = 4 * sizeof(float);
  SharedMemory memory(2 * kBytes);
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandValueFromMemory(nullptr, 2, memory.get(), 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandValueFromMemory(model(), 2, nullptr, 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValueFromMemory(model(), -1, memory.get(), 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValueFromMemory(model(), 3, memory.get(), 0, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_setOperandValueFromMemory(
                                          model(), 2, memory.get(), 0, 2 * kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_setOperandValueFromMemory(
                                          model(), 2, memory.get(), 2 * kBytes + 1, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_setOperandValueFromMemory(
                                          model(), 2, memory.get(), kBytes + 4, kBytes));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValueFromMemory(
                model(), 2, memory.get(), std::numeric_limits<size_t>::max(), kBytes));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_setOperandValueFromMemory(
                                          model(), 2, memory.get(), kBytes, kBytes));
  expectStillUsable();
}

TEST_F(ModelTest, SetOperandValueFromModelChecksTheReferencedModel) {
  Model unfinished = floorModel(kDims, kDims, /*finish=*/false);
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  ASSERT_OK(ANeuralNetworksModel_addOperand(model(), &modelType));  // operand 0
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksModel_setOperandValueFromModel(model(), 0, unfinished.get()));
  Model value = floorModel();
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandValueFromModel(nullptr, 0, value.get()));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandValueFromModel(model(), 0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValueFromModel(model(), -1, value.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValueFromModel(model(), 1, value.get()));
  addOperand(model(), floatTensor(kDims));  // operand 1, not of type MODEL: finish fails
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandValueFromModel(model(), 1, value.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandValueFromModel(model(), 0, value.get()));
}

TEST_F(ModelTest, SetOperandSymmPerChannelQuantParams) {
  const OperandType perChannel{ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 3}};
  addOperand(model(), perChannel);        // 0
  addOperand(model(), floatTensor({2}));  // 1
  const float scales[] = {0.5f, 0.25f};
  const float badScales[] = {0.5f, 0.0f};
  const ANeuralNetworksSymmPerChannelQuantParams valid = {0, 2, scales};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(nullptr, 0, &valid));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model(), 0, nullptr));
  const ANeuralNetworksSymmPerChannelQuantParams invalid[] = {
      {2, 2, scales},     // channelDim not below the rank
      {0, 1, scales},     // one scale for two channels
      {1, 2, scales},     // two scales for three channels
      {0, 2, badScales},  // a zero scale
      {0, 2, nullptr},    // scales missing
  };
  for (const auto& params : invalid) {
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model(), 0, &params));
  }
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model(), 2, &valid));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model(), 1, &valid));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model(), 0, &valid));
}

TEST_F(ModelTest, AddOperationChecksNullsCodesIndexesAndSignature) {
  addFloatTensors(2);
  addOperand(model(), {ANEURALNETWORKS_INT32, {}});  // 2: a scalar
  const uint32_t in = 0, out = 1, scalar = 2, missing = 3;
  const uint32_t twoInputs[] = {0, 0};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_addOperation(nullptr, ANEURALNETWORKS_FLOOR, 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, nullptr, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(model(), -1, 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(model(), 99999, 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperation(
                                          model(), ANEURALNETWORKS_FLOOR, 1, &missing, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, &missing));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperation(
                                          model(), ANEURALNETWORKS_FLOOR, 2, twoInputs, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &scalar, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, &scalar));
  // Every operand needs a value or a writer at finish.
  const int32_t zero = 0;
  ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), scalar, &zero, sizeof(zero)));
  expectStillUsable();
}

TEST_F(ModelTest, IdentifyInputsAndOutputsChecksIndexesAndRoles) {
  addFloatTensors(2);
  const uint32_t in = 0, out = 1, missing = 2;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_identifyInputsAndOutputs(nullptr, 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, nullptr, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &missing, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, &missing));
  expectStillUsable();
}

// An operand listed twice, in one list or in both, is rejected. The operands
// marked before it stay marked (as in AOSP), so each case has a model of its own.
TEST_F(ModelTest, IdentifyInputsAndOutputsRejectsAnOperandListedTwice) {
  const uint32_t out = 1, both[] = {0, 1}, twice[] = {0, 0};
  struct Lists {
    uint32_t inputCount;
    const uint32_t* inputs;
    uint32_t outputCount;
    const uint32_t* outputs;
  };
  for (const Lists& lists : {Lists{2, both, 1, &out}, Lists{1, both, 2, both},
                             Lists{2, twice, 1, &out}, Lists{1, &out, 1, &out}}) {
    Model fresh = newModel();
    for (int i = 0; i < 2; ++i) addOperand(fresh.get(), floatTensor(kDims));
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksModel_identifyInputsAndOutputs(
                  fresh.get(), lists.inputCount, lists.inputs, lists.outputCount, lists.outputs));
  }
}

TEST_F(ModelTest, RelaxComputation) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_relaxComputationFloat32toFloat16(nullptr, true));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_relaxComputationFloat32toFloat16(model(), true));
  addFloatTensors(2);
  expectStillUsable();
}

TEST_F(ModelTest, ExtensionTypesAndData) {
  int32_t operandType = 0;
  ANeuralNetworksOperationType operationType = 0;
  const char* name = "org.annrt.test_extension";
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getExtensionOperandType(nullptr, name, 0, &operandType));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getExtensionOperandType(model(), nullptr, 0, &operandType));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getExtensionOperandType(model(), name, 0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getExtensionOperationType(nullptr, name, 0, &operationType));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getExtensionOperationType(model(), nullptr, 0, &operationType));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_getExtensionOperationType(model(), name, 0, nullptr));

  addOperand(model(), floatTensor(kDims));  // 0: not an extension operand
  const int32_t data = 42;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandExtensionData(nullptr, 0, &data, sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_setOperandExtensionData(model(), 0, nullptr, sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandExtensionData(model(), 0, &data, sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandExtensionData(model(), 5, &data, sizeof(data)));

  ASSERT_OK(ANeuralNetworksModel_getExtensionOperandType(model(), name, 7, &operandType));
  const ANeuralNetworksOperandType extension = {.type = operandType};
  ASSERT_OK(ANeuralNetworksModel_addOperand(model(), &extension));  // 1
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandExtensionData(model(), 1, &data, sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandExtensionData(model(), 1, nullptr, 0));
}

}  // namespace
}  // namespace annrt::test
