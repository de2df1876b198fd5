// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs a .tflite model in real TensorFlow Lite (the C API), with or without a
// delegate, on seeded random float inputs; for comparing annrt's delegate
// with TFLite's own kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"

namespace annrt::tflite::delegate::testing {

struct RunSettings {
  TfLiteDelegate* delegate = nullptr;
  int threads = 1;
  uint32_t seed = 1;
  // Resized inputs (TfLiteInterpreterResizeInputTensor), one per input; empty: as declared.
  std::vector<std::vector<int>> inputShapes;
  int runs = 1;  // invocations; the outputs are the last run's
};

struct RunResult {
  std::string error;  // empty when the model ran
  std::vector<std::vector<float>> outputs;
  double microsecondsPerRun = 0;  // mean over the runs after the first
};

RunResult runModel(const std::string& path, const RunSettings& settings);

// max|actual - expected| / max(1, max|expected|) over every output, the
// accuracy tests' figure (tests/tflite/accuracy_test.cpp).
double outputError(const std::vector<std::vector<float>>& actual,
                   const std::vector<std::vector<float>>& expected);

}  // namespace annrt::tflite::delegate::testing
