// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "interpreter.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

#include "devices.h"
#include "dtypes.h"
#include "errors.h"
#include "tensor_details.h"

namespace py = pybind11;

namespace annrt::python {
namespace {

// CLOCK_MONOTONIC, the clock of Python's time.monotonic_ns().
int64_t monotonicNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

tools::TensorDesc toDesc(const tflite::TensorInfo& info) {
  return tools::TensorDesc{info.name, info.type, info.dims, info.scale, info.zeroPoint};
}

std::vector<tools::TensorDesc> toDescs(const std::vector<tflite::TensorInfo>& infos) {
  std::vector<tools::TensorDesc> descs;
  descs.reserve(infos.size());
  for (const auto& info : infos) descs.push_back(toDesc(info));
  return descs;
}

// The devices named in `names`, in that order; ValueError lists the others.
std::vector<tools::DeviceInfo> namedDevices(const std::vector<std::string>& names,
                                            const std::vector<tools::DeviceInfo>& available) {
  if (names.empty()) throw py::value_error("devices is empty: name at least one NNAPI device");
  std::vector<tools::DeviceInfo> chosen;
  for (const std::string& name : names) {
    auto it = std::find_if(available.begin(), available.end(),
                           [&](const tools::DeviceInfo& d) { return d.name == name; });
    if (it == available.end()) {
      throw py::value_error(fmt::format("no NNAPI device named '{}'; the devices are {}", name,
                                        tools::joinDeviceNames(available, ", ")));
    }
    chosen.push_back(*it);
  }
  return chosen;
}

std::string readFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

py::array newTensor(int32_t type, const std::vector<uint32_t>& dims) {
  py::array array(numpyDtype(type), std::vector<py::ssize_t>(dims.begin(), dims.end()));
  std::memset(array.mutable_data(), 0, static_cast<size_t>(array.nbytes()));
  return array;
}

bool sameShape(const py::array& array, const std::vector<uint32_t>& dims) {
  if (static_cast<size_t>(array.ndim()) != dims.size()) return false;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (array.shape(static_cast<py::ssize_t>(d)) != static_cast<py::ssize_t>(dims[d])) return false;
  }
  return true;
}

}  // namespace

Interpreter::Interpreter(InterpreterOptions options) : options_(std::move(options)) {
  if (options_.modelPath.has_value() == options_.modelContent.has_value()) {
    throw py::value_error("give exactly one of model_path and model_content");
  }
  noteRuntimeUse();
  import({}, true);
}

void Interpreter::import(const std::vector<std::vector<uint32_t>>& inputShapes, bool strict) {
  tflite::ImportOptions importOptions;
  importOptions.inputShapes = inputShapes;
  importOptions.strictResize = strict;
  // The imported model refers to the bytes of model_content, which the
  // options keep for the interpreter's lifetime.
  auto imported =
      options_.modelContent
          ? tflite::importBuffer({reinterpret_cast<const uint8_t*>(options_.modelContent->data()),
                                  options_.modelContent->size()},
                                 importOptions)
          : tflite::importFile(options_.modelPath.value_or(""), importOptions);
  std::unique_ptr<tflite::ImportedModel> model = unwrapArgument(std::move(imported));
  runner_.reset();
  compilation_.reset();
  tensors_.clear();
  model_ = std::move(model);
}

void Interpreter::compile() {
  const std::vector<tools::DeviceInfo> available = unwrap(tools::listDevices());
  tools::DeviceSelection selection;
  if (options_.devices) {
    selection.runtimeChooses = false;
    selection.devices = namedDevices(*options_.devices, available);
    // As annrt-benchmark with a named accelerator (and TFLite's NNAPI
    // delegate): operations the chosen devices lack run on nnapi-reference.
    unwrap(tools::addReferenceForUnsupported(model_->model(), model_->operations().size(),
                                             available, selection));
  }
  tools::CompileSettings settings;
  if (options_.numThreads > 0) settings.numThreads = static_cast<uint32_t>(options_.numThreads);
  if (!options_.cacheDir.empty()) {
    // The cache token names the model and the shapes it is compiled for.
    const std::string bytes =
        options_.modelContent ? *options_.modelContent : readFile(options_.modelPath.value_or(""));
    std::ostringstream token;
    token << std::hash<std::string>{}(bytes) << ':' << bytes.size();
    for (const auto& input : model_->inputs()) token << ':' << tools::formatDims(input.dims);
    settings.cacheDir = options_.cacheDir;
    settings.cacheToken = token.str();
  }
  compilation_ = unwrap(tools::compileModel(model_->model(), selection, settings));
  runner_ =
      unwrap(tools::ModelRunner::create(compilation_.get(), toDescs(model_->inputs()),
                                        toDescs(model_->inputs()), toDescs(model_->outputs())));
}

std::unique_lock<std::mutex> Interpreter::lockExecution() {
  std::unique_lock<std::mutex> lock(executionMutex_, std::defer_lock);
  if (!lock.try_lock()) {
    py::gil_scoped_release release;  // another thread's invoke holds it without the GIL
    lock.lock();
  }
  return lock;
}

void Interpreter::allocateTensors() {
  auto lock = lockExecution();
  runner_.reset();
  compilation_.reset();
  compile();
  tensors_.clear();
  for (const auto& input : model_->inputs()) tensors_.push_back(newTensor(input.type, input.dims));
  for (const auto& output : model_->outputs()) {
    tensors_.push_back(newTensor(output.type, output.dims));
  }
}

py::list Interpreter::inputDetails() const {
  py::list list;
  for (size_t i = 0; i < model_->inputs().size(); ++i) {
    list.append(tensorDetails(model_->inputs()[i], static_cast<int>(i)));
  }
  return list;
}

py::list Interpreter::outputDetails() const {
  const size_t first = model_->inputs().size();
  py::list list;
  for (size_t i = 0; i < model_->outputs().size(); ++i) {
    list.append(tensorDetails(model_->outputs()[i], static_cast<int>(first + i)));
  }
  return list;
}

const tflite::TensorInfo& Interpreter::tensorInfo(int index) const {
  const size_t inputs = model_->inputs().size();
  const size_t count = inputs + model_->outputs().size();
  if (index < 0 || static_cast<size_t>(index) >= count) {
    throw py::value_error(
        fmt::format("Invalid tensor index {} exceeds max tensor index {}", index, count - 1));
  }
  const auto i = static_cast<size_t>(index);
  return i < inputs ? model_->inputs()[i] : model_->outputs()[i - inputs];
}

const py::array& Interpreter::allocatedTensor(int index) const {
  tensorInfo(index);
  if (tensors_.empty()) {
    throw py::value_error(
        fmt::format("Tensor {} is unallocated. Try calling allocate_tensors() first", index));
  }
  return tensors_[static_cast<size_t>(index)];
}

void Interpreter::setTensor(int index, const py::object& value) {
  const tflite::TensorInfo& info = tensorInfo(index);
  const py::array& tensor = allocatedTensor(index);
  py::array array = py::array::ensure(value);
  if (!array) throw py::value_error("Cannot set tensor: the value is not a NumPy array");
  const py::dtype expected = tensor.dtype();
  if (array.dtype().kind() != expected.kind() || array.dtype().itemsize() != expected.itemsize()) {
    throw py::value_error(fmt::format(
        "Cannot set tensor: Got value of type {} but expected type {} for input {}, name: {} ",
        tfliteTypeName(array.dtype()), tfliteTypeName(expected), index, info.name));
  }
  if (array.ndim() != tensor.ndim()) {
    throw py::value_error(
        fmt::format("Cannot set tensor: Dimension mismatch. Got {} but expected {} for input {}.",
                    array.ndim(), tensor.ndim(), index));
  }
  for (py::ssize_t d = 0; d < array.ndim(); ++d) {
    if (array.shape(d) != tensor.shape(d)) {
      throw py::value_error(fmt::format(
          "Cannot set tensor: Dimension mismatch. Got {} but expected {} for dimension {} of "
          "input {}.",
          array.shape(d), tensor.shape(d), d, index));
    }
  }
  const py::array contiguous = py::array::ensure(array, py::array::c_style);
  std::memcpy(tensors_[static_cast<size_t>(index)].mutable_data(), contiguous.data(),
              static_cast<size_t>(contiguous.nbytes()));
}

py::array Interpreter::getTensor(int index) const {
  return allocatedTensor(index).attr("copy")();
}

py::array Interpreter::tensorView(int index) const {
  return allocatedTensor(index).attr("view")();
}

void Interpreter::copyInputs() {
  for (size_t i = 0; i < model_->inputs().size(); ++i) {
    const auto* data = static_cast<const uint8_t*>(tensors_[i].data());
    staging_.assign(data, data + tensors_[i].nbytes());
    unwrap(runner_->setInput(i, staging_));
  }
}

void Interpreter::copyOutputs() {
  const size_t first = model_->inputs().size();
  for (size_t i = 0; i < runner_->outputs().size(); ++i) {
    const tools::TensorDesc& desc = runner_->outputs()[i];
    py::array& tensor = tensors_[first + i];
    if (!sameShape(tensor, desc.dims)) tensor = newTensor(desc.type, desc.dims);
    const std::span<const uint8_t> bytes = runner_->outputData(i);
    std::memcpy(tensor.mutable_data(), bytes.data(),
                std::min(bytes.size(), static_cast<size_t>(tensor.nbytes())));
  }
}

void Interpreter::invoke() {
  auto lock = lockExecution();
  if (tensors_.empty()) {
    throw std::runtime_error(
        "Invoke called before the tensors were allocated: call allocate_tensors() first (and "
        "again after resize_tensor_input)");
  }
  if (!runner_) compile();  // released by get_op_profile()
  copyInputs();
  Result<void> done;
  {
    py::gil_scoped_release release;
    timing_.startNs = monotonicNs();
    done = runner_->run();
    timing_.endNs = monotonicNs();
  }
  unwrap(done);
  ++timing_.invokes;
  copyOutputs();
}

void Interpreter::resizeTensorInput(int index, const py::object& shape, bool strict) {
  if (index < 0 || static_cast<size_t>(index) >= model_->inputs().size()) {
    throw py::value_error(fmt::format("tensor {} is not an input of the model", index));
  }
  const auto dims = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(shape);
  if (!dims || dims.ndim() != 1) throw py::value_error("the new shape must be a 1-D list of sizes");
  std::vector<std::vector<uint32_t>> shapes;
  for (const auto& input : model_->inputs()) shapes.push_back(input.dims);
  std::vector<uint32_t>& resized = shapes[static_cast<size_t>(index)];
  resized.clear();
  for (py::ssize_t d = 0; d < dims.size(); ++d) {
    if (dims.at(d) < 1) {
      throw py::value_error(fmt::format("dimension {} of the new shape is {}", d, dims.at(d)));
    }
    resized.push_back(static_cast<uint32_t>(dims.at(d)));
  }
  auto lock = lockExecution();
  import(shapes, strict);
}

std::vector<OperationTime> Interpreter::operationProfile() {
  const std::string file = profileFile();
  auto lock = lockExecution();
  // The runtime writes a compilation's profile when it is freed; the next
  // invoke compiles again.
  runner_.reset();
  compilation_.reset();
  return readOperationTimes(file, *model_);
}

}  // namespace annrt::python
