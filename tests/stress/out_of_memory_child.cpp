// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The process out_of_memory_test.cpp runs: caps its address space
// (RLIMIT_AS) at what it uses plus a headroom, then either finishes a model
// whose constant must be copied into more than the headroom (argv[1]
// "constant"), runs a kernel whose scratch buffer needs more ("scratch"), or
// compiles and runs, on the device named by argv[1]
// ("default": ANeuralNetworksCompilation_create), a model whose temporary
// needs more than the headroom:
//   x [1] -> PAD with zeros to [kPadded] -> REDUCE_MAX -> y [1]
// It prints "<call>: <result code>" for each NNAPI call, then runs a FLOOR
// model to show the runtime still works, and exits 0 if it got there.
#include <android/NeuralNetworks.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "api/test_models.h"
#include "common/device_lookup.h"

namespace annrt::test {
namespace {

constexpr int32_t kPadded = 256 << 20;             // 1 GiB of float32
constexpr uint64_t kHeadroomBytes = 256ull << 20;  // what the process may still map
constexpr size_t kConstantBytes = 320u << 20;      // more than the headroom

int report(const char* call, int code) {
  std::printf("%s: %s\n", call, resultName(code));
  std::fflush(stdout);
  return code;
}

Model paddedMaxModel() {
  client::GraphBuilder b;
  const uint32_t x = b.addTensor({1});
  const uint32_t paddings = b.addConstant({1, 2}, {ANEURALNETWORKS_TENSOR_INT32},
                                          client::toBytes(std::vector<int32_t>{0, kPadded - 1}));
  const uint32_t padded = b.addTensor({static_cast<uint32_t>(kPadded)});
  b.addOperation(ANEURALNETWORKS_PAD, {x, paddings}, {padded});
  const uint32_t axes =
      b.addConstant({1}, {ANEURALNETWORKS_TENSOR_INT32}, client::toBytes(std::vector<int32_t>{0}));
  const uint32_t y = b.addTensor({1});
  b.addOperation(ANEURALNETWORKS_REDUCE_MAX, {padded, axes, b.addBoolScalar(true)}, {y});
  b.finish({x}, {y});
  return built(b);
}

// y = REDUCE_MAX(c + x) with c a constant of kConstantBytes, in pages mapped
// but never touched here: finishing the model copies them.
class LargeConstantModel {
 public:
  LargeConstantModel() {
    constant_ = mmap(nullptr, kConstantBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    const uint32_t count = kConstantBytes / sizeof(float);
    const uint32_t c = b_.addTensor({count}), x = b_.addTensor({1}), sum = b_.addTensor({count});
    if (b_.ok() && constant_ != MAP_FAILED) {
      report("setOperandValue",
             ANeuralNetworksModel_setOperandValue(b_.model(), static_cast<int32_t>(c), constant_,
                                                  kConstantBytes));
    }
    b_.addOperation(ANEURALNETWORKS_ADD, {c, x, b_.addInt32Scalar(0)}, {sum});
    const uint32_t axes = b_.addConstant({1}, {ANEURALNETWORKS_TENSOR_INT32},
                                         client::toBytes(std::vector<int32_t>{0}));
    const uint32_t y = b_.addTensor({1});
    b_.addOperation(ANEURALNETWORKS_REDUCE_MAX, {sum, axes, b_.addBoolScalar(true)}, {y});
    b_.identifyInputsAndOutputs({x}, {y});
  }
  ~LargeConstantModel() {
    if (constant_ != MAP_FAILED) munmap(constant_, kConstantBytes);
  }
  ANeuralNetworksModel* get() const { return b_.model(); }

 private:
  client::GraphBuilder b_;
  void* constant_ = MAP_FAILED;
};

// RESIZE_NEAREST_NEIGHBOR in NCHW of x [1,1,1,1] to y [1,1,kSide,kSide] on
// nnapi-reference, into an output buffer mapped before the cap: the kernel's
// NHWC scratch copy of the output (a std::vector) cannot be allocated.
class NchwResize {
 public:
  NchwResize() {
    output_ = mmap(nullptr, kOutputBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    client::GraphBuilder b;
    const uint32_t x = b.addTensor({1, 1, 1, 1}), y = b.addTensor({1, 1, kSide, kSide});
    b.addOperation(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR,
                   {x, b.addInt32Scalar(kSide), b.addInt32Scalar(kSide), b.addBoolScalar(true)},
                   {y});
    b.finish({x}, {y});
    model_ = built(b);
    const ANeuralNetworksDevice* reference = findDevice("nnapi-reference");
    compilation_ = compileForDevices(model_.get(), {reference});
  }
  ~NchwResize() {
    if (output_ != MAP_FAILED) munmap(output_, kOutputBytes);
  }

  // Runs synchronously, then asynchronously; reports both.
  void run() {
    for (const bool async : {false, true}) {
      Execution execution = newExecution(compilation_.get());
      const float x = 1.0f;
      ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, &x, sizeof(x));
      ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output_, kOutputBytes);
      if (!async) {
        report("compute", ANeuralNetworksExecution_compute(execution.get()));
        continue;
      }
      ANeuralNetworksEvent* event = nullptr;
      if (report("startCompute", ANeuralNetworksExecution_startCompute(execution.get(), &event)) ==
          ANEURALNETWORKS_NO_ERROR) {
        report("eventWait", ANeuralNetworksEvent_wait(event));
        ANeuralNetworksEvent_free(event);
      }
    }
  }

 private:
  static constexpr uint32_t kSide = 16384;
  static constexpr size_t kOutputBytes = size_t{kSide} * kSide * sizeof(float);  // 1 GiB
  void* output_ = MAP_FAILED;
  Model model_;
  Compilation compilation_;
};

// The address space mapped now (VmSize), in bytes.
uint64_t mappedBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// Compiles and runs the padded model; the first error, or NO_ERROR.
int runPadded(const std::string& device, ANeuralNetworksModel* model) {
  ANeuralNetworksCompilation* raw = nullptr;
  int code = ANEURALNETWORKS_NO_ERROR;
  if (device == "default") {
    code = report("create", ANeuralNetworksCompilation_create(model, &raw));
  } else {
    const ANeuralNetworksDevice* found = findDevice(device);
    if (found == nullptr) return report("findDevice", ANEURALNETWORKS_BAD_DATA);
    code = report("createForDevices",
                  ANeuralNetworksCompilation_createForDevices(model, &found, 1, &raw));
  }
  Compilation compilation(raw);
  if (code != ANEURALNETWORKS_NO_ERROR) return code;
  code = report("finish", ANeuralNetworksCompilation_finish(compilation.get()));
  if (code != ANEURALNETWORKS_NO_ERROR) return code;
  ANeuralNetworksExecution* execution = nullptr;
  code = report("executionCreate", ANeuralNetworksExecution_create(compilation.get(), &execution));
  Execution owned(execution);
  if (code != ANEURALNETWORKS_NO_ERROR) return code;
  const float x = 2.5f;
  float y = 0.0f;
  ANeuralNetworksExecution_setInput(execution, 0, nullptr, &x, sizeof(x));
  ANeuralNetworksExecution_setOutput(execution, 0, nullptr, &y, sizeof(y));
  code = report("compute", ANeuralNetworksExecution_compute(execution));
  if (code == ANEURALNETWORKS_NO_ERROR) std::printf("y = %g\n", y);
  return code;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DEVICE|default|constant|scratch\n", argv[0]);
    return 2;
  }
  const std::string scenario = argv[1];
  // The runtime loads its devices and builds the models before the cap.
  const Model model = paddedMaxModel();
  const LargeConstantModel large;
  NchwResize resize;
  const Model floor = floorModel();
  const rlimit limit{mappedBytes() + kHeadroomBytes, RLIM_INFINITY};
  if (setrlimit(RLIMIT_AS, &limit) != 0) {
    std::perror("setrlimit");
    return 2;
  }
  std::printf("address space capped at %llu MiB\n",
              static_cast<unsigned long long>(limit.rlim_cur >> 20));
  if (scenario == "constant") {
    report("modelFinish", ANeuralNetworksModel_finish(large.get()));
  } else if (scenario == "scratch") {
    resize.run();
  } else {
    runPadded(scenario, model.get());
  }
  // Still usable: a small model on the default devices.
  Compilation compilation = compile(floor.get());
  Execution execution = newExecution(compilation.get());
  std::array<float, 4> output{};
  ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, kInput.data(), sizeof(kInput));
  ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, output.data(), sizeof(output));
  report("afterwards", ANeuralNetworksExecution_compute(execution.get()));
  std::printf("afterwards correct: %s\n", output == kFloored ? "yes" : "no");
  return 0;
}

}  // namespace
}  // namespace annrt::test

int main(int argc, char** argv) {
  return annrt::test::main(argc, argv);
}
