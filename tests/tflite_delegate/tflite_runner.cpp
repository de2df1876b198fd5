// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/tflite_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <random>

#include "common/output_error.h"

namespace annrt::tflite::delegate::testing {
namespace {

struct Deleter {
  void operator()(TfLiteModel* p) const { TfLiteModelDelete(p); }
  void operator()(TfLiteInterpreterOptions* p) const { TfLiteInterpreterOptionsDelete(p); }
  void operator()(TfLiteInterpreter* p) const { TfLiteInterpreterDelete(p); }
};

void collectError(void* user, const char* format, va_list args) {
  char line[1024];
  std::vsnprintf(line, sizeof(line), format, args);
  *static_cast<std::string*>(user) += std::string(line) + "\n";
}

RunResult failed(std::string error) {
  RunResult result;
  result.error = std::move(error);
  return result;
}

}  // namespace

RunResult runModel(const std::string& path, const RunSettings& settings) {
  std::string reported;
  std::unique_ptr<TfLiteModel, Deleter> model(TfLiteModelCreateFromFile(path.c_str()));
  if (!model) return failed("cannot read " + path);
  std::unique_ptr<TfLiteInterpreterOptions, Deleter> options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetNumThreads(options.get(), settings.threads);
  TfLiteInterpreterOptionsSetErrorReporter(options.get(), collectError, &reported);
  if (settings.delegate) TfLiteInterpreterOptionsAddDelegate(options.get(), settings.delegate);
  std::unique_ptr<TfLiteInterpreter, Deleter> interpreter(
      TfLiteInterpreterCreate(model.get(), options.get()));
  if (!interpreter) return failed("TfLiteInterpreterCreate failed: " + reported);
  for (size_t i = 0; i < settings.inputShapes.size(); ++i) {
    const auto& shape = settings.inputShapes[i];
    if (TfLiteInterpreterResizeInputTensor(interpreter.get(), static_cast<int32_t>(i), shape.data(),
                                           static_cast<int32_t>(shape.size())) != kTfLiteOk) {
      return failed("TfLiteInterpreterResizeInputTensor failed: " + reported);
    }
  }
  if (TfLiteInterpreterAllocateTensors(interpreter.get()) != kTfLiteOk) {
    return failed("TfLiteInterpreterAllocateTensors failed: " + reported);
  }
  std::mt19937 random(settings.seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (int32_t i = 0; i < TfLiteInterpreterGetInputTensorCount(interpreter.get()); ++i) {
    TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter.get(), i);
    if (TfLiteTensorType(input) != kTfLiteFloat32) return failed("an input is not float32");
    std::vector<float> values(TfLiteTensorByteSize(input) / sizeof(float));
    for (float& value : values) value = uniform(random);
    TfLiteTensorCopyFromBuffer(input, values.data(), values.size() * sizeof(float));
  }
  RunResult result;
  const auto start = std::chrono::steady_clock::now();
  auto firstEnd = start;
  for (int run = 0; run < settings.runs; ++run) {
    if (TfLiteInterpreterInvoke(interpreter.get()) != kTfLiteOk) {
      return failed("TfLiteInterpreterInvoke failed: " + reported);
    }
    if (run == 0) firstEnd = std::chrono::steady_clock::now();
  }
  if (settings.runs > 1) {
    const std::chrono::duration<double, std::micro> rest =
        std::chrono::steady_clock::now() - firstEnd;
    result.microsecondsPerRun = rest.count() / (settings.runs - 1);
  }
  for (int32_t i = 0; i < TfLiteInterpreterGetOutputTensorCount(interpreter.get()); ++i) {
    const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter.get(), i);
    if (TfLiteTensorType(output) != kTfLiteFloat32) return failed("an output is not float32");
    std::vector<float> values(TfLiteTensorByteSize(output) / sizeof(float));
    TfLiteTensorCopyToBuffer(output, values.data(), values.size() * sizeof(float));
    result.outputs.push_back(std::move(values));
  }
  return result;
}

double outputError(const std::vector<std::vector<float>>& actual,
                   const std::vector<std::vector<float>>& expected) {
  if (actual.size() != expected.size()) return INFINITY;
  double worst = 0;
  for (size_t o = 0; o < actual.size(); ++o) {
    if (actual[o].size() != expected[o].size()) return INFINITY;
    test::OutputDifference d;
    for (size_t i = 0; i < actual[o].size(); ++i) d.add(actual[o][i], expected[o][i]);
    worst = std::max(worst, d.error());
  }
  return worst;
}

}  // namespace annrt::tflite::delegate::testing
