// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// tflite_delegate_bench MODEL...: mean inference time of each model in TFLite
// 2.9 with its XNNPACK delegate and with annrt's delegate (devices
// annrt-cpu), 1 and 2 threads, and the largest difference of their outputs
// (outputError, the accuracy tests' figure), as a Markdown table
// (docs/tflite-delegate.md). -1: the run failed (selfie_segmentation's custom
// operator is not in stock TFLite).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "annrt_tflite_delegate.h"
#include "tflite_delegate/tflite_runner.h"

// TFLite 2.9's XNNPACK delegate (exported by libtensorflowlite_c.so; its
// header is not in the C API package). Its options start with
// { int32_t num_threads; uint32_t flags; }; the zeros after leave any fields
// a later release appends at their defaults.
extern "C" TfLiteDelegate* TfLiteXNNPackDelegateCreate(const void* options);
extern "C" void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate);

namespace {

using annrt::tflite::delegate::testing::outputError;
using annrt::tflite::delegate::testing::runModel;
using annrt::tflite::delegate::testing::RunResult;
using annrt::tflite::delegate::testing::RunSettings;

constexpr int kRuns = 30;

RunResult runXnnpack(const std::string& path, int threads) {
  struct {
    int32_t threads;
    uint32_t flags;
    unsigned char later[56];
  } options{threads, 0, {}};
  TfLiteDelegate* delegate = TfLiteXNNPackDelegateCreate(&options);
  RunSettings settings{delegate, threads, 1, {}, kRuns};
  RunResult result = runModel(path, settings);
  TfLiteXNNPackDelegateDelete(delegate);
  return result;
}

RunResult runAnnrt(const std::string& path, int threads) {
  std::string keys[] = {"devices", "num_threads", "log_level"};
  std::string values[] = {"annrt-cpu", std::to_string(threads), "warning"};
  char* keyPointers[] = {keys[0].data(), keys[1].data(), keys[2].data()};
  char* valuePointers[] = {values[0].data(), values[1].data(), values[2].data()};
  TfLiteDelegate* delegate = tflite_plugin_create_delegate(keyPointers, valuePointers, 3, nullptr);
  RunSettings settings{delegate, threads, 1, {}, kRuns};
  RunResult result = runModel(path, settings);
  tflite_plugin_destroy_delegate(delegate);
  return result;
}

double milliseconds(const RunResult& result) {
  return result.error.empty() ? result.microsecondsPerRun / 1000 : -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("| model | threads | TFLite + XNNPACK (ms) | TFLite + annrt (ms) | max error |\n");
  std::printf("|---|---|---|---|---|\n");
  for (int i = 1; i < argc; ++i) {
    const std::string name = std::filesystem::path(argv[i]).stem().string();
    for (const int threads : {1, 2}) {
      const RunResult xnnpack = runXnnpack(argv[i], threads);
      const RunResult annrt = runAnnrt(argv[i], threads);
      const bool both = xnnpack.error.empty() && annrt.error.empty();
      const double error = both ? outputError(annrt.outputs, xnnpack.outputs) : -1;
      std::printf("| %s | %d | %.2f | %.2f | %.2g |\n", name.c_str(), threads,
                  milliseconds(xnnpack), milliseconds(annrt), error);
    }
  }
  return 0;
}
