// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Imports each default model, runs it on nnapi-reference through the public
// NNAPI API with the tflite-oracle's deterministic inputs, and compares every
// output with real TensorFlow Lite's (JSON written by
// scripts/oracle-reference.sh): max|annrt - TFLite| <= 5e-3 * max(1, max|TFLite|).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "common/default_models.h"
#include "common/output_error.h"
#include "common/result.h"
#include "model_runner.h"
#include "tflite/importer.h"

namespace annrt::tflite {
namespace {

namespace fs = std::filesystem;
constexpr double kTolerance = test::kAccuracyTolerance;

using test::modelsDir;

fs::path referenceDir() {
  return ANNRT_TFLITE_REFERENCE_DIR;
}

std::string skipReason() {
  std::ifstream skipped(referenceDir() / "SKIPPED");
  std::string reason;
  std::getline(skipped, reason);
  return reason;
}

struct Figure {
  double error = 0;  // max|annrt - TFLite| / max(1, max|TFLite|)
  double absolute = 0;
  double relative = 0;  // max|annrt - TFLite| / max|TFLite|
  std::string output;
};

// Compares `count` values at `actual` with the reference output's values.
Figure compareOutput(const float* actual, size_t count, const nlohmann::json& reference) {
  const auto& values = reference["values"];
  EXPECT_EQ(count, values.size()) << "output " << reference["name"];
  test::OutputDifference d;
  for (size_t i = 0; i < values.size() && i < count; ++i) d.add(actual[i], values[i].get<double>());
  return {d.error(), d.maxDifference,
          d.maxReference > 0 ? d.maxDifference / d.maxReference : d.maxDifference,
          reference["name"].get<std::string>()};
}

// Every output of a run whose batch holds `batch` copies of the oracle's
// input against TFLite's outputs of one copy; returns the worst figure.
Figure compareOutputs(const std::string& name, const ImportedModel& model,
                      const std::vector<std::vector<uint8_t>>& outputs,
                      const nlohmann::json& reference, size_t batch) {
  EXPECT_EQ(outputs.size(), reference["outputs"].size());
  Figure worst;
  for (size_t i = 0; i < outputs.size() && i < reference["outputs"].size(); ++i) {
    EXPECT_EQ(model.outputs()[i].type, ANEURALNETWORKS_TENSOR_FLOAT32);
    const auto& expected = reference["outputs"][i];
    const size_t count = outputs[i].size() / sizeof(float) / batch;
    for (size_t copy = 0; copy < batch; ++copy) {
      const auto* values = reinterpret_cast<const float*>(outputs[i].data()) + copy * count;
      const Figure figure = compareOutput(values, count, expected);
      EXPECT_LE(figure.error, kTolerance) << name << " output " << figure.output << " batch "
                                          << copy << ": max abs difference " << figure.absolute;
      if (figure.error >= worst.error) worst = figure;
    }
  }
  return worst;
}

void printFigure(const std::string& what, const std::string& device, const Figure& worst) {
  std::cout << fmt::format(
      "[ accuracy ] {} on {}: worst max|annrt-TFLite|/max(1,max|TFLite|) = {:.3e} "
      "(output '{}', max abs difference {:.3e} = {:.3e} of max|TFLite|; limit {:.0e})\n",
      what, device.empty() ? "the default plan" : device, worst.error, worst.output, worst.absolute,
      worst.relative, kTolerance);
}

// TFLite's outputs of `name` (written by scripts/oracle-reference.sh), or
// why there are none.
Result<nlohmann::json> loadReference(const std::string& name) {
  const fs::path referencePath = referenceDir() / (name + ".json");
  if (!fs::exists(referencePath)) {
    const std::string reason = skipReason();
    return makeError(ErrorCode::BAD_DATA, "no TFLite reference {}: {}", referencePath.string(),
                     reason.empty() ? "run scripts/oracle-reference.sh" : reason);
  }
  return nlohmann::json::parse(std::ifstream(referencePath));
}

// The oracle's inputs, each repeated `batch` times along the batch.
std::vector<std::vector<uint8_t>> oracleInputs(const std::vector<TensorInfo>& inputs,
                                               size_t batch) {
  std::vector<std::vector<uint8_t>> data;
  for (size_t k = 0; k < inputs.size(); ++k) {
    TensorInfo one = inputs[k];
    one.dims[0] = 1;
    const std::vector<uint8_t> copy = testing::oracleInput(one, k);
    std::vector<uint8_t> bytes;
    for (size_t b = 0; b < batch; ++b) bytes.insert(bytes.end(), copy.begin(), copy.end());
    data.push_back(std::move(bytes));
  }
  return data;
}

// Where a model runs: one device alone, or (empty) the runtime's own plan,
// in which annrt-cpu and any plug-in take the operations they claim; on
// `threads` threads (0: the devices' choice; one thread is a plan of its own
// in annrt-cpu: no pool, band pairs through windows of rows).
struct Placement {
  const char* device;
  uint32_t threads;
  const char* label;
};

constexpr Placement kPlacements[] = {
    {"nnapi-reference", 0, "Reference"},
    {"", 0, "DefaultPlan"},
    {"", 1, "OneThreadPlan"},
};

// A model and where it runs.
using AccuracyCase = std::tuple<const char*, Placement>;

class AccuracyTest : public ::testing::TestWithParam<AccuracyCase> {};

TEST_P(AccuracyTest, MatchesTensorFlowLite) {
  const std::string name = std::get<0>(GetParam());
  const Placement& placement = std::get<1>(GetParam());
  const std::string device = placement.device;
  const fs::path model = modelsDir() / (name + ".tflite");
  if (!fs::exists(model)) GTEST_SKIP() << model << " not found: run scripts/fetch-models.sh";
  auto reference = loadReference(name);
  if (!reference.ok()) GTEST_SKIP() << reference.error().message;
  auto imported = importFile(model.string());
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& m = **imported;
  auto outputs = testing::runModel(m.model(), oracleInputs(m.inputs(), 1), m.outputs(), device,
                                   placement.threads);
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  const std::string what = placement.threads == 0
                               ? name
                               : fmt::format("{} ({} thread{})", name, placement.threads,
                                             placement.threads == 1 ? "" : "s");
  printFigure(what, device, compareOutputs(name, m, *outputs, *reference, 1));
}

// The default model with a dynamic batch (input shape_signature[0] = -1,
// written by tflite_dynamic_batch): imported with no options it runs at the
// declared batch 1 and matches TFLite's outputs of the same file; resized to
// batch 2 with the oracle's input twice, each half matches them too.
using DynamicBatchCase = std::tuple<const char*, const char*, uint32_t>;

class DynamicBatchAccuracyTest : public ::testing::TestWithParam<DynamicBatchCase> {};

TEST_P(DynamicBatchAccuracyTest, MatchesTensorFlowLite) {
  const std::string name = std::get<0>(GetParam());
  const std::string device = std::get<1>(GetParam());
  const uint32_t batch = std::get<2>(GetParam());
  const fs::path model = referenceDir() / "dynamic" / (name + ".tflite");
  auto reference = loadReference(name + "_dynamic_batch");
  if (!reference.ok()) GTEST_SKIP() << reference.error().message;
  ASSERT_TRUE(fs::exists(model)) << model << " was not written by scripts/oracle-reference.sh";
  ImportOptions options;
  if (batch != 1) {
    auto declared = importFile(model.string());
    ASSERT_TRUE(declared.ok()) << declared.error().message;
    for (const TensorInfo& input : (*declared)->inputs()) {
      options.inputShapes.push_back(input.dims);
      options.inputShapes.back()[0] = batch;
    }
  }
  auto imported = importFile(model.string(), options);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& m = **imported;
  for (const TensorInfo& input : m.inputs()) {
    ASSERT_EQ(input.signature.at(0), -1) << "input " << input.name << " has no dynamic batch";
    ASSERT_EQ(input.dims.at(0), batch);
  }
  for (const TensorInfo& output : m.outputs()) {
    ASSERT_EQ(output.byteSize() != 0, true) << "output " << output.name << " has unknown dims";
  }
  auto outputs = testing::runModel(m.model(), oracleInputs(m.inputs(), batch), m.outputs(), device);
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  printFigure(fmt::format("{} (dynamic batch, run at {})", name, batch), device,
              compareOutputs(name, m, *outputs, *reference, batch));
}

// The selfie segmentation references come from their builtin TRANSPOSE_CONV
// variants (see scripts/oracle-reference.sh).
constexpr const char* kModels[] = {
    "face_detection_short_range", "face_detection_full_range", "face_detection_full_range_sparse",
    "hand_landmark_lite",         "hand_landmark_full",        "pose_landmark_lite",
    "pose_landmark_full",         "selfie_segmentation",       "selfie_segmentation_landscape",
};

std::string deviceLabel(const std::string& device) {
  return device.empty() ? "DefaultPlan" : "Reference";
}

INSTANTIATE_TEST_SUITE_P(DefaultModels, AccuracyTest,
                         ::testing::Combine(::testing::ValuesIn(kModels),
                                            ::testing::ValuesIn(kPlacements)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param)) + "_" +
                                  std::get<1>(info.param).label;
                         });

std::string dynamicBatchName(const ::testing::TestParamInfo<DynamicBatchCase>& info) {
  return fmt::format("{}_{}_Batch{}", std::get<0>(info.param), deviceLabel(std::get<1>(info.param)),
                     std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(DefaultModels, DynamicBatchAccuracyTest,
                         ::testing::Combine(::testing::ValuesIn(kModels),
                                            ::testing::Values("nnapi-reference", ""),
                                            ::testing::Values(1u)),
                         dynamicBatchName);

// At batch 2, each batch of the outputs is one input's: not so for
// face_detection_short_range, whose RESHAPEs to [1,-1,16] and [1,-1,1] fold
// the batch into the anchors (TFLite computes the same [1,1792,16]).
constexpr const char* kPerBatchModels[] = {
    "face_detection_full_range", "face_detection_full_range_sparse",
    "hand_landmark_lite",        "hand_landmark_full",
    "pose_landmark_lite",        "pose_landmark_full",
    "selfie_segmentation",       "selfie_segmentation_landscape",
};

INSTANTIATE_TEST_SUITE_P(PerBatchModels, DynamicBatchAccuracyTest,
                         ::testing::Combine(::testing::ValuesIn(kPerBatchModels),
                                            ::testing::Values("nnapi-reference", ""),
                                            ::testing::Values(2u)),
                         dynamicBatchName);

}  // namespace
}  // namespace annrt::tflite
