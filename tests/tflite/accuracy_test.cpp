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

#include "model_runner.h"
#include "tflite/importer.h"

namespace annrt::tflite {
namespace {

namespace fs = std::filesystem;
constexpr double kTolerance = 5e-3;

fs::path modelsDir() {
  const char* env = std::getenv("ANNRT_MODELS_DIR");
  return env ? fs::path(env) : fs::path(ANNRT_SOURCE_DIR) / "models";
}

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

Figure compareOutput(const std::vector<uint8_t>& bytes, const nlohmann::json& reference) {
  const auto& values = reference["values"];
  const auto* actual = reinterpret_cast<const float*>(bytes.data());
  double maxDifference = 0, maxReference = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double expected = values[i].get<double>();
    maxReference = std::max(maxReference, std::abs(expected));
    const double difference = std::abs(actual[i] - expected);
    maxDifference = std::isnan(difference) ? INFINITY : std::max(maxDifference, difference);
  }
  return {maxDifference / std::max(1.0, maxReference), maxDifference,
          maxReference > 0 ? maxDifference / maxReference : maxDifference,
          reference["name"].get<std::string>()};
}

// A model and where it runs: one device alone, or (empty) the runtime's own
// plan, in which annrt-cpu and any plug-in take the operations they claim.
using AccuracyCase = std::tuple<const char*, const char*>;

class AccuracyTest : public ::testing::TestWithParam<AccuracyCase> {};

TEST_P(AccuracyTest, MatchesTensorFlowLite) {
  const std::string name = std::get<0>(GetParam());
  const std::string device = std::get<1>(GetParam());
  const fs::path model = modelsDir() / (name + ".tflite");
  if (!fs::exists(model)) GTEST_SKIP() << model << " not found: run scripts/fetch-models.sh";
  const fs::path referencePath = referenceDir() / (name + ".json");
  if (!fs::exists(referencePath)) {
    const std::string reason = skipReason();
    GTEST_SKIP() << "no TFLite reference " << referencePath << ": "
                 << (reason.empty() ? "run scripts/oracle-reference.sh" : reason);
  }
  nlohmann::json reference = nlohmann::json::parse(std::ifstream(referencePath));
  auto imported = importFile(model.string());
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const ImportedModel& m = **imported;
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t k = 0; k < m.inputs().size(); ++k) {
    inputs.push_back(testing::oracleInput(m.inputs()[k], k));
  }
  auto outputs = testing::runModel(m.model(), inputs, m.outputs(), device);
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  ASSERT_EQ(outputs->size(), reference["outputs"].size());
  Figure worst;
  for (size_t i = 0; i < outputs->size(); ++i) {
    ASSERT_EQ(m.outputs()[i].type, ANEURALNETWORKS_TENSOR_FLOAT32);
    const auto& expected = reference["outputs"][i];
    ASSERT_EQ((*outputs)[i].size() / 4, expected["values"].size()) << "output " << i;
    const Figure figure = compareOutput((*outputs)[i], expected);
    EXPECT_LE(figure.error, kTolerance)
        << name << " output " << figure.output << ": max abs difference " << figure.absolute;
    if (figure.error >= worst.error) worst = figure;
  }
  std::cout << fmt::format(
      "[ accuracy ] {} on {}: worst max|annrt-TFLite|/max(1,max|TFLite|) = {:.3e} "
      "(output '{}', max abs difference {:.3e} = {:.3e} of max|TFLite|; limit {:.0e})\n",
      name, device.empty() ? "the default plan" : device, worst.error, worst.output, worst.absolute,
      worst.relative, kTolerance);
}

// The selfie segmentation references come from their builtin TRANSPOSE_CONV
// variants (see scripts/oracle-reference.sh).
constexpr const char* kModels[] = {
    "face_detection_short_range", "face_detection_full_range", "face_detection_full_range_sparse",
    "hand_landmark_lite",         "hand_landmark_full",        "pose_landmark_lite",
    "pose_landmark_full",         "selfie_segmentation",       "selfie_segmentation_landscape",
};

INSTANTIATE_TEST_SUITE_P(DefaultModels, AccuracyTest,
                         ::testing::Combine(::testing::ValuesIn(kModels),
                                            ::testing::Values("nnapi-reference", "")),
                         [](const auto& info) {
                           const std::string device = std::get<1>(info.param);
                           return std::string(std::get<0>(info.param)) + "_" +
                                  (device.empty() ? std::string("DefaultPlan")
                                                  : std::string("Reference"));
                         });

}  // namespace
}  // namespace annrt::tflite
