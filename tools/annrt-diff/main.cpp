// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-diff: like TFLite's inference_diff. Runs a model on a reference device
// and on a test device with the same pseudo-random inputs, --num_runs times,
// and reports each side's average latency and, per output, the max, min,
// average and standard deviation of |reference - test| over all values of
// all runs.

#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>

#include "devices.h"
#include "diff_params.h"
#include "diff_side.h"
#include "diff_stats.h"
#include "input_data.h"
#include "tensor_values.h"
#include "tool_log.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

struct Sides {
  std::unique_ptr<DiffSide> reference;
  std::unique_ptr<DiffSide> test;
};

Result<DeviceSelection> testSelection(const std::vector<DeviceInfo>& devices,
                                      const std::string& testDevice) {
  if (testDevice.empty()) return DeviceSelection{};
  return selectDevices(devices, testDevice, false, "--test_device");
}

Result<Sides> createSides(const DiffParams& params, const InputLayerFlags& inputLayers) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<DeviceInfo> devices, listDevices());
  ANNRT_ASSIGN_OR_RETURN(
      DeviceSelection referenceDevices,
      selectDevices(devices, params.referenceDevice, false, "--reference_device"));
  ANNRT_ASSIGN_OR_RETURN(DeviceSelection testDevices, testSelection(devices, params.testDevice));
  ModelSourceOptions options;
  options.inputShapes = inputLayers.shapes;
  ANNRT_ASSIGN_OR_RETURN(std::shared_ptr<ModelSource> referenceModel,
                         openModelSource(params.graph, options));
  std::shared_ptr<ModelSource> testModel = referenceModel;
  if (params.nnapiAllowFp16) {
    options.relaxFloat32toFloat16 = true;
    ANNRT_ASSIGN_OR_RETURN(testModel, openModelSource(params.graph, options));
  }
  Sides sides;
  ANNRT_ASSIGN_OR_RETURN(sides.reference, DiffSide::create("Reference", referenceModel,
                                                           referenceDevices, inputLayers));
  ANNRT_ASSIGN_OR_RETURN(sides.test, DiffSide::create("Test", testModel, testDevices, inputLayers));
  return sides;
}

Result<void> setRandomInputs(Sides& sides, int32_t run) {
  const std::vector<TensorDesc>& inputs = sides.reference->runner->inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                           randomTensorData(inputs[i], static_cast<uint64_t>(run) * 1000 + i));
    ANNRT_RETURN_IF_ERROR(sides.reference->runner->setInput(i, bytes));
    ANNRT_RETURN_IF_ERROR(sides.test->runner->setInput(i, bytes));
  }
  return {};
}

Result<void> compareOutputs(const Sides& sides, std::vector<DiffStat>& stats) {
  const ModelRunner& reference = *sides.reference->runner;
  const ModelRunner& test = *sides.test->runner;
  for (size_t i = 0; i < stats.size(); ++i) {
    ANNRT_ASSIGN_OR_RETURN(std::vector<double> expected,
                           tensorValues(reference.outputs()[i], reference.outputData(i)));
    ANNRT_ASSIGN_OR_RETURN(std::vector<double> actual,
                           tensorValues(test.outputs()[i], test.outputData(i)));
    auto added = stats[i].add(expected, actual);
    if (!added.ok()) return toolError("output {}: {}", i, added.error().message);
  }
  return {};
}

Result<std::vector<DiffStat>> runAll(Sides& sides, int32_t numRuns) {
  std::vector<DiffStat> stats(sides.reference->runner->outputs().size());
  for (int32_t run = 0; run < numRuns; ++run) {
    ANNRT_RETURN_IF_ERROR(setRandomInputs(sides, run));
    ANNRT_RETURN_IF_ERROR(sides.reference->runTimed());
    ANNRT_RETURN_IF_ERROR(sides.test->runTimed());
    ANNRT_RETURN_IF_ERROR(compareOutputs(sides, stats));
  }
  return stats;
}

// Prints the report; returns whether every output is within maxAllowedError.
bool report(const DiffParams& params, const Sides& sides, const std::vector<DiffStat>& stats) {
  logInfo("Num evaluation runs: " + std::to_string(params.numRuns));
  logInfo("Reference device: " + describeSelection(sides.reference->selection));
  logInfo("Test device: " + describeSelection(sides.test->selection));
  logInfo(latencyLine("Reference", sides.reference->latencyUs));
  logInfo(latencyLine("Test", sides.test->latencyUs));
  bool withinTolerance = true;
  for (size_t i = 0; i < stats.size(); ++i) {
    logInfo(outputDiffLine(i, sides.reference->model->outputs()[i].name, stats[i]));
    if (params.maxAllowedError >= 0 && !(stats[i].max() <= params.maxAllowedError)) {
      withinTolerance = false;
    }
  }
  return withinTolerance;
}

Result<bool> diffMain(const DiffParams& params) {
  ANNRT_RETURN_IF_ERROR(validateDiffParams(params));
  ANNRT_ASSIGN_OR_RETURN(InputLayerFlags inputLayers,
                         parseInputLayerFlags(params.inputLayer, params.inputLayerShape, ""));
  ANNRT_ASSIGN_OR_RETURN(Sides sides, createSides(params, inputLayers));
  ANNRT_ASSIGN_OR_RETURN(std::vector<DiffStat> stats, runAll(sides, params.numRuns));
  const bool ok = report(params, sides, stats);
  if (!ok) logError("an output differs by more than --max_allowed_error");
  return ok;
}

}  // namespace
}  // namespace annrt::tools

namespace {

int runDiffTool(int argc, char** argv) {
  using namespace annrt::tools;
  DiffParams params;
  FlagSet flags;
  registerDiffFlags(flags, params);
  if (auto parsed = flags.parse(argc, argv); !parsed.ok()) {
    logError(parsed.error().message);
    return 1;
  }
  if (params.help) {
    std::cout << "Usage: annrt-diff --graph=MODEL [--flag=value ...]\n"
                 "Compares a model's outputs on a test device against a reference device.\n"
              << flags.usage();
    return 0;
  }
  auto result = diffMain(params);
  if (!result.ok()) {
    logError(result.error().message);
    return 1;
  }
  return *result ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runDiffTool(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "annrt-diff: %s\n", e.what());
    return 1;
  }
}
