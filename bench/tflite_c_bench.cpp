// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Native TensorFlow Lite + XNNPACK on a .tflite, timed as benchmark_model
// times it, so bench/model_table.sh can put annrt-cpu beside real TFLite on
// the same machine in the same run. TFLite is not a dependency of annrt: its
// C library (libtensorflowlite_c.so, fetched by scripts/fetch-tflite-native.sh
// from an npm package) is opened with dlopen, and only the few C API functions
// below are used, declared here from the C API's documented signatures.
//
//   annrt_tflite_c_bench --lib=LIB --graph=MODEL [--num_threads=N]
//                        [--num_runs=N] [--warmup_runs=N]
//
// Prints benchmark_model's lines: "Inference timings in us: Init: ..., First
// inference: ..., Warmup (avg): ..., Inference (avg): ...", the memory
// footprint delta and the peak. Init is loading the model, creating the
// interpreter with the XNNPACK delegate and allocating tensors.
#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

#include "memory_usage.h"

namespace {

struct Model;
struct Options;
struct Interpreter;
struct Tensor;
struct Delegate;

// TfLiteXNNPackDelegateOptions of TFLite 2.9: { int32 num_threads; uint32
// flags; }. Later releases append fields, which zeros leave at their defaults.
struct XnnpackOptions {
  int32_t numThreads = 0;
  uint32_t flags = 0;
  unsigned char laterFields[56] = {};
};

constexpr int kTfLiteOk = 0;
constexpr int kTfLiteFloat32 = 1;

struct TfLiteC {
  void* library = nullptr;
  const char* (*version)();
  Model* (*modelCreateFromFile)(const char*);
  void (*modelDelete)(Model*);
  Options* (*optionsCreate)();
  void (*optionsDelete)(Options*);
  void (*optionsSetNumThreads)(Options*, int32_t);
  void (*optionsAddDelegate)(Options*, Delegate*);
  Interpreter* (*interpreterCreate)(const Model*, const Options*);
  void (*interpreterDelete)(Interpreter*);
  int (*allocateTensors)(Interpreter*);
  int (*invoke)(Interpreter*);
  int32_t (*inputCount)(const Interpreter*);
  Tensor* (*inputTensor)(const Interpreter*, int32_t);
  int (*tensorType)(const Tensor*);
  size_t (*tensorByteSize)(const Tensor*);
  void* (*tensorData)(const Tensor*);
  Delegate* (*xnnpackCreate)(const XnnpackOptions*);
  void (*xnnpackDelete)(Delegate*);

  template <typename F>
  bool bind(F& function, const char* name) {
    function = reinterpret_cast<F>(dlsym(library, name));
    if (function == nullptr) std::fprintf(stderr, "ERROR: the TFLite C library lacks %s\n", name);
    return function != nullptr;
  }

  bool open(const std::string& path) {
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "ERROR: cannot open %s: %s\n", path.c_str(), dlerror());
      return false;
    }
    return bind(version, "TfLiteVersion") &&
           bind(modelCreateFromFile, "TfLiteModelCreateFromFile") &&
           bind(modelDelete, "TfLiteModelDelete") &&
           bind(optionsCreate, "TfLiteInterpreterOptionsCreate") &&
           bind(optionsDelete, "TfLiteInterpreterOptionsDelete") &&
           bind(optionsSetNumThreads, "TfLiteInterpreterOptionsSetNumThreads") &&
           bind(optionsAddDelegate, "TfLiteInterpreterOptionsAddDelegate") &&
           bind(interpreterCreate, "TfLiteInterpreterCreate") &&
           bind(interpreterDelete, "TfLiteInterpreterDelete") &&
           bind(allocateTensors, "TfLiteInterpreterAllocateTensors") &&
           bind(invoke, "TfLiteInterpreterInvoke") &&
           bind(inputCount, "TfLiteInterpreterGetInputTensorCount") &&
           bind(inputTensor, "TfLiteInterpreterGetInputTensor") &&
           bind(tensorType, "TfLiteTensorType") && bind(tensorByteSize, "TfLiteTensorByteSize") &&
           bind(tensorData, "TfLiteTensorData") &&
           bind(xnnpackCreate, "TfLiteXNNPackDelegateCreate") &&
           bind(xnnpackDelete, "TfLiteXNNPackDelegateDelete");
  }
};

struct Flags {
  std::string lib;
  std::string graph;
  int numThreads = 1;
  int numRuns = 50;
  int warmupRuns = 1;
};

bool parseFlags(int argc, char** argv, Flags& flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const size_t equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    const std::string value(equals == std::string_view::npos ? "" : arg.substr(equals + 1));
    if (name == "--lib") {
      flags.lib = value;
    } else if (name == "--graph") {
      flags.graph = value;
    } else if (name == "--num_threads") {
      flags.numThreads = std::atoi(value.c_str());
    } else if (name == "--num_runs") {
      flags.numRuns = std::atoi(value.c_str());
    } else if (name == "--warmup_runs") {
      flags.warmupRuns = std::atoi(value.c_str());
    } else {
      std::fprintf(stderr, "ERROR: unknown flag %s\n", argv[i]);
      return false;
    }
  }
  if (flags.lib.empty() || flags.graph.empty() || flags.numThreads < 1 || flags.numRuns < 1 ||
      flags.warmupRuns < 0) {
    std::fprintf(stderr,
                 "usage: %s --lib=libtensorflowlite_c.so --graph=MODEL.tflite [--num_threads=N>0] "
                 "[--num_runs=N>0] [--warmup_runs=N>=0]\n",
                 argv[0]);
    return false;
  }
  return true;
}

double microsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

// Random inputs, as benchmark_model's: floats in [0, 1), other types random bytes.
void fillInputs(const TfLiteC& tflite, Interpreter* interpreter) {
  std::mt19937 generator(1);
  for (int32_t i = 0; i < tflite.inputCount(interpreter); ++i) {
    const Tensor* tensor = tflite.inputTensor(interpreter, i);
    auto* data = static_cast<unsigned char*>(tflite.tensorData(tensor));
    const size_t bytes = tflite.tensorByteSize(tensor);
    if (tflite.tensorType(tensor) == kTfLiteFloat32) {
      std::uniform_real_distribution<float> distribution(0.0f, 1.0f);
      for (size_t offset = 0; offset + sizeof(float) <= bytes; offset += sizeof(float)) {
        const float value = distribution(generator);
        std::memcpy(data + offset, &value, sizeof(value));
      }
    } else {
      for (size_t offset = 0; offset < bytes; ++offset) data[offset] = generator() & 0xff;
    }
  }
}

int run(const TfLiteC& tflite, const Flags& flags) {
  const annrt::tools::ProcessMemory start = annrt::tools::readProcessMemory();
  const auto initStart = std::chrono::steady_clock::now();
  Model* model = tflite.modelCreateFromFile(flags.graph.c_str());
  if (model == nullptr) {
    std::fprintf(stderr, "ERROR: TFLite cannot load %s\n", flags.graph.c_str());
    return 1;
  }
  XnnpackOptions xnnpackOptions;
  xnnpackOptions.numThreads = flags.numThreads;
  Delegate* xnnpack = tflite.xnnpackCreate(&xnnpackOptions);
  Options* options = tflite.optionsCreate();
  tflite.optionsSetNumThreads(options, flags.numThreads);
  tflite.optionsAddDelegate(options, xnnpack);
  Interpreter* interpreter = tflite.interpreterCreate(model, options);
  int status = interpreter != nullptr && tflite.allocateTensors(interpreter) == kTfLiteOk ? 0 : 1;
  const double init = microsSince(initStart);
  const annrt::tools::ProcessMemory afterInit = annrt::tools::readProcessMemory();
  double first = 0;
  double warmup = 0;
  double average = 0;
  if (status == 0) {
    fillInputs(tflite, interpreter);
    auto timed = [&](int count) {
      const auto begin = std::chrono::steady_clock::now();
      for (int i = 0; i < count && status == 0; ++i) status = tflite.invoke(interpreter);
      return count > 0 ? microsSince(begin) / count : 0.0;
    };
    first = timed(1);
    warmup = timed(flags.warmupRuns);
    average = timed(flags.numRuns);
  }
  if (status != 0) std::fprintf(stderr, "ERROR: TFLite failed to run %s\n", flags.graph.c_str());
  const annrt::tools::ProcessMemory end = annrt::tools::readProcessMemory();
  std::printf("INFO: TensorFlow Lite %s (C API), XNNPACK delegate, %d thread(s)\n",
              tflite.version(), flags.numThreads);
  std::printf(
      "INFO: Inference timings in us: Init: %.0f, First inference: %.0f, Warmup (avg): %.1f, "
      "Inference (avg): %.1f\n",
      init, first, warmup, average);
  std::printf(
      "INFO: Memory footprint delta from the start of the tool (MB): init=%.4f overall=%.4f\n",
      static_cast<double>(afterInit.peakKb - start.peakKb) / 1024.0,
      static_cast<double>(end.peakKb - start.peakKb) / 1024.0);
  std::printf("INFO: Overall peak memory footprint (MB) via periodic monitoring: %.4f\n",
              static_cast<double>(end.peakKb) / 1024.0);
  if (interpreter != nullptr) tflite.interpreterDelete(interpreter);
  tflite.optionsDelete(options);
  tflite.xnnpackDelete(xnnpack);
  tflite.modelDelete(model);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!parseFlags(argc, argv, flags)) return 2;
  TfLiteC tflite;
  if (!tflite.open(flags.lib)) return 1;
  return run(tflite, flags);
}
