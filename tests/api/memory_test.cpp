// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksMemory_* and ANeuralNetworksMemoryDesc_*: memories from file
// descriptors (memfd here), descriptors with their roles, dimensions and
// finish, device memories created from them, and copies between memories.
#include <cmath>

#include "test_models.h"

namespace annrt::test {
namespace {

TEST(MemoryTest, CreateFromFdChecksItsArguments) {
  SharedMemory backing(4096);
  ANeuralNetworksMemory* memory = nullptr;
  const int rw = PROT_READ | PROT_WRITE;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemory_createFromFd(4096, rw, backing.fd(), 0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemory_createFromFd(0, rw, backing.fd(), 0, &memory));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_createFromFd(4096, rw, -1, 0, &memory));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemory_createFromFd(4096, PROT_EXEC, backing.fd(), 0, &memory));
  // Larger than the file, or past its end.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemory_createFromFd(8192, rw, backing.fd(), 0, &memory));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemory_createFromFd(16, rw, backing.fd(), 4096, &memory));
  EXPECT_EQ(memory, nullptr);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksMemory_createFromFd(16, PROT_READ, backing.fd(), 4080, &memory));
  ANeuralNetworksMemory_free(memory);
  // AOSP accepts PROT_NONE (such a memory can hold no constant: ModelValidationTest).
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksMemory_createFromFd(16, PROT_NONE, backing.fd(), 0, &memory));
  ANeuralNetworksMemory_free(memory);
  ANeuralNetworksMemory_free(nullptr);  // documented as a no-op
}

// A copy reads its source and writes its destination: a mapping without that
// access is refused (it would fault).
TEST(MemoryTest, CopyNeedsAReadableSourceAndAWritableDestination) {
  SharedMemory backing(16), readWrite(16);
  ANeuralNetworksMemory* raw = nullptr;
  ASSERT_OK(ANeuralNetworksMemory_createFromFd(16, PROT_READ, backing.fd(), 0, &raw));
  Memory readOnly(raw);
  ASSERT_OK(ANeuralNetworksMemory_createFromFd(16, PROT_WRITE, backing.fd(), 0, &raw));
  Memory writeOnly(raw);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(readWrite.get(), readOnly.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(writeOnly.get(), readWrite.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(readOnly.get(), readWrite.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(readWrite.get(), writeOnly.get()));
}

// The memory keeps its own mapping: the application may close the fd.
TEST(MemoryTest, FdMayBeClosedAfterCreation) {
  const int fd = memfd_create("annrt-api-test", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, sizeof(kInput)), 0);
  ASSERT_EQ(pwrite(fd, kInput.data(), sizeof(kInput), 0), static_cast<ssize_t>(sizeof(kInput)));
  ANeuralNetworksMemory* raw = nullptr;
  ASSERT_OK(ANeuralNetworksMemory_createFromFd(sizeof(kInput), PROT_READ, fd, 0, &raw));
  Memory memory(raw);
  close(fd);
  Model model = floorModel();
  Compilation compilation = compile(model.get());
  Execution execution = newExecution(compilation.get());
  ASSERT_OK(ANeuralNetworksExecution_setInputFromMemory(execution.get(), 0, nullptr, memory.get(),
                                                        0, sizeof(kInput)));
  expectFloors(execution.get(), /*inputBound=*/true);
}

TEST(MemoryTest, AHardwareBufferIsNotAvailable) {
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemory_createFromAHardwareBuffer(nullptr, &memory));
  int notABuffer = 0;
  const auto* buffer = reinterpret_cast<const AHardwareBuffer*>(&notABuffer);
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemory_createFromAHardwareBuffer(buffer, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemory_createFromAHardwareBuffer(buffer, &memory));
  EXPECT_EQ(memory, nullptr);
}

// Descriptors over FLOOR compilations: c_ (float32 2x2), dynamic_ (float32
// {0, 2} -> {0, 0}), half_ (float16 2x2) and other_ (float32 of 4).
class MemoryDescTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = floorModel();
    c_ = compile(model_.get());
    dynamicModel_ = floorModel({0, 2}, {0, 0});
    dynamic_ = compile(dynamicModel_.get());
    halfModel_ = floorModel(kDims, kDims, true, ANEURALNETWORKS_TENSOR_FLOAT16);
    half_ = compile(halfModel_.get());
    otherModel_ = floorModel({4}, {4});
    other_ = compile(otherModel_.get());
    ANeuralNetworksMemoryDesc* desc = nullptr;
    ASSERT_OK(ANeuralNetworksMemoryDesc_create(&desc));
    desc_.reset(desc);
  }
  ANeuralNetworksMemoryDesc* desc() const { return desc_.get(); }

  // Runs FLOOR on c_ with `input` and `output` (either may be null: kInput and
  // a local buffer then) and returns the result code.
  int run(ANeuralNetworksMemory* input, ANeuralNetworksMemory* output) {
    Execution execution = newExecution(c_.get());
    std::array<float, 4> buffer{};
    const int in = input ? ANeuralNetworksExecution_setInputFromMemory(execution.get(), 0, nullptr,
                                                                       input, 0, 0)
                         : ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr,
                                                             kInput.data(), sizeof(kInput));
    const int out = output ? ANeuralNetworksExecution_setOutputFromMemory(execution.get(), 0,
                                                                          nullptr, output, 0, 0)
                           : ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr,
                                                                buffer.data(), sizeof(buffer));
    EXPECT_EQ(in, ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(out, ANEURALNETWORKS_NO_ERROR);
    return ANeuralNetworksExecution_compute(execution.get());
  }
  // An execution of dynamic_ on kInput (given as 2x2) into `output`, not run.
  Execution dynamicInto(ANeuralNetworksMemory* output) {
    Execution execution = newExecution(dynamic_.get());
    const OperandType typeOwner = floatTensor({2, 2});
    const ANeuralNetworksOperandType type = typeOwner.get();
    EXPECT_EQ(
        ANeuralNetworksExecution_setInput(execution.get(), 0, &type, kInput.data(), sizeof(kInput)),
        ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(
        ANeuralNetworksExecution_setOutputFromMemory(execution.get(), 0, nullptr, output, 0, 0),
        ANEURALNETWORKS_NO_ERROR);
    return execution;
  }

  Model model_, dynamicModel_, halfModel_, otherModel_;
  Compilation c_, dynamic_, half_, other_;
  MemoryDesc desc_;
};

TEST_F(MemoryDescTest, CreateAndFreeNull) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksMemoryDesc_create(nullptr));
  ANeuralNetworksMemoryDesc_free(nullptr);  // documented as a no-op
}

TEST_F(MemoryDescTest, AddRoleChecksCompilationIndexFrequencyAndDuplicates) {
  Compilation unfinished = compile(model_.get(), /*finish=*/false);
  for (bool input : {true, false}) {
    SCOPED_TRACE(input ? "input" : "output");
    auto addRole =
        input ? ANeuralNetworksMemoryDesc_addInputRole : ANeuralNetworksMemoryDesc_addOutputRole;
    MemoryDesc fresh;
    ANeuralNetworksMemoryDesc* raw = nullptr;
    ASSERT_OK(ANeuralNetworksMemoryDesc_create(&raw));
    fresh.reset(raw);
    EXPECT_EQ(addRole(nullptr, c_.get(), 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(addRole(raw, nullptr, 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(addRole(raw, unfinished.get(), 0, 1.0f), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(addRole(raw, c_.get(), 1, 1.0f), ANEURALNETWORKS_BAD_DATA);
    for (float frequency : {0.0f, -1.0f, 1.5f, NAN}) {
      EXPECT_EQ(addRole(raw, c_.get(), 0, frequency), ANEURALNETWORKS_BAD_DATA) << frequency;
    }
    EXPECT_EQ(addRole(raw, c_.get(), 0, 0.25f), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(addRole(raw, c_.get(), 0, 1.0f), ANEURALNETWORKS_BAD_DATA);  // twice
    // Operands of another type or incompatible dims cannot share the memory.
    EXPECT_EQ(addRole(raw, half_.get(), 0, 1.0f), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(addRole(raw, other_.get(), 0, 1.0f), ANEURALNETWORKS_BAD_DATA);
    // Compatible ones can.
    EXPECT_EQ(addRole(raw, dynamic_.get(), 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
    ASSERT_OK(ANeuralNetworksMemoryDesc_finish(raw));
    EXPECT_EQ(addRole(raw, c_.get(), 0, 1.0f), ANEURALNETWORKS_BAD_STATE);
  }
  // The same, logged by name.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_addInputRole(desc(), c_.get(), 5, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemoryDesc_addOutputRole(desc(), nullptr, 0, 1.0f));
}

// As AOSP, a compilation whose finish failed cannot take a role.
TEST_F(MemoryDescTest, AddRoleRejectsAFailedCompilation) {
  Model model = oemAndFloorModel();  // no device runs OEM_OPERATION
  Compilation failed = compileForDevice(model.get(), /*finish=*/false);
  ASSERT_NE(ANeuralNetworksCompilation_finish(failed.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_addInputRole(desc(), failed.get(), 1, 1.0f));
}

TEST_F(MemoryDescTest, SetDimensionsMustAgreeWithTheRoles) {
  const uint32_t dims[] = {2, 2}, otherDims[] = {2, 3}, rank3[] = {2, 2, 1}, partial[] = {0, 2};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemoryDesc_setDimensions(nullptr, 2, dims));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemoryDesc_setDimensions(desc(), 2, nullptr));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemoryDesc_setDimensions(desc(), 2, partial));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_setDimensions(desc(), 2, otherDims));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemoryDesc_setDimensions(desc(), 3, rank3));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemoryDesc_setDimensions(desc(), 2, dims));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_addInputRole(desc(), other_.get(), 0, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksMemoryDesc_addInputRole(desc(), c_.get(), 0, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemoryDesc_finish(desc()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksMemoryDesc_setDimensions(desc(), 2, dims));
}

// A rejected role leaves no trace: the descriptor takes its type from the
// first role actually added.
TEST_F(MemoryDescTest, RejectedRoleLeavesTheDescriptorUnchanged) {
  const uint32_t four[] = {4};
  ASSERT_OK(ANeuralNetworksMemoryDesc_setDimensions(desc(), 1, four));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_addInputRole(desc(), half_.get(), 0, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksMemoryDesc_addInputRole(desc(), other_.get(), 0, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemoryDesc_finish(desc()));
}

TEST_F(MemoryDescTest, FinishNeedsARoleAndHappensOnce) {
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksMemoryDesc_finish(nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemoryDesc_finish(desc()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksMemory_createFromDesc(desc(), &memory));
  EXPECT_EQ(memory, nullptr);
  ASSERT_OK(ANeuralNetworksMemoryDesc_addOutputRole(desc(), c_.get(), 0, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemoryDesc_finish(desc()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksMemoryDesc_finish(desc()));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksMemory_createFromDesc(nullptr, &memory));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksMemory_createFromDesc(desc(), nullptr));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_createFromDesc(desc(), &memory));
  // The memory does not need the descriptor any more.
  desc_.reset();
  Memory owned(memory);
  EXPECT_EQ(run(nullptr, owned.get()), ANEURALNETWORKS_NO_ERROR);
}

TEST_F(MemoryDescTest, DeviceMemoryIsUsedOnlyInItsRolesWithoutRanges) {
  Memory memory = deviceMemory({{c_.get(), true}, {c_.get(), false}});
  Memory outputOnly = deviceMemory({{c_.get(), false}});
  Execution execution = newExecution(c_.get());
  ANeuralNetworksExecution* e = execution.get();
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory.get(), 1, 0));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory.get(), 0, 16));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, outputOnly.get(), 0, 0));
  Execution ofOther = newExecution(other_.get());
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksExecution_setOutputFromMemory(
                                          ofOther.get(), 0, nullptr, memory.get(), 0, 0));
  // Constant operand values cannot come from device memory.
  Model model = newModel();
  addOperand(model.get(), floatTensor(kDims));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksModel_setOperandValueFromMemory(
                                          model.get(), 0, memory.get(), 0, sizeof(kInput)));
}

TEST_F(MemoryDescTest, UninitializedDeviceMemoryCannotBeRead) {
  Memory memory = deviceMemory({{c_.get(), true}, {c_.get(), false}});
  SharedMemory result(sizeof(kInput));
  EXPECT_EQ(run(memory.get(), nullptr), ANEURALNETWORKS_OP_FAILED);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(memory.get(), result.get()));
  // An execution writing it initializes it.
  ASSERT_EQ(run(nullptr, memory.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(run(memory.get(), nullptr), ANEURALNETWORKS_NO_ERROR);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(memory.get(), result.get()));
  EXPECT_TRUE(std::equal(kFloored.begin(), kFloored.end(), result.floats()));
}

TEST_F(MemoryDescTest, ComputeWithUninitializedInputFails) {
  Memory memory = deviceMemory({{c_.get(), true}});
  Execution execution = newExecution(c_.get());
  std::array<float, 4> output{};
  ASSERT_OK(
      ANeuralNetworksExecution_setInputFromMemory(execution.get(), 0, nullptr, memory.get(), 0, 0));
  ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(),
                                               sizeof(output)));
  EXPECT_NN(ANEURALNETWORKS_OP_FAILED, ANeuralNetworksExecution_compute(execution.get()));
  // A failed computation has no output shapes.
  uint32_t rank = 0;
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksExecution_getOutputOperandRank(execution.get(), 0, &rank));
}

TEST_F(MemoryDescTest, CopyChecksSizesAndInitialization) {
  Memory device = deviceMemory({{c_.get(), true}});
  Memory otherDevice = deviceMemory({{other_.get(), true}});
  SharedMemory good(sizeof(kInput)), small(8), large(32);
  std::copy(kInput.begin(), kInput.end(), good.floats());
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksMemory_copy(nullptr, good.get()));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksMemory_copy(good.get(), nullptr));
  // fd -> fd of other sizes.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(good.get(), small.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(large.get(), good.get()));
  // fd -> device of another size.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(small.get(), device.get()));
  // fd -> device -> fd.
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(good.get(), device.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(device.get(), small.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(device.get(), large.get()));
  // A failed copy into a device memory leaves it uninitialized.
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(small.get(), device.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(device.get(), good.get()));
  // device -> device of incompatible dims ({2, 2} and {4}).
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(good.get(), otherDevice.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(otherDevice.get(), device.get()));
  // device -> device of the same dims.
  Memory twin = deviceMemory({{c_.get(), true}});
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(good.get(), device.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(device.get(), twin.get()));
  std::fill(good.floats(), good.floats() + 4, 0.0f);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(twin.get(), good.get()));
  EXPECT_TRUE(std::equal(kInput.begin(), kInput.end(), good.floats()));
}

// As AOSP: copying a memory onto itself succeeds, and initializes it.
TEST_F(MemoryDescTest, CopyOntoItselfSucceeds) {
  Memory device = deviceMemory({{c_.get(), true}});
  SharedMemory result(sizeof(kInput));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(device.get(), result.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(device.get(), device.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(device.get(), result.get()));
}

// A compiled RELU of quant8 2x2 operands of `scale`, and a device memory for
// its input.
struct QuantReluMemory {
  explicit QuantReluMemory(float scale) {
    const OperandType type{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, kDims, scale, 0};
    model = unaryModel(ANEURALNETWORKS_RELU, type, type);
    compilation = compile(model.get());
    memory = deviceMemory({{compilation.get(), true}});
  }
  Model model;
  Compilation compilation;
  Memory memory;
};

// Between device memories, the operand types must agree, not only the sizes.
TEST(MemoryCopyTest, DeviceMemoriesOfOtherQuantizationDoNotCopy) {
  QuantReluMemory unit(1.0f), half(0.5f), twin(1.0f);
  SharedMemory bytes(4);
  ASSERT_OK(ANeuralNetworksMemory_copy(bytes.get(), unit.memory.get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemory_copy(unit.memory.get(), half.memory.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksMemory_copy(unit.memory.get(), twin.memory.get()));
}

// An fd memory has no dims: it cannot fill a device memory described with
// unknown dims, even once a computation gave that memory a shape.
TEST_F(MemoryDescTest, FdDoesNotCopyIntoADeviceMemoryOfUnknownDims) {
  Memory memory = deviceMemory({{dynamic_.get(), false}});
  SharedMemory bytes(sizeof(kInput));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(bytes.get(), memory.get()));
  ASSERT_OK(ANeuralNetworksExecution_compute(dynamicInto(memory.get()).get()));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(bytes.get(), memory.get()));
}

// A device memory for an output of unknown dims takes the shape computed.
TEST_F(MemoryDescTest, DynamicDeviceMemoryTakesTheComputedShape) {
  Memory memory = deviceMemory({{dynamic_.get(), false}});
  Execution execution = dynamicInto(memory.get());
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution.get()));
  uint32_t dims[2] = {};
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksExecution_getOutputOperandDimensions(execution.get(), 0, dims));
  EXPECT_EQ(dims[0], 2u);
  SharedMemory result(sizeof(kFloored)), wrongSize(2 * sizeof(kFloored));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksMemory_copy(memory.get(), wrongSize.get()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(memory.get(), result.get()));
  EXPECT_TRUE(std::equal(kFloored.begin(), kFloored.end(), result.floats()));
}

// ADD(a, b, activation) with all three as model inputs: input 2 is a scalar.
class ScalarRoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = newModel();
    for (int i = 0; i < 2; ++i) addOperand(model_.get(), floatTensor({2}));
    addOperand(model_.get(), {ANEURALNETWORKS_INT32, {}});
    addOperand(model_.get(), floatTensor({2}));
    const uint32_t in[] = {0, 1, 2}, out = 3;
    ASSERT_OK(ANeuralNetworksModel_addOperation(model_.get(), ANEURALNETWORKS_ADD, 3, in, 1, &out));
    ASSERT_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model_.get(), 3, in, 1, &out));
    ASSERT_OK(ANeuralNetworksModel_finish(model_.get()));
    compilation_ = compile(model_.get());
    ANeuralNetworksMemoryDesc* desc = nullptr;
    ASSERT_OK(ANeuralNetworksMemoryDesc_create(&desc));
    desc_.reset(desc);
  }
  Model model_;
  Compilation compilation_;
  MemoryDesc desc_;
};

TEST_F(ScalarRoleTest, DimensionsBeforeTheScalarRole) {
  const uint32_t dims[] = {2};
  ASSERT_OK(ANeuralNetworksMemoryDesc_setDimensions(desc_.get(), 1, dims));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_addInputRole(desc_.get(), compilation_.get(), 2, 1.0f));
}

TEST_F(ScalarRoleTest, ScalarDeviceMemory) {
  const uint32_t dims[] = {2};
  ASSERT_OK(ANeuralNetworksMemoryDesc_addInputRole(desc_.get(), compilation_.get(), 2, 1.0f));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksMemoryDesc_setDimensions(desc_.get(), 0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksMemoryDesc_setDimensions(desc_.get(), 1, dims));
  ASSERT_OK(ANeuralNetworksMemoryDesc_finish(desc_.get()));
  ANeuralNetworksMemory* raw = nullptr;
  ASSERT_OK(ANeuralNetworksMemory_createFromDesc(desc_.get(), &raw));
  Memory activation(raw);
  SharedMemory none(sizeof(int32_t));  // zero: ANEURALNETWORKS_FUSED_NONE
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksMemory_copy(none.get(), activation.get()));
  Execution execution = newExecution(compilation_.get());
  const float a[] = {1.5f, -2.0f}, b[] = {0.25f, 0.5f};
  float sum[2] = {};
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, a, sizeof(a)));
  ASSERT_OK(ANeuralNetworksExecution_setInput(execution.get(), 1, nullptr, b, sizeof(b)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_setInputFromMemory(
                                          execution.get(), 2, nullptr, activation.get(), 0, 0));
  ASSERT_OK(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, sum, sizeof(sum)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksExecution_compute(execution.get()));
  EXPECT_EQ(sum[0], 1.75f);
  EXPECT_EQ(sum[1], -1.5f);
}

}  // namespace
}  // namespace annrt::test
