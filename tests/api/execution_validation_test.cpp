// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// AOSP's validation of the Device, Compilation, Execution, Burst and Event
// entry points, rule by rule (docs/validation-rules.md): each test
// fails if annrt were weaker than AOSP's runtime, or stricter where AOSP
// accepts.
#include <cstdint>
#include <limits>

#include "test_models.h"

namespace annrt::test {
namespace {

using ExecutionValidationTest = FloorTest;

// ---- Operand types given with an argument (AOSP's checkDimensionInfo) ----

// RELU over a quant8 tensor whose batch is left to execution time, as
// PyTorch's NNAPI backend compiles for flexible input shapes.
class QuantizedFlexibleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const OperandType tensor{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {0, 4}, 0.0625f, 128};
    model_ = unaryModel(ANEURALNETWORKS_RELU, tensor, tensor);
    compilation_ = compile(model_.get());
  }
  Model model_;
  Compilation compilation_;
};

// AOSP compares neither the type code nor the quantization with the model's
// operand: only the rank and the dims the model fixed.
TEST_F(QuantizedFlexibleTest, OtherScaleAndZeroPointAreAccepted) {
  Execution execution = newExecution(compilation_.get());
  const OperandType givenOwner{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1, 4}, 0.03f, 127};
  const ANeuralNetworksOperandType given = givenOwner.get();
  const uint8_t input[4] = {100, 128, 200, 50};
  uint8_t output[4] = {};
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setInput(execution.get(), 0, &given, input, sizeof(input)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutput(execution.get(), 0, &given, output, sizeof(output)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution.get()));
  // The model's quantization is what the computation uses (zero point 128).
  const uint8_t expected[4] = {128, 128, 200, 128};
  EXPECT_TRUE(std::equal(output, output + 4, expected));
}

TEST_F(QuantizedFlexibleTest, TheGivenTypeMustBeValidOnItsOwn) {
  Execution execution = newExecution(compilation_.get());
  const uint8_t input[4] = {};
  for (const OperandType& bad :
       {OperandType{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1, 4}, 0.0f, 0},
        OperandType{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1, 4}, 1.0f, 256},
        OperandType{ANEURALNETWORKS_TENSOR_FLOAT32, {1, 4}, 1.0f, 0}, OperandType{12345, {1, 4}}}) {
    const ANeuralNetworksOperandType type = bad.get();
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setInput(execution.get(), 0, &type, input, sizeof(input)));
  }
}

TEST_F(ExecutionValidationTest, AnotherTypeCodeIsAcceptedAndTheModelsTypeSizesTheData) {
  const OperandType halfOwner{ANEURALNETWORKS_TENSOR_FLOAT16, kDims};
  const ANeuralNetworksOperandType half = halfOwner.get();
  ANeuralNetworksExecution* e = execution_.get();
  // 8 bytes would be the size of float16 data: the model's float32 needs 16.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInput(e, 0, &half, input_.data(), 8));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setInput(e, 0, &half, input_.data(), sizeof(input_)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutput(e, 0, &half, output_.data(), sizeof(output_)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(e));
  expectFloored();
}

// A type without dimensions does not leave them to the model: AOSP compares
// its rank (0) with the model's.
TEST_F(ExecutionValidationTest, ATypeWithoutDimsAgainstAModelRankIsBadData) {
  const ANeuralNetworksOperandType rankless = {.type = ANEURALNETWORKS_TENSOR_FLOAT32};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setOutput(execution_.get(), 0, &rankless, output_.data(), 16));
}

// Known dims of more than 2^32 - 1 bytes are refused even where an unknown
// dim leaves the length unchecked.
TEST_F(ExecutionValidationTest, DimsWhoseByteSizeOverflowsUint32AreBadData) {
  Model model = floorModel({0, 0, 0}, {0, 0, 0});
  Compilation compilation = compile(model.get());
  Execution execution = newExecution(compilation.get());
  const OperandType hugeOwner = floatTensor({0x10000, 0x4000, 0});  // 2^32 bytes known
  const OperandType largeOwner = floatTensor({0x10000, 0x3FFF, 0});
  const ANeuralNetworksOperandType huge = hugeOwner.get(), large = largeOwner.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setOutput(execution.get(), 0, &huge, output_.data(), 16));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutput(execution.get(), 0, &large, output_.data(), 16));
}

// ---- Lengths and buffers (AOSP's ModelArgumentInfo::createFromPointer) ----

// FLOOR of a {batch, 2} tensor, the batch given at execution time.
class FlexibleBatchTest : public FloorTest {
 protected:
  void SetUp() override {
    model_ = floorModel({0, 2}, {0, 2});
    compilation_ = compile(model_.get());
    execution_ = newExecution(compilation_.get());
  }
};

TEST_F(FlexibleBatchTest, LengthsPast32BitsAreBadData) {
  const size_t tooLong = size_t{1} << 32;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setOutput(
                                          execution_.get(), 0, nullptr, output_.data(), tooLong));
}

// With dims unknown the length is unchecked, but a buffer is null exactly
// when its length is 0.
TEST_F(FlexibleBatchTest, ABufferWithLengthZeroIsBadData) {
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setOutput(execution_.get(), 0, nullptr, output_.data(), 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutput(execution_.get(), 0, nullptr, output_.data(), 4));
}

// An omitted argument (null, 0) needs no dims, even for an input.
TEST_F(FlexibleBatchTest, OmittedArgumentsNeedNoDims) {
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setInput(execution_.get(), 0, nullptr, nullptr, 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutput(execution_.get(), 0, nullptr, nullptr, 0));
}

// ---- Memories as arguments (AOSP's memory validators) ----

// An fd memory cannot imply its size (offset 0, length 0), even where the
// dims leave the length unchecked.
TEST_F(FlexibleBatchTest, AnFdMemoryNeedsARange) {
  SharedMemory memory(64);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setOutputFromMemory(
                                          execution_.get(), 0, nullptr, memory.get(), 0, 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setOutputFromMemory(
                                          execution_.get(), 0, nullptr, memory.get(), 0, 64));
}

// An input from memory needs its dims like one from a pointer.
TEST_F(FlexibleBatchTest, AMemoryInputNeedsItsDims) {
  SharedMemory memory(16);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setInputFromMemory(
                                          execution_.get(), 0, nullptr, memory.get(), 0, 16));
  const OperandType typeOwner = floatTensor({2, 2});
  const ANeuralNetworksOperandType type = typeOwner.get();
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setInputFromMemory(
                                          execution_.get(), 0, &type, memory.get(), 0, 16));
}

// Dims given with a device memory must agree with those it was described with.
TEST_F(ExecutionValidationTest, DeviceMemoryDimsMustAgreeWithTheGivenType) {
  Model model = floorModel({0, 0}, {0, 0});
  Compilation compilation = compile(model.get());
  ANeuralNetworksMemoryDesc* rawDesc = nullptr;
  ASSERT_OK(ANeuralNetworksMemoryDesc_create(&rawDesc));
  MemoryDesc desc(rawDesc);
  ASSERT_OK(ANeuralNetworksMemoryDesc_addOutputRole(desc.get(), compilation.get(), 0, 1.0f));
  const uint32_t described[] = {2, 2};
  ASSERT_OK(ANeuralNetworksMemoryDesc_setDimensions(desc.get(), 2, described));
  ASSERT_OK(ANeuralNetworksMemoryDesc_finish(desc.get()));
  ANeuralNetworksMemory* raw = nullptr;
  ASSERT_OK(ANeuralNetworksMemory_createFromDesc(desc.get(), &raw));
  Memory memory(raw);
  Execution execution = newExecution(compilation.get());
  const OperandType otherOwner = floatTensor({3, 2}), partialOwner = floatTensor({0, 2});
  const ANeuralNetworksOperandType other = otherOwner.get(), partial = partialOwner.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setOutputFromMemory(
                                          execution.get(), 0, &other, memory.get(), 0, 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setOutputFromMemory(
                                          execution.get(), 0, &partial, memory.get(), 0, 0));
}

// At each computation the dims of an input must be those its device memory
// holds now (AOSP's validateInputDimensions): OP_FAILED otherwise.
TEST_F(ExecutionValidationTest, DeviceMemoryInputDimsAreCheckedAtCompute) {
  Model model = floorModel({0, 0}, {0, 0});
  Compilation compilation = compile(model.get());
  Memory memory = deviceMemory({{compilation.get(), true}, {compilation.get(), false}});
  const OperandType fourOwner = floatTensor({2, 2}), flatOwner = floatTensor({1, 4});
  const ANeuralNetworksOperandType four = fourOwner.get(), flat = flatOwner.get();
  // Write {2, 2} into the memory.
  Execution writer = newExecution(compilation.get());
  ASSERT_OK(ANeuralNetworksExecution_setInput(writer.get(), 0, &four, kInput.data(), 16));
  ASSERT_OK(
      ANeuralNetworksExecution_setOutputFromMemory(writer.get(), 0, nullptr, memory.get(), 0, 0));
  ASSERT_OK(ANeuralNetworksExecution_compute(writer.get()));
  for (const auto* type : {&flat, &four}) {
    Execution reader = newExecution(compilation.get());
    ASSERT_OK(
        ANeuralNetworksExecution_setInputFromMemory(reader.get(), 0, type, memory.get(), 0, 0));
    ASSERT_OK(ANeuralNetworksExecution_setOutput(reader.get(), 0, nullptr, output_.data(), 16));
    EXPECT_NN(type == &flat ? ANEURALNETWORKS_OP_FAILED : ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksExecution_compute(reader.get()));
  }
  expectFloored();
}

// ---- Order of the checks where AOSP checks the compilation first ----

TEST_F(ExecutionValidationTest, SingleDeviceChecksComeBeforeTheStateCheck) {
  bind(execution_.get());
  ASSERT_OK(ANeuralNetworksExecution_compute(execution_.get()));
  ANeuralNetworksExecution* e = execution_.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setMeasureTiming(e, true));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setTimeout(e, 1000));
  const int32_t data = 1;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_addExtensionAttribute(e, "org.annrt.none", 0, &data, 4));
}

// ---- Computations ----

// A fenced computation refused for its outputs completes the execution.
TEST_F(ExecutionValidationTest, ARefusedFencedComputationCompletesTheExecution) {
  Model model = floorModel(kDims, {0, 0});
  Compilation compilation = compile(model.get());
  Execution execution = newExecution(compilation.get());
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, input_.data(), 16));
  ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output_.data(), 16));
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_startComputeWithDependencies(
                                          execution.get(), nullptr, 0, 0, &event));
  EXPECT_EQ(event, nullptr);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksExecution_compute(execution.get()));
}

// A reusable execution computes again after a refused computation.
TEST_F(ExecutionValidationTest, AReusableExecutionComputesAfterARefusal) {
  ANeuralNetworksExecution* e = execution_.get();
  ASSERT_OK(ANeuralNetworksExecution_setReusable(e, true));
  ASSERT_OK(ANeuralNetworksExecution_setInput(e, 0, nullptr, input_.data(), 16));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_compute(e));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_setOutput(e, 0, nullptr, output_.data(), 16));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_compute(e));
}

// RANK of a {2, 2} tensor: its output is an INT32 scalar.
Model rankModel() {
  return unaryModel(ANEURALNETWORKS_RANK, floatTensor(kDims), {ANEURALNETWORKS_INT32, {}});
}

// A scalar output has a rank (0) but no dimensions.
TEST(OutputShapeValidationTest, AScalarOutputHasNoDimensions) {
  Model model = rankModel();
  Compilation compilation = compile(model.get());
  Execution execution = newExecution(compilation.get());
  int32_t rank = -1;
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, kInput.data(), 16));
  ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, &rank, sizeof(rank)));
  ASSERT_OK(ANeuralNetworksExecution_compute(execution.get()));
  EXPECT_EQ(rank, 2);
  uint32_t outputRank = 7, dims[1] = {};
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_getOutputOperandRank(execution.get(), 0, &outputRank));
  EXPECT_EQ(outputRank, 0u);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_getOutputOperandDimensions(execution.get(), 0, dims));
}

// A tensor type passes for a scalar operand (AOSP ignores its dims), but not
// with a device memory that holds a scalar.
TEST(OutputShapeValidationTest, AScalarDeviceMemoryTakesNoDims) {
  Model model = rankModel();
  Compilation compilation = compile(model.get());
  Memory memory = deviceMemory({{compilation.get(), false}});
  const OperandType tensorOwner{ANEURALNETWORKS_TENSOR_INT32, {1}};
  const ANeuralNetworksOperandType tensor = tensorOwner.get();
  Execution execution = newExecution(compilation.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setOutputFromMemory(
                                          execution.get(), 0, &tensor, memory.get(), 0, 0));
  int32_t rank = -1;
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_setOutput(execution.get(), 0, &tensor, &rank, sizeof(rank)));
}

// ---- Compilations ----

TEST(CompilationValidationTest, TimeoutOnAFinishedCompilationIsBadStateFirst) {
  Model model = floorModel();
  Compilation compilation = compile(model.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksCompilation_setTimeout(compilation.get(), 1000));
}

TEST(CompilationValidationTest, ForeignAttributesNeedOneExplicitDevice) {
  Model model = floorModel();
  const int32_t data = 1;
  Compilation compilation = compile(model.get(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_addExtensionAttribute(compilation.get(), "org.annrt.none", 0,
                                                             nullptr, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksCompilation_addExtensionAttribute(
                                          compilation.get(), "org.annrt.none", 0, &data, 4));
  Compilation single = compileForDevice(model.get(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksCompilation_addExtensionAttribute(
                                          single.get(), "org.annrt.none", 0, &data, 4));
  ASSERT_OK(ANeuralNetworksCompilation_finish(single.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_addExtensionAttribute(
                                           single.get(), "org.annrt.none", 0, &data, 4));
}

// ---- Device lists ----

// An ANeuralNetworksDevice handle that is no device of this runtime.
const ANeuralNetworksDevice* unknownDevice() {
  static const int kNotADevice = 0;
  return reinterpret_cast<const ANeuralNetworksDevice*>(&kNotADevice);
}

TEST(DeviceListValidationTest, ANullDeviceIsReportedBeforeAnUnknownOne) {
  Model model = floorModel();
  const ANeuralNetworksDevice* devices[] = {unknownDevice(), nullptr};
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_createForDevices(model.get(), devices, 2, &compilation));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_createForDevices(model.get(), devices, 1, &compilation));
  EXPECT_EQ(compilation, nullptr);
  bool supported[1] = {};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                                 model.get(), devices, 2, supported));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                          model.get(), devices, 1, supported));
}

TEST(DeviceListValidationTest, AnEmptyListIsReportedBeforeAnUnfinishedModel) {
  Model unfinished = floorModel(kDims, kDims, /*finish=*/false);
  const ANeuralNetworksDevice* device = deviceAt(0);
  bool supported[1] = {};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                          unfinished.get(), &device, 0, supported));
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksCompilation_createForDevices(
                                          unfinished.get(), &device, 0, &compilation));
}

// Supported means supported by any of the devices listed.
TEST(DeviceListValidationTest, SupportIsMergedOverTheDevices) {
  Model model = oemAndFloorModel();
  uint32_t count = 0;
  ASSERT_OK(ANeuralNetworks_getDeviceCount(&count));
  std::vector<const ANeuralNetworksDevice*> devices;
  for (uint32_t i = 0; i < count; ++i) devices.push_back(deviceAt(i));
  bool any[2] = {true, false};
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksModel_getSupportedOperationsForDevices(
                                          model.get(), devices.data(), count, any));
  EXPECT_FALSE(any[0]);  // OEM_OPERATION: no device
  EXPECT_TRUE(any[1]);   // FLOOR: the reference device at least
}

// ---- Events ----

TEST(EventValidationTest, FdZeroIsNoSyncFence) {
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksEvent_createFromSyncFenceFd(0, &event));
  EXPECT_EQ(event, nullptr);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksEvent_createFromSyncFenceFd(-1, &event));
  EXPECT_EQ(event, nullptr);
}

TEST_F(ExecutionValidationTest, AnEventOfStartComputeHasNoSyncFence) {
  bind(execution_.get());
  ANeuralNetworksEvent* raw = nullptr;
  ASSERT_OK(ANeuralNetworksExecution_startCompute(execution_.get(), &raw));
  Event event(raw);
  int fd = 5;
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksEvent_getSyncFenceFd(event.get(), &fd));
  EXPECT_EQ(fd, -1);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksEvent_wait(event.get()));
}

}  // namespace
}  // namespace annrt::test

namespace annrt::test {
namespace {

// An fd memory mapped without PROT_WRITE cannot take an output, nor one
// without PROT_READ an input: the computation would fault (annrt refuses
// them when they are set; AOSP leaves it to the driver).
TEST_F(ExecutionValidationTest, MemoriesMustAllowWhatTheArgumentDoes) {
  SharedMemory backing(sizeof(kInput));
  for (int protect : {PROT_READ, PROT_WRITE}) {
    ANeuralNetworksMemory* raw = nullptr;
    ASSERT_OK(ANeuralNetworksMemory_createFromFd(sizeof(kInput), protect, backing.fd(), 0, &raw));
    Memory memory(raw);
    Execution e = newExecution(compilation_.get());
    const bool readOnly = protect == PROT_READ;
    EXPECT_NN(readOnly ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksExecution_setInputFromMemory(e.get(), 0, nullptr, memory.get(), 0,
                                                          sizeof(kInput)));
    EXPECT_NN(readOnly ? ANEURALNETWORKS_BAD_DATA : ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksExecution_setOutputFromMemory(e.get(), 0, nullptr, memory.get(), 0,
                                                           sizeof(kInput)));
  }
}

}  // namespace
}  // namespace annrt::test
