// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt.Interpreter: tflite_runtime.interpreter.Interpreter on annrt. The
// .tflite is imported into an NNAPI model (annrt::tflite), compiled for the
// chosen devices and run through the tools' ModelRunner. Tensor indexes are
// the model's inputs (0..n-1) then its outputs (n..n+m-1), as the details
// report them. The tensors are NumPy arrays the interpreter owns; invoke()
// copies them in and out and computes without the GIL.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compilation.h"
#include "model_runner.h"
#include "op_profiling.h"
#include "tflite/importer.h"

namespace annrt::python {

struct InterpreterOptions {
  std::optional<std::string> modelPath;
  std::optional<std::string> modelContent;          // the .tflite bytes
  int numThreads = -1;                              // <= 0: the device's choice
  std::optional<std::vector<std::string>> devices;  // none: the runtime chooses
  std::string cacheDir;
};

struct InvokeTiming {
  // The last invoke's compute, without the GIL, on the monotonic clock
  // (Python's time.monotonic_ns()).
  int64_t startNs = 0;
  int64_t endNs = 0;
  int64_t invokes = 0;
};

class Interpreter {
 public:
  explicit Interpreter(InterpreterOptions options);

  void allocateTensors();
  pybind11::list inputDetails() const;
  pybind11::list outputDetails() const;
  void setTensor(int index, const pybind11::object& value);
  pybind11::array getTensor(int index) const;
  pybind11::array tensorView(int index) const;
  void invoke();
  void resizeTensorInput(int index, const pybind11::object& shape, bool strict);
  const InvokeTiming& lastInvokeTiming() const { return timing_; }
  // The runtime's per-operation times of the current compilation (the
  // profile file's last compilation of a model with this many operations),
  // which this frees so that the runtime writes them; the next invoke
  // compiles again. Needs enableOperationProfiling().
  std::vector<OperationTime> operationProfile();

 private:
  void import(const std::vector<std::vector<uint32_t>>& inputShapes, bool strict);
  void compile();
  const tflite::TensorInfo& tensorInfo(int index) const;
  const pybind11::array& allocatedTensor(int index) const;
  void copyInputs();
  void copyOutputs();
  std::unique_lock<std::mutex> lockExecution();

  InterpreterOptions options_;
  std::unique_ptr<tflite::ImportedModel> model_;
  tools::CompilationPtr compilation_;
  std::unique_ptr<tools::ModelRunner> runner_;
  std::vector<pybind11::array> tensors_;  // inputs then outputs; empty until allocated
  std::vector<uint8_t> staging_;
  InvokeTiming timing_;
  std::mutex executionMutex_;  // invoke computes without the GIL
};

}  // namespace annrt::python
