// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Shared helpers of the NNAPI API tests: owning handles for the C objects,
// tiny FLOOR models, memfd-backed memories, and EXPECT_NN, which checks a
// call's result code and that an error was logged naming the function.
// Everything goes through the public C API, as an application would.
#pragma once

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <android/NeuralNetworksOEM.h>
#include <gtest/gtest.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "client/graph_builder.h"
#include "client/result_codes.h"

namespace annrt::test {

// ---- Owning handles ----

template <auto Free>
struct Freer {
  template <typename T>
  void operator()(T* object) const {
    Free(object);
  }
};

using Model = std::unique_ptr<ANeuralNetworksModel, Freer<ANeuralNetworksModel_free>>;
using Compilation =
    std::unique_ptr<ANeuralNetworksCompilation, Freer<ANeuralNetworksCompilation_free>>;
using Execution = std::unique_ptr<ANeuralNetworksExecution, Freer<ANeuralNetworksExecution_free>>;
using Memory = std::unique_ptr<ANeuralNetworksMemory, Freer<ANeuralNetworksMemory_free>>;
using MemoryDesc =
    std::unique_ptr<ANeuralNetworksMemoryDesc, Freer<ANeuralNetworksMemoryDesc_free>>;
using Event = std::unique_ptr<ANeuralNetworksEvent, Freer<ANeuralNetworksEvent_free>>;
using Burst = std::unique_ptr<ANeuralNetworksBurst, Freer<ANeuralNetworksBurst_free>>;

// ---- Result checking ----

inline const char* resultName(int code) {
  return client::resultCodeName(code);
}

// Runs `call` with stderr captured. It must return `expected`; an error result
// (other than OUTPUT_INSUFFICIENT_SIZE, which is an outcome, not a misuse) must
// come with an error line naming the NNAPI function, and NO_ERROR with none.
template <typename Call>
::testing::AssertionResult returnsAndLogs(int expected, const char* text, Call&& call) {
  ::testing::internal::CaptureStderr();
  const int got = call();
  const std::string log = ::testing::internal::GetCapturedStderr();
  if (got != expected) {
    return ::testing::AssertionFailure() << text << " returned " << resultName(got) << ", expected "
                                         << resultName(expected) << "\n"
                                         << log;
  }
  const std::string function(text, std::strcspn(text, "( "));
  const bool logged = log.find(" E annrt: " + function + ": ") != std::string::npos;
  const bool isError =
      expected != ANEURALNETWORKS_NO_ERROR && expected != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
  if (isError && !logged) {
    return ::testing::AssertionFailure()
           << text << " returned " << resultName(got) << " without logging why:\n"
           << log;
  }
  if (expected == ANEURALNETWORKS_NO_ERROR && log.find(" E annrt: ") != std::string::npos) {
    return ::testing::AssertionFailure() << text << " succeeded but logged an error:\n" << log;
  }
  return ::testing::AssertionSuccess();
}

#define EXPECT_NN(expected, call) \
  EXPECT_TRUE(::annrt::test::returnsAndLogs((expected), #call, [&] { return (call); }))
#define ASSERT_NN(expected, call) \
  ASSERT_TRUE(::annrt::test::returnsAndLogs((expected), #call, [&] { return (call); }))
#define ASSERT_OK(call) ASSERT_EQ(ANEURALNETWORKS_NO_ERROR, (call))
#define EXPECT_OK(call) EXPECT_EQ(ANEURALNETWORKS_NO_ERROR, (call))

// ---- Operand types ----

// An operand type that owns its dimensions.
struct OperandType {
  int32_t code = ANEURALNETWORKS_TENSOR_FLOAT32;
  std::vector<uint32_t> dims;
  float scale = 0.0f;
  int32_t zeroPoint = 0;

  // Points into `dims`: only for operand types that outlive the result.
  ANeuralNetworksOperandType get() const& {
    return {code, static_cast<uint32_t>(dims.size()), dims.empty() ? nullptr : dims.data(), scale,
            zeroPoint};
  }
  ANeuralNetworksOperandType get() const&& = delete;
};

inline OperandType floatTensor(std::vector<uint32_t> dims) {
  return {ANEURALNETWORKS_TENSOR_FLOAT32, std::move(dims)};
}

// ---- Models ----

inline const std::vector<uint32_t> kDims = {2, 2};
inline constexpr std::array<float, 4> kInput = {1.5f, -0.5f, 2.0f, -3.25f};
inline constexpr std::array<float, 4> kFloored = {1.0f, -1.0f, 2.0f, -4.0f};

inline Model newModel() {
  ANeuralNetworksModel* model = nullptr;
  EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  return Model(model);
}

inline void addOperand(ANeuralNetworksModel* model, const OperandType& type) {
  const ANeuralNetworksOperandType t = type.get();
  EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &t), ANEURALNETWORKS_NO_ERROR);
}

// A model built by client::GraphBuilder, every call of which must succeed.
inline Model built(client::GraphBuilder& b) {
  EXPECT_TRUE(b.ok()) << b.status().error().message;
  return Model(b.releaseModel());
}

// out = OPERATION(in): operand 0 is the model input, operand 1 the model
// output; finished unless asked not to be.
inline Model unaryModel(int32_t operation, const OperandType& input, const OperandType& output,
                        bool finish = true) {
  client::GraphBuilder b;
  const uint32_t in = b.addTensor(input.dims, {input.code, input.scale, input.zeroPoint});
  const uint32_t out = b.addTensor(output.dims, {output.code, output.scale, output.zeroPoint});
  b.addOperation(operation, {in}, {out});
  b.identifyInputsAndOutputs({in}, {out});
  if (finish) b.finish();
  return built(b);
}

// out = FLOOR(in). Dims of 0 (or an empty output list: unknown rank) make
// shapes dynamic.
inline Model floorModel(const std::vector<uint32_t>& inputDims = kDims,
                        const std::vector<uint32_t>& outputDims = kDims, bool finish = true,
                        int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) {
  return unaryModel(ANEURALNETWORKS_FLOOR, {type, inputDims}, {type, outputDims}, finish);
}

// Two independent operations: OEM_OPERATION (operands 0 -> 1, which no device
// supports) and FLOOR (operands 2 -> 3). Inputs {0, 2}, outputs {1, 3}.
inline Model oemAndFloorModel() {
  client::GraphBuilder b;
  const client::TensorType oem{ANEURALNETWORKS_TENSOR_OEM_BYTE};
  const uint32_t oemIn = b.addTensor({4}, oem);
  const uint32_t oemOut = b.addTensor({4}, oem);
  b.addOperation(ANEURALNETWORKS_OEM_OPERATION, {oemIn}, {oemOut});
  const uint32_t floorIn = b.addTensor(kDims);
  const uint32_t floorOut = b.addTensor(kDims);
  b.addOperation(ANEURALNETWORKS_FLOOR, {floorIn}, {floorOut});
  b.finish({oemIn, floorIn}, {oemOut, floorOut});
  return built(b);
}

// ---- Control flow ----

// A WHILE model with the subgraphs it refers to (kept alive alongside it).
struct WhileLoop {
  Model condition;
  Model body;
  Model main;
};

// y = x + iterations (float32 of `dims`): a WHILE loop over (x, counter) whose
// body adds 1 to x and `counterStep` to the counter (float32 [1], from 0) and
// whose condition is counter < iterations. A counterStep of 0 never ends.
inline WhileLoop whileLoopModel(const std::vector<uint32_t>& dims, float iterations,
                                float counterStep = 1.0f) {
  const std::vector<uint32_t> one = {1};
  WhileLoop loop;
  {
    client::GraphBuilder b;
    const uint32_t x = b.addTensor(dims), counter = b.addTensor(one);
    const uint32_t more = b.addTensor(one, {ANEURALNETWORKS_TENSOR_BOOL8});
    b.addOperation(ANEURALNETWORKS_LESS, {counter, b.addFloatConstant(one, {iterations})}, {more});
    b.finish({x, counter}, {more});
    loop.condition = built(b);
  }
  {
    client::GraphBuilder b;
    const uint32_t x = b.addTensor(dims), counter = b.addTensor(one);
    const uint32_t nextX = b.addTensor(dims), nextCounter = b.addTensor(one);
    b.addOperation(ANEURALNETWORKS_ADD, {x, b.addFloatConstant(one, {1.0f}), b.addInt32Scalar(0)},
                   {nextX});
    b.addOperation(ANEURALNETWORKS_ADD,
                   {counter, b.addFloatConstant(one, {counterStep}), b.addInt32Scalar(0)},
                   {nextCounter});
    b.finish({x, counter}, {nextX, nextCounter});
    loop.body = built(b);
  }
  client::GraphBuilder b;
  const uint32_t condition = b.addSubgraph(loop.condition.get());
  const uint32_t body = b.addSubgraph(loop.body.get());
  const uint32_t x = b.addTensor(dims), y = b.addTensor(dims);
  b.addOperation(ANEURALNETWORKS_WHILE, {condition, body, x, b.addFloatConstant(one, {0.0f})}, {y});
  b.finish({x}, {y});
  loop.main = built(b);
  return loop;
}

// ---- Devices, compilations, executions ----

inline ANeuralNetworksDevice* deviceAt(uint32_t index) {
  ANeuralNetworksDevice* device = nullptr;
  EXPECT_EQ(ANeuralNetworks_getDevice(index, &device), ANEURALNETWORKS_NO_ERROR);
  return device;
}

inline Compilation finishIf(ANeuralNetworksCompilation* compilation, bool finish) {
  if (finish) {
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  return Compilation(compilation);
}

// A compilation by ANeuralNetworksCompilation_create (the runtime picks devices).
inline Compilation compile(ANeuralNetworksModel* model, bool finish = true) {
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
  return finishIf(compilation, finish);
}

// A compilation for exactly one device (device 0): timing and timeouts apply.
inline Compilation compileForDevice(ANeuralNetworksModel* model, bool finish = true) {
  const ANeuralNetworksDevice* device = deviceAt(0);
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &compilation),
            ANEURALNETWORKS_NO_ERROR);
  return finishIf(compilation, finish);
}

// A compilation for exactly `devices`, finished.
inline Compilation compileForDevices(ANeuralNetworksModel* model,
                                     const std::vector<const ANeuralNetworksDevice*>& devices) {
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(
                model, devices.data(), static_cast<uint32_t>(devices.size()), &compilation),
            ANEURALNETWORKS_NO_ERROR);
  return finishIf(compilation, compilation != nullptr);
}

inline Execution newExecution(ANeuralNetworksCompilation* compilation) {
  ANeuralNetworksExecution* execution = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  return Execution(execution);
}

inline Burst newBurst(ANeuralNetworksCompilation* compilation) {
  ANeuralNetworksBurst* burst = nullptr;
  EXPECT_EQ(ANeuralNetworksBurst_create(compilation, &burst), ANEURALNETWORKS_NO_ERROR);
  return Burst(burst);
}

// Computes FLOOR(kInput) with `execution`, whose input is bound already when
// `inputBound`, and expects kFloored.
inline void expectFloors(ANeuralNetworksExecution* execution, bool inputBound = false) {
  std::array<float, 4> output{};
  if (!inputBound) {
    ASSERT_EQ(
        ANeuralNetworksExecution_setInput(execution, 0, nullptr, kInput.data(), sizeof(kInput)),
        ANEURALNETWORKS_NO_ERROR);
  }
  ASSERT_EQ(
      ANeuralNetworksExecution_setOutput(execution, 0, nullptr, output.data(), sizeof(output)),
      ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(output, kFloored);
}

// ---- Memories ----

// A memfd of `size` bytes, mapped here and wrapped in an ANeuralNetworksMemory.
class SharedMemory {
 public:
  explicit SharedMemory(size_t size) : size_(size) {
    fd_ = memfd_create("annrt-api-test", MFD_CLOEXEC);
    EXPECT_GE(fd_, 0);
    EXPECT_EQ(ftruncate(fd_, static_cast<off_t>(size)), 0);
    void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    EXPECT_NE(mapped, MAP_FAILED);
    mapped_ = static_cast<uint8_t*>(mapped);
    ANeuralNetworksMemory* memory = nullptr;
    EXPECT_EQ(ANeuralNetworksMemory_createFromFd(size, PROT_READ | PROT_WRITE, fd_, 0, &memory),
              ANEURALNETWORKS_NO_ERROR);
    memory_.reset(memory);
  }
  ~SharedMemory() {
    memory_.reset();
    munmap(mapped_, size_);
    close(fd_);
  }
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  int fd() const { return fd_; }
  size_t size() const { return size_; }
  ANeuralNetworksMemory* get() const { return memory_.get(); }
  // Releases the ANeuralNetworksMemory (as an application freeing it early).
  void freeMemory() { memory_.reset(); }
  float* floats() const { return reinterpret_cast<float*>(mapped_); }

 private:
  int fd_ = -1;
  size_t size_;
  uint8_t* mapped_ = nullptr;
  Memory memory_;
};

// A memory from a descriptor with one role per (compilation, isInput) pair,
// each for I/O index 0.
struct Role {
  const ANeuralNetworksCompilation* compilation;
  bool isInput;
};

inline Memory deviceMemory(std::initializer_list<Role> roles) {
  ANeuralNetworksMemoryDesc* rawDesc = nullptr;
  EXPECT_EQ(ANeuralNetworksMemoryDesc_create(&rawDesc), ANEURALNETWORKS_NO_ERROR);
  MemoryDesc desc(rawDesc);
  for (const Role& role : roles) {
    EXPECT_EQ(role.isInput
                  ? ANeuralNetworksMemoryDesc_addInputRole(desc.get(), role.compilation, 0, 1.0f)
                  : ANeuralNetworksMemoryDesc_addOutputRole(desc.get(), role.compilation, 0, 1.0f),
              ANEURALNETWORKS_NO_ERROR);
  }
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc.get()), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc.get(), &memory), ANEURALNETWORKS_NO_ERROR);
  return Memory(memory);
}

// ---- Sync fences ----

// An eventfd playing a sync fence: readable once signalled.
class Fence {
 public:
  Fence() : fd_(eventfd(0, EFD_CLOEXEC)) { EXPECT_GE(fd_, 0); }
  ~Fence() { close(fd_); }
  Fence(const Fence&) = delete;
  Fence& operator=(const Fence&) = delete;

  int fd() const { return fd_; }
  void signal() const {
    const uint64_t one = 1;
    EXPECT_EQ(write(fd_, &one, sizeof(one)), static_cast<ssize_t>(sizeof(one)));
  }
  Event event() const {
    ANeuralNetworksEvent* event = nullptr;
    EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(fd_, &event), ANEURALNETWORKS_NO_ERROR);
    return Event(event);
  }

 private:
  int fd_;
};

// ---- A finished FLOOR model, its compilation and an execution ----

class FloorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = floorModel();
    compilation_ = compile(model_.get());
    execution_ = newExecution(compilation_.get());
  }

  // Binds input_ and output_ to `execution`.
  void bind(ANeuralNetworksExecution* execution) {
    ASSERT_OK(
        ANeuralNetworksExecution_setInput(execution, 0, nullptr, input_.data(), sizeof(input_)));
    ASSERT_OK(
        ANeuralNetworksExecution_setOutput(execution, 0, nullptr, output_.data(), sizeof(output_)));
  }
  void expectFloored() const { EXPECT_EQ(output_, kFloored); }

  std::array<float, 4> input_ = kInput;
  std::array<float, 4> output_{};
  Model model_;
  Compilation compilation_;
  Execution execution_;
};

}  // namespace annrt::test
