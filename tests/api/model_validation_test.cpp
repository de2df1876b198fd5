// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The model and memory rules of AOSP's runtime that annrt follows, one test
// per rule (docs/validation-rules.md lists them): what a failed finish
// does to a model, which checks happen when a call is made and which only at
// finish, the graph rules of finish, and the rules of ANeuralNetworksMemory_copy.
#include <limits>

#include "test_models.h"

namespace annrt::test {
namespace {

constexpr uint32_t kIn = 0, kOut = 1;

class ModelValidationTest : public ::testing::Test {
 protected:
  void SetUp() override { model_ = newModel(); }
  ANeuralNetworksModel* model() const { return model_.get(); }

  // FLOOR(operand `in`) -> operand `out`, both float32 2x2 operands added here.
  void addFloor(uint32_t in, uint32_t out) {
    ASSERT_EQ(out, in + 1);
    addOperand(model(), floatTensor(kDims));
    addOperand(model(), floatTensor(kDims));
    ASSERT_OK(floor(in, out));
  }
  // FLOOR over existing operands.
  int floor(uint32_t in, uint32_t out) {
    return ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_FLOOR, 1, &in, 1, &out);
  }
  int identify(std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
    // data() of an empty vector may be null, which AOSP rejects.
    inputs.reserve(1);
    outputs.reserve(1);
    return ANeuralNetworksModel_identifyInputsAndOutputs(
        model(), static_cast<uint32_t>(inputs.size()), inputs.data(),
        static_cast<uint32_t>(outputs.size()), outputs.data());
  }
  int finish() { return ANeuralNetworksModel_finish(model()); }
  void expectFinishFails() {
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_finish(model()));
  }

  Model model_;
};

// ---- A model whose finish failed ----

TEST_F(ModelValidationTest, EmptyModelFinishMakesTheModelInvalid) {
  expectFinishFails();
  const OperandType typeOwner = floatTensor(kDims);
  const ANeuralNetworksOperandType type = typeOwner.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksModel_addOperand(model(), &type));
}

// AOSP checks neither the model's state nor the name.
TEST_F(ModelValidationTest, ExtensionTypesCanBeAskedForAtAnyTime) {
  int32_t before = 0, after = 0, unnamed = 0;
  ANeuralNetworksOperationType operation = 0;
  Model finished = floorModel();
  const char* name = "org.annrt.test_extension";
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_getExtensionOperandType(finished.get(), name, 3, &after));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_getExtensionOperationType(finished.get(), name, 4, &operation));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_getExtensionOperandType(model(), name, 3, &before));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_getExtensionOperandType(model(), "", 3, &unnamed));
  EXPECT_GE(after, 1 << 16);
  EXPECT_EQ(after & 0xffff, 3);
  EXPECT_EQ(operation & 0xffff, 4);
  EXPECT_NE(unnamed >> 16, before >> 16);
}

// ---- addOperand ----

TEST_F(ModelValidationTest, AddOperandRejectsByteSizesPast32Bits) {
  const std::vector<OperandType> tooLarge = {
      floatTensor({5, 4, 4, 786433, 5, 3, 16777216, 4, 5}),  // AOSP's own case
      floatTensor({1u << 30}),                               // 2^32 bytes
      floatTensor({0, 1u << 30}),                            // the known dims alone
      {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {65536, 65536}, 1.0f, 0},
  };
  for (const OperandType& type : tooLarge) {
    const ANeuralNetworksOperandType t = type.get();
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperand(model(), &t));
  }
  const std::vector<OperandType> largest = {
      floatTensor({(1u << 30) - 1}),
      {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {65536, 65535}, 1.0f, 0},
  };
  for (const OperandType& type : largest) {
    const ANeuralNetworksOperandType t = type.get();
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_addOperand(model(), &t));
  }
}

// AOSP only asks for scale > 0, and leaves a TENSOR_INT32 scale to finish.
TEST_F(ModelValidationTest, AddOperandAcceptsInfiniteScalesAndDefersInt32Scales) {
  const float infinity = std::numeric_limits<float>::infinity();
  const OperandType quant{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, kDims, infinity, 0};
  const ANeuralNetworksOperandType q = quant.get();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_addOperand(model(), &q));
  addFloor(1, 2);
  const OperandType int32{ANEURALNETWORKS_TENSOR_INT32, kDims, -1.0f, 0};
  const ANeuralNetworksOperandType i = int32.get();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_addOperand(model(), &i));  // 3
  ASSERT_OK(identify({0, 1, 3}, {2}));
  expectFinishFails();
}

TEST_F(ModelValidationTest, AddOperandRejectsAnUnregisteredExtensionType) {
  const ANeuralNetworksOperandType unregistered = {.type = (5 << 16) | 1};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperand(model(), &unregistered));
}

TEST_F(ModelValidationTest, AddOperandChecksTheParamsOfEachQuantizedType) {
  const std::vector<OperandType> invalid = {
      {ANEURALNETWORKS_TENSOR_QUANT8_SYMM, kDims, 1.0f, 1},
      {ANEURALNETWORKS_TENSOR_QUANT8_SYMM, kDims, 0.0f, 0},
      {ANEURALNETWORKS_TENSOR_QUANT16_SYMM, kDims, 1.0f, 1},
      {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, kDims, 1.0f, 65536},
      {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, kDims, 1.0f, -1},
      {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, kDims, 1.0f, 0},
      {ANEURALNETWORKS_INT32, {}, 0.0f, 1},
  };
  for (const OperandType& type : invalid) {
    const ANeuralNetworksOperandType t = type.get();
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperand(model(), &t));
  }
  // OEM types keep whatever quantization they are given.
  const std::vector<OperandType> valid = {
      {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, kDims, 1.0f, 65535},
      {ANEURALNETWORKS_TENSOR_OEM_BYTE, {4}, 2.0f, 7},
      {ANEURALNETWORKS_OEM_SCALAR, {}, 2.0f, 7},
  };
  for (const OperandType& type : valid) {
    const ANeuralNetworksOperandType t = type.get();
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_addOperand(model(), &t));
  }
}

// ---- Values ----

// AOSP does not check the operand's role when a value is set: finish fails.
TEST_F(ModelValidationTest, ValueOnAModelInputIsAcceptedAndFinishFails) {
  addFloor(0, 1);
  ASSERT_OK(identify({kIn}, {kOut}));
  const float value[4] = {};
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandValue(model(), kIn, value, sizeof(value)));
  expectFinishFails();
}

TEST_F(ModelValidationTest, MemoryValueOnAModelOutputIsAcceptedAndFinishFails) {
  addFloor(0, 1);
  ASSERT_OK(identify({kIn}, {kOut}));
  SharedMemory memory(sizeof(kInput));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_setOperandValueFromMemory(
                                          model(), kOut, memory.get(), 0, sizeof(kInput)));
  expectFinishFails();
}

// An OEM scalar takes any length up to 2^32 - 1 bytes.
TEST_F(ModelValidationTest, OemScalarValuesTakeAnyLengthBelow4GiB) {
  addOperand(model(), {ANEURALNETWORKS_OEM_SCALAR, {}});
  const char buffer[20] = {};
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandValue(model(), 0, buffer, sizeof(buffer)));
  const size_t tooLong = size_t{1} << 32;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandValue(model(), 0, buffer, tooLong));
}

// Tensors need known dims; the range may not be empty at offset 0. AOSP sizes
// a MODEL operand's value (then rejected at finish) and an OEM scalar's, from a
// memory, at 0 bytes.
TEST_F(ModelValidationTest, MemoryValueSizesAndRanges) {
  addOperand(model(), floatTensor({2, 0}));  // 0
  addOperand(model(), floatTensor({}));      // 1
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  ASSERT_OK(ANeuralNetworksModel_addOperand(model(), &modelType));  // 2
  addOperand(model(), {ANEURALNETWORKS_OEM_SCALAR, {}});            // 3
  SharedMemory memory(64);
  struct Case {
    int32_t operand;
    size_t offset, length;
    int expected;
  };
  for (const Case& c :
       {Case{0, 0, 16, ANEURALNETWORKS_BAD_DATA}, Case{1, 0, 16, ANEURALNETWORKS_BAD_DATA},
        Case{2, 0, 0, ANEURALNETWORKS_BAD_DATA}, Case{2, 4, 0, ANEURALNETWORKS_NO_ERROR},
        Case{3, 4, 1, ANEURALNETWORKS_BAD_DATA}, Case{3, 4, 0, ANEURALNETWORKS_NO_ERROR}}) {
    SCOPED_TRACE(::testing::Message() << "operand " << c.operand << " offset " << c.offset);
    EXPECT_NN(c.expected, ANeuralNetworksModel_setOperandValueFromMemory(
                              model(), c.operand, memory.get(), c.offset, c.length));
  }
}

// A memory mapped without PROT_READ cannot be read for a constant.
TEST_F(ModelValidationTest, MemoryValueNeedsAReadableMemory) {
  addOperand(model(), floatTensor(kDims));
  SharedMemory backing(sizeof(kInput));
  for (int protect : {PROT_NONE, PROT_WRITE}) {
    ANeuralNetworksMemory* raw = nullptr;
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksMemory_createFromFd(sizeof(kInput), protect, backing.fd(), 0, &raw));
    Memory memory(raw);
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_setOperandValueFromMemory(
                                            model(), 0, memory.get(), 0, sizeof(kInput)));
  }
}

// AOSP checks the operand's type at finish: a model on an operand that is not
// of type MODEL, and a MODEL operand without one, fail there.
TEST_F(ModelValidationTest, ModelValueOnATensorIsAcceptedAndFinishFails) {
  addFloor(0, 1);
  addOperand(model(), floatTensor(kDims));  // 2
  Model value = floorModel();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_setOperandValueFromModel(model(), 2, value.get()));
  ASSERT_OK(identify({kIn}, {kOut}));
  expectFinishFails();
}

TEST_F(ModelValidationTest, ModelOperandWithoutAModelFailsFinish) {
  addFloor(0, 1);
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  ASSERT_OK(ANeuralNetworksModel_addOperand(model(), &modelType));  // 2
  Model value = floorModel();
  ASSERT_OK(ANeuralNetworksModel_setOperandValueFromModel(model(), 2, value.get()));
  // Omitting the value replaces the model.
  ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 2, nullptr, 0));
  ASSERT_OK(identify({kIn}, {kOut}));
  expectFinishFails();
}

// The last value given to an operand is the one it keeps: a constant given
// after a model replaces it.
TEST_F(ModelValidationTest, AValueReplacesAModel) {
  addOperand(model(), floatTensor(kDims));           // 0: input
  addOperand(model(), floatTensor(kDims));           // 1: the constant
  addOperand(model(), {ANEURALNETWORKS_INT32, {}});  // 2: activation
  addOperand(model(), floatTensor(kDims));           // 3: output
  // The activation first, so that the constant's bytes are not the first ones.
  const int32_t none = ANEURALNETWORKS_FUSED_NONE;
  ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 2, &none, sizeof(none)));
  Model value = floorModel();
  ASSERT_OK(ANeuralNetworksModel_setOperandValueFromModel(model(), 1, value.get()));
  ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 1, kInput.data(), sizeof(kInput)));
  const uint32_t in[] = {0, 1, 2}, out = 3;
  ASSERT_OK(ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_ADD, 3, in, 1, &out));
  ASSERT_OK(identify({0}, {3}));
  ASSERT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_finish(model()));
  Compilation compilation = compile(model());
  Execution execution = newExecution(compilation.get());
  std::array<float, 4> sum{};
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, kInput.data(),
                                              sizeof(kInput)));
  ASSERT_OK(
      ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, sum.data(), sizeof(sum)));
  ASSERT_OK(ANeuralNetworksExecution_compute(execution.get()));
  for (size_t i = 0; i < sum.size(); ++i) EXPECT_EQ(sum[i], 2 * kInput[i]);
}

TEST_F(ModelValidationTest, ModelOperandWithAModelFinishes) {
  addFloor(0, 1);
  const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
  ASSERT_OK(ANeuralNetworksModel_addOperand(model(), &modelType));  // 2, unused
  Model value = floorModel();
  ASSERT_OK(ANeuralNetworksModel_setOperandValueFromModel(model(), 2, value.get()));
  ASSERT_OK(identify({kIn}, {kOut}));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_finish(model()));
}

// ---- Per-channel quantization and extension data ----

// The channel dimension must be known; a scale of +inf is positive, as AOSP
// checks it.
TEST_F(ModelValidationTest, PerChannelParamsNeedAKnownChannelDimension) {
  addOperand(model(), {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {0, 2}});
  addOperand(model(), {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {}});
  const float scales[] = {0.5f, std::numeric_limits<float>::infinity()};
  struct Case {
    int32_t operand;
    ANeuralNetworksSymmPerChannelQuantParams params;
    int expected;
  };
  for (const Case& c : {Case{0, {0, 0, scales}, ANEURALNETWORKS_BAD_DATA},
                        Case{1, {0, 2, scales}, ANEURALNETWORKS_BAD_DATA},
                        Case{0, {1, 2, scales}, ANEURALNETWORKS_NO_ERROR}}) {
    EXPECT_NN(c.expected, ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
                              model(), c.operand, &c.params));
  }
}

TEST_F(ModelValidationTest, FinishNeedsPerChannelParams) {
  addFloor(0, 1);
  addOperand(model(), {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {2}});  // 2
  const int8_t value[2] = {1, 2};
  ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 2, value, sizeof(value)));
  ASSERT_OK(identify({kIn}, {kOut}));
  expectFinishFails();
}

TEST_F(ModelValidationTest, ExtensionDataNeedsALengthWithData) {
  int32_t type = 0;
  ASSERT_OK(ANeuralNetworksModel_getExtensionOperandType(model(), "org.annrt.test", 1, &type));
  const ANeuralNetworksOperandType extension = {.type = type};
  ASSERT_OK(ANeuralNetworksModel_addOperand(model(), &extension));
  const int32_t data = 42;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_setOperandExtensionData(model(), 0, &data, 0));
}

// ---- identifyInputsAndOutputs ----

TEST_F(ModelValidationTest, IdentifyRejectsNullListsOfNoOperands) {
  addFloor(0, 1);
  const uint32_t in = kIn, out = kOut;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 0, nullptr, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 0, nullptr));
}

// Indexes are checked before any operand is marked: the call can be retried.
TEST_F(ModelValidationTest, IdentifyWithAnIndexOutOfRangeMarksNothing) {
  addFloor(0, 1);
  const uint32_t in = kIn, outs[] = {kOut, 7};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 2, outs));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, outs));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_finish(model()));
}

// As AOSP, operands stay marked: the same operand cannot be identified again.
TEST_F(ModelValidationTest, SecondIdentifyCannotReuseAnInputOrOutput) {
  addFloor(0, 1);
  const uint32_t in = kIn, out = kOut;
  ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, &out));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, &out));
}

// The operands a failed call marked before the rejected one stay marked.
TEST_F(ModelValidationTest, FailedIdentifyKeepsWhatItMarked) {
  addFloor(0, 1);
  const uint32_t in = kIn, outs[] = {kOut, kIn};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 2, outs));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, outs));
  expectFinishFails();
}

// Operands marked by an earlier call but not listed by the last make finish fail.
TEST_F(ModelValidationTest, SecondIdentifyOfOtherOperandsMakesFinishFail) {
  addFloor(0, 1);
  addFloor(2, 3);
  ASSERT_OK(identify({0}, {1}));
  const uint32_t in = 2, out = 3;
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &in, 1, &out));
  expectFinishFails();
}

// ---- finish: the graph ----

TEST_F(ModelValidationTest, FinishRejectsATemporaryNothingWrites) {
  addFloor(0, 1);
  addOperand(model(), floatTensor(kDims));  // 2: neither written nor read
  ASSERT_OK(identify({kIn}, {kOut}));
  expectFinishFails();
}

TEST_F(ModelValidationTest, FinishRejectsAnOperationReadingAnUnwrittenTemporary) {
  addFloor(0, 1);
  addFloor(2, 3);  // 2 is never written
  ASSERT_OK(identify({0}, {1, 3}));
  expectFinishFails();
}

TEST_F(ModelValidationTest, FinishRejectsCycles) {
  addFloor(0, 1);
  addOperand(model(), floatTensor(kDims));  // 2
  addOperand(model(), floatTensor(kDims));  // 3
  ASSERT_OK(floor(3, 2));
  ASSERT_OK(floor(2, 3));
  ASSERT_OK(identify({kIn}, {kOut}));
  expectFinishFails();
}

TEST_F(ModelValidationTest, FinishRejectsAnOperandWrittenTwice) {
  addFloor(0, 1);
  ASSERT_OK(floor(0, 1));
  ASSERT_OK(identify({kIn}, {kOut}));
  expectFinishFails();
}

// Operations write temporaries and model outputs only.
TEST_F(ModelValidationTest, FinishRejectsAnOperationWritingAConstantOrAnInput) {
  for (bool constant : {true, false}) {
    model_ = newModel();
    addFloor(0, 1);
    addOperand(model(), floatTensor(kDims));  // 2
    ASSERT_OK(floor(0, 2));
    if (constant) {
      ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 2, kInput.data(), sizeof(kInput)));
    }
    ASSERT_OK(
        identify(constant ? std::vector<uint32_t>{kIn} : std::vector<uint32_t>{kIn, 2}, {kOut}));
    expectFinishFails();
  }
}

TEST_F(ModelValidationTest, FinishRejectsAModelWithoutOperations) {
  addOperand(model(), floatTensor(kDims));
  ASSERT_OK(identify({0}, {}));
  expectFinishFails();
}

// NNAPI does not require operations in execution order.
TEST_F(ModelValidationTest, FinishSortsOperations) {
  addOperand(model(), floatTensor(kDims));  // 0: input
  addOperand(model(), floatTensor(kDims));  // 1: output
  addOperand(model(), floatTensor(kDims));  // 2
  ASSERT_OK(floor(2, 1));
  ASSERT_OK(floor(0, 2));
  ASSERT_OK(identify({kIn}, {kOut}));
  ASSERT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_finish(model()));
  Compilation compilation = compile(model());
  expectFloors(newExecution(compilation.get()).get());
}

// AOSP accepts model inputs nothing reads, and models without outputs.
TEST_F(ModelValidationTest, FinishAcceptsUnusedInputsAndNoOutputs) {
  addFloor(0, 1);
  addOperand(model(), floatTensor(kDims));  // 2: an input nothing reads
  ASSERT_OK(identify({kIn, 2}, {kOut}));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_finish(model()));
  model_ = newModel();
  addFloor(0, 1);
  const uint32_t none = 0;
  ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model(), 1, &kIn, 0, &none));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_finish(model()));
}

// Operations are validated again at finish: per-channel parameters set after
// CONV_2D was added must suit it (quantized along dimension 0).
TEST_F(ModelValidationTest, FinishValidatesOperationsAgain) {
  for (uint32_t channelDim : {3u, 0u}) {
    model_ = newModel();
    const OperandType quant{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1, 2, 2, 1}, 1.0f, 0};
    addOperand(model(), quant);                                                           // 0
    addOperand(model(), {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {1, 1, 1, 1}});  // 1
    addOperand(model(), {ANEURALNETWORKS_TENSOR_INT32, {1}});                             // 2
    for (int i = 0; i < 4; ++i) addOperand(model(), {ANEURALNETWORKS_INT32, {}});         // 3-6
    addOperand(model(), quant);                                                           // 7
    const int8_t filter = 1;
    const int32_t bias = 0, scalars[] = {ANEURALNETWORKS_PADDING_SAME, 1, 1, 0};
    ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 1, &filter, sizeof(filter)));
    ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 2, &bias, sizeof(bias)));
    for (int i = 0; i < 4; ++i) {
      ASSERT_OK(ANeuralNetworksModel_setOperandValue(model(), 3 + i, &scalars[i], sizeof(int32_t)));
    }
    const uint32_t in[] = {0, 1, 2, 3, 4, 5, 6}, out = 7;
    ASSERT_OK(ANeuralNetworksModel_addOperation(model(), ANEURALNETWORKS_CONV_2D, 7, in, 1, &out));
    const float scale = 0.5f;
    const ANeuralNetworksSymmPerChannelQuantParams params = {channelDim, 1, &scale};
    ASSERT_OK(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model(), 1, &params));
    ASSERT_OK(identify({0}, {7}));
    EXPECT_NN(channelDim == 0 ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksModel_finish(model()));
  }
}

// ---- IF and WHILE ----

// Models for control flow: `then` and `body` are FLOOR of float32 [1], `less`
// is x < 0 on a float32 [1] (TENSOR_BOOL8 [1]).
class ControlFlowTest : public ModelValidationTest {
 protected:
  void SetUp() override {
    ModelValidationTest::SetUp();
    floor_ = floorModel({1}, {1});
    less_ = newModel();
    addOperand(less_.get(), floatTensor({1}));
    addOperand(less_.get(), floatTensor({1}));
    addOperand(less_.get(), {ANEURALNETWORKS_TENSOR_BOOL8, {1}});
    const float zero = 0.0f;
    const uint32_t in[] = {0, 1}, out = 2;
    ASSERT_OK(ANeuralNetworksModel_setOperandValue(less_.get(), 1, &zero, sizeof(zero)));
    ASSERT_OK(ANeuralNetworksModel_addOperation(less_.get(), ANEURALNETWORKS_LESS, 2, in, 1, &out));
    ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(less_.get(), 1, in, 1, &out));
    ASSERT_OK(ANeuralNetworksModel_finish(less_.get()));
  }
  // Adds an operand of type MODEL holding `value`; returns its index.
  uint32_t addModel(ANeuralNetworksModel* value) {
    const ANeuralNetworksOperandType modelType = {.type = ANEURALNETWORKS_MODEL};
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model(), &modelType), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(model(), next_, value),
              ANEURALNETWORKS_NO_ERROR);
    return next_++;
  }
  uint32_t add(const OperandType& type) {
    addOperand(model(), type);
    return next_++;
  }
  int addOperation(int32_t type, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
    return ANeuralNetworksModel_addOperation(model(), type, static_cast<uint32_t>(inputs.size()),
                                             inputs.data(), static_cast<uint32_t>(outputs.size()),
                                             outputs.data());
  }

  Model floor_, less_;
  uint32_t next_ = 0;
};

TEST_F(ControlFlowTest, IfNeedsASingletonBoolCondition) {
  const uint32_t branch = addModel(floor_.get());
  const uint32_t x = add(floatTensor({1})), y = add(floatTensor({1}));
  for (const std::vector<uint32_t>& dims : {std::vector<uint32_t>{}, {2}, {1, 1}}) {
    const uint32_t condition = add({ANEURALNETWORKS_TENSOR_BOOL8, dims});
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksModel_addOperation(
                  model(), ANEURALNETWORKS_IF, 4,
                  std::vector<uint32_t>{condition, branch, branch, x}.data(), 1, &y));
  }
  const uint32_t condition = add({ANEURALNETWORKS_TENSOR_BOOL8, {1}});
  EXPECT_EQ(addOperation(ANEURALNETWORKS_IF, {condition, branch, branch, x}, {y}),
            ANEURALNETWORKS_NO_ERROR);
}

// Operands passed to a branch must agree with its inputs and outputs in type,
// quantization and known dims.
TEST_F(ControlFlowTest, IfOperandsMustBeCompatibleWithTheBranches) {
  const uint32_t branch = addModel(floor_.get());
  const uint32_t condition = add({ANEURALNETWORKS_TENSOR_BOOL8, {1}});
  const uint32_t x = add(floatTensor({1})), y = add(floatTensor({1}));
  const uint32_t wide = add(floatTensor({2})), unknown = add(floatTensor({0}));
  const uint32_t half = add({ANEURALNETWORKS_TENSOR_FLOAT16, {1}});
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(
                model(), ANEURALNETWORKS_IF, 4,
                std::vector<uint32_t>{condition, branch, branch, wide}.data(), 1, &y));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(
                model(), ANEURALNETWORKS_IF, 4,
                std::vector<uint32_t>{condition, branch, branch, x}.data(), 1, &half));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(
                model(), ANEURALNETWORKS_IF, 3,
                std::vector<uint32_t>{condition, branch, branch}.data(), 1, &y));
  EXPECT_EQ(addOperation(ANEURALNETWORKS_IF, {condition, branch, branch, unknown}, {y}),
            ANEURALNETWORKS_NO_ERROR);
}

TEST_F(ControlFlowTest, WhileNeedsASingletonBoolCondition) {
  const uint32_t condition = addModel(less_.get()), body = addModel(floor_.get());
  const uint32_t notBool = addModel(floor_.get());
  const uint32_t x = add(floatTensor({1})), y = add(floatTensor({1}));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperation(
                                          model(), ANEURALNETWORKS_WHILE, 3,
                                          std::vector<uint32_t>{notBool, body, x}.data(), 1, &y));
  EXPECT_EQ(addOperation(ANEURALNETWORKS_WHILE, {condition, body, x}, {y}),
            ANEURALNETWORKS_NO_ERROR);
}

// A model of no inputs: `operation` of constants `values` (float32 [1]) into
// an operand of `output`, its output unless `outputs` is 0.
Model constantModel(int32_t operation, const std::vector<float>& values, const OperandType& output,
                    uint32_t outputs = 1) {
  Model model = newModel();
  std::vector<uint32_t> inputs;
  for (const float& value : values) {
    inputs.push_back(static_cast<uint32_t>(inputs.size()));
    addOperand(model.get(), floatTensor({1}));
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(model.get(), static_cast<int32_t>(inputs.back()),
                                                   &value, sizeof(value)),
              ANEURALNETWORKS_NO_ERROR);
  }
  addOperand(model.get(), output);
  const auto out = static_cast<uint32_t>(inputs.size());
  EXPECT_EQ(
      ANeuralNetworksModel_addOperation(
          model.get(), operation, static_cast<uint32_t>(inputs.size()), inputs.data(), 1, &out),
      ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model.get(), 0, &out, outputs, &out),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(model.get()), ANEURALNETWORKS_NO_ERROR);
  return model;
}

// IF may pass no operand to its branches; a WHILE loop needs one; both need
// an output.
TEST_F(ControlFlowTest, ControlFlowNeedsThreeInputsAndAnOutput) {
  Model never =
      constantModel(ANEURALNETWORKS_LESS, {1.0f, 0.0f}, {ANEURALNETWORKS_TENSOR_BOOL8, {1}});
  Model one = constantModel(ANEURALNETWORKS_FLOOR, {1.5f}, floatTensor({1}));
  const uint32_t condition = addModel(never.get()), body = addModel(one.get());
  const uint32_t flag = add({ANEURALNETWORKS_TENSOR_BOOL8, {1}});
  const uint32_t y = add(floatTensor({1}));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperation(
                                          model(), ANEURALNETWORKS_WHILE, 2,
                                          std::vector<uint32_t>{condition, body}.data(), 1, &y));
  EXPECT_EQ(addOperation(ANEURALNETWORKS_IF, {flag, body, body}, {y}), ANEURALNETWORKS_NO_ERROR);
  Model silent = constantModel(ANEURALNETWORKS_FLOOR, {1.5f}, floatTensor({1}), /*outputs=*/0);
  const uint32_t noOutputs = addModel(silent.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksModel_addOperation(
                model(), ANEURALNETWORKS_IF, 3,
                std::vector<uint32_t>{flag, noOutputs, noOutputs}.data(), 0, &y));
}

// A WHILE body's outputs become its inputs: it needs as many inputs, of the
// same kinds.
TEST_F(ControlFlowTest, WhileBodyOutputsMustFeedItsInputs) {
  Model twoOutputs = newModel();  // x -> (FLOOR(x), FLOOR(x))
  for (int i = 0; i < 3; ++i) addOperand(twoOutputs.get(), floatTensor({1}));
  const uint32_t in = 0, outs[] = {1, 2};
  ASSERT_OK(ANeuralNetworksModel_addOperation(twoOutputs.get(), ANEURALNETWORKS_FLOOR, 1, &in, 1,
                                              &outs[0]));
  ASSERT_OK(ANeuralNetworksModel_addOperation(twoOutputs.get(), ANEURALNETWORKS_FLOOR, 1, &in, 1,
                                              &outs[1]));
  ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(twoOutputs.get(), 1, &in, 2, outs));
  ASSERT_OK(ANeuralNetworksModel_finish(twoOutputs.get()));
  const uint32_t condition = addModel(less_.get()), body = addModel(twoOutputs.get());
  const uint32_t x = add(floatTensor({1})), y = add(floatTensor({1}));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_addOperation(
                                          model(), ANEURALNETWORKS_WHILE, 3,
                                          std::vector<uint32_t>{condition, body, x}.data(), 1, &y));
}

// Finish checks control flow again: a branch replaced after the operation was
// added must still fit it.
TEST_F(ControlFlowTest, FinishRechecksReplacedBranches) {
  const uint32_t branch = addModel(floor_.get());
  const uint32_t condition = add({ANEURALNETWORKS_TENSOR_BOOL8, {1}});
  const uint32_t x = add(floatTensor({1})), y = add(floatTensor({1}));
  ASSERT_OK(addOperation(ANEURALNETWORKS_IF, {condition, branch, branch, x}, {y}));
  Model wide = floorModel({2}, {2});
  ASSERT_OK(ANeuralNetworksModel_setOperandValueFromModel(model(), branch, wide.get()));
  ASSERT_OK(identify({condition, x}, {y}));
  expectFinishFails();
}

}  // namespace
}  // namespace annrt::test
