// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The `annrt` Python module: `import annrt` in place of
// `import tflite_runtime.interpreter as tflite` and the rest of the program
// stays as it is.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "device_list.h"
#include "interpreter.h"
#include "op_profiling.h"

namespace py = pybind11;
using annrt::python::Interpreter;
using annrt::python::InterpreterOptions;

namespace {

// `devices` is a device name or a list of them.
std::optional<std::vector<std::string>> deviceNames(const py::object& devices) {
  if (devices.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(devices))
    return std::vector<std::string>{devices.cast<std::string>()};
  return devices.cast<std::vector<std::string>>();
}

std::unique_ptr<Interpreter> makeInterpreter(std::optional<std::string> modelPath,
                                             std::optional<py::bytes> modelContent,
                                             const py::object& experimentalDelegates,
                                             std::optional<int> numThreads,
                                             const py::object& devices,
                                             const std::optional<std::string>& cacheDir) {
  if (!experimentalDelegates.is_none() && py::len(experimentalDelegates) != 0) {
    throw py::value_error(
        "annrt runs the whole model itself: experimental_delegates is not supported");
  }
  InterpreterOptions options;
  options.modelPath = std::move(modelPath);
  if (modelContent) options.modelContent = std::string(*modelContent);
  options.numThreads = numThreads.value_or(-1);
  options.devices = deviceNames(devices);
  options.cacheDir = cacheDir.value_or("");
  return std::make_unique<Interpreter>(std::move(options));
}

void bindResults(py::module_& m) {
  using annrt::python::InvokeTiming;
  using annrt::python::OperationTime;
  py::class_<InvokeTiming>(m, "InvokeTiming",
                           "When the last invoke() computed (monotonic clock, GIL released)")
      .def_readonly("start_ns", &InvokeTiming::startNs)
      .def_readonly("end_ns", &InvokeTiming::endNs)
      .def_property_readonly("wall_ms",
                             [](const InvokeTiming& t) { return (t.endNs - t.startNs) / 1e6; })
      .def_readonly("invokes", &InvokeTiming::invokes)
      .def("__repr__", [](const InvokeTiming& t) {
        return fmt::format("InvokeTiming(wall_ms={:.3f}, invokes={})", (t.endNs - t.startNs) / 1e6,
                           t.invokes);
      });
  py::class_<OperationTime>(m, "OperationProfile", "Time one NNAPI operation took")
      .def_readonly("index", &OperationTime::index)
      .def_readonly("type", &OperationTime::type)
      .def_readonly("tflite_type", &OperationTime::tfliteType)
      .def_readonly("tflite_index", &OperationTime::tfliteIndex)
      .def_readonly("device", &OperationTime::device)
      .def_readonly("count", &OperationTime::count)
      .def_property_readonly("total_ms", [](const OperationTime& t) { return t.totalNs / 1e6; })
      .def_property_readonly("avg_ms",
                             [](const OperationTime& t) {
                               return t.count ? t.totalNs / 1e6 / static_cast<double>(t.count)
                                              : 0.0;
                             })
      .def("__repr__", [](const OperationTime& t) {
        return fmt::format(
            "OperationProfile(index={}, type='{}', tflite_type='{}', device='{}', "
            "count={}, total_ms={:.3f})",
            t.index, t.type, t.tfliteType, t.device, t.count, t.totalNs / 1e6);
      });
}

// TFLite's answer for a model without SignatureDefs (annrt's importer reads none).
py::object noSignatureRunner(const py::object& key) {
  throw py::value_error(fmt::format(
      "SignatureDef signature_key {} not found: the model has 0 signatures (annrt imports "
      "subgraph 0 without SignatureDefs; use get_input_details and set_tensor)",
      key.is_none() ? std::string("None") : py::str(key).cast<std::string>()));
}

void bindInterpreter(py::module_& m) {
  py::class_<Interpreter>(m, "Interpreter", "tflite_runtime.interpreter.Interpreter on annrt")
      .def(py::init(&makeInterpreter), py::arg("model_path") = py::none(),
           py::arg("model_content") = py::none(), py::arg("experimental_delegates") = py::none(),
           py::arg("num_threads") = py::none(), py::arg("devices") = py::none(),
           py::arg("cache_dir") = py::none())
      .def("allocate_tensors", &Interpreter::allocateTensors)
      .def("get_input_details", &Interpreter::inputDetails)
      .def("get_output_details", &Interpreter::outputDetails)
      .def("set_tensor", &Interpreter::setTensor, py::arg("tensor_index"), py::arg("value"))
      .def("get_tensor_details",
           [](const Interpreter& self) {
             // annrt exposes only the model's inputs and outputs.
             py::list all = self.inputDetails();
             for (const py::handle details : self.outputDetails()) all.append(details);
             return all;
           })
      .def(
          "get_tensor",
          [](const Interpreter& self, int index, int subgraph) {
            if (subgraph != 0) {
              throw py::value_error(fmt::format(
                  "subgraph_index {}: annrt runs subgraph 0, the model's main graph", subgraph));
            }
            return self.getTensor(index);
          },
          py::arg("tensor_index"), py::arg("subgraph_index") = 0)
      .def(
          "tensor",
          [](const py::object& self, int index) {
            self.cast<Interpreter&>().tensorView(index);  // raises now on a bad index
            return py::cpp_function(
                [self, index]() { return self.cast<const Interpreter&>().tensorView(index); });
          },
          py::arg("tensor_index"))
      .def("invoke", &Interpreter::invoke)
      .def("resize_tensor_input", &Interpreter::resizeTensorInput, py::arg("input_index"),
           py::arg("tensor_size"), py::arg("strict") = false)
      .def("get_signature_list", [](const Interpreter&) { return py::dict(); })
      .def(
          "get_signature_runner",
          [](const Interpreter&, const py::object& key) { return noSignatureRunner(key); },
          py::arg("signature_key") = py::none())
      .def("last_invoke_timing", &Interpreter::lastInvokeTiming)
      .def("get_op_profile", &Interpreter::operationProfile);
}

}  // namespace

PYBIND11_MODULE(annrt, m) {
  m.doc() = "annrt: TensorFlow Lite's Interpreter API on annrt's NNAPI runtime";
  bindResults(m);
  bindInterpreter(m);
  m.def(
      "devices",
      [] {
        annrt::python::noteRuntimeUse();
        return annrt::python::deviceList();
      },
      "The NNAPI devices: [{name, type, feature_level, version}]");
  m.def("enable_op_profiling", &annrt::python::enableOperationProfiling,
        py::arg("path") = py::none(),
        "Turns on per-operation profiles (before the first Interpreter); returns the file");
}
