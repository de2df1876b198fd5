// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// tflite_delegate_bench MODEL...: mean inference time of each model in TFLite
// 2.9 with its XNNPACK delegate and with annrt's delegate (devices
// annrt-cpu), 1 and 2 threads, as a Markdown table (docs/tflite-delegate.md).
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

using annrt::tflite::delegate::testing::runModel;
using annrt::tflite::delegate::testing::RunResult;
using annrt::tflite::delegate::testing::RunSettings;

constexpr int kRuns = 30;

double timeXnnpack(const std::string& path, int threads) {
  struct {
    int32_t threads;
    uint32_t flags;
    unsigned char later[56];
  } options{threads, 0, {}};
  TfLiteDelegate* delegate = TfLiteXNNPackDelegateCreate(&options);
  RunSettings settings{delegate, threads, 1, {}, kRuns};
  const RunResult result = runModel(path, settings);
  TfLiteXNNPackDelegateDelete(delegate);
  return result.error.empty() ? result.microsecondsPerRun : -1;
}

double timeAnnrt(const std::string& path, int threads) {
  std::string keys[] = {"devices", "num_threads", "log_level"};
  std::string values[] = {"annrt-cpu", std::to_string(threads), "warning"};
  char* keyPointers[] = {keys[0].data(), keys[1].data(), keys[2].data()};
  char* valuePointers[] = {values[0].data(), values[1].data(), values[2].data()};
  TfLiteDelegate* delegate = tflite_plugin_create_delegate(keyPointers, valuePointers, 3, nullptr);
  RunSettings settings{delegate, threads, 1, {}, kRuns};
  const RunResult result = runModel(path, settings);
  tflite_plugin_destroy_delegate(delegate);
  return result.error.empty() ? result.microsecondsPerRun : -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("| model | threads | TFLite + XNNPACK (ms) | TFLite + annrt (ms) |\n");
  std::printf("|---|---|---|---|\n");
  for (int i = 1; i < argc; ++i) {
    const std::string name = std::filesystem::path(argv[i]).stem().string();
    for (const int threads : {1, 2}) {
      const double xnnpack = timeXnnpack(argv[i], threads);
      const double annrt = timeAnnrt(argv[i], threads);
      std::printf("| %s | %d | %.2f | %.2f |\n", name.c_str(), threads, xnnpack / 1000,
                  annrt / 1000);
    }
  }
  return 0;
}
