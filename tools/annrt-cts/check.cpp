// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace annrt::cts {
namespace {

// Tolerance for an output type; nullopt for types the checker does not support.
// BOOL8 is exact (atol = rtol = 0).
std::optional<Tolerance> toleranceFor(const Accuracy& accuracy, int32_t type) {
  switch (type) {
    case kFloat32:
    case kTensorFloat32: return accuracy.float32;
    case kFloat16:
    case kTensorFloat16: return accuracy.float16;
    case kInt32:
    case kTensorInt32: return accuracy.int32;
    case kTensorQuant8Asymm: return accuracy.quant8Asymm;
    case kTensorQuant8AsymmSigned: return accuracy.quant8AsymmSigned;
    case kTensorQuant8Symm: return accuracy.quant8Symm;
    case kTensorQuant16Asymm: return accuracy.quant16Asymm;
    case kTensorQuant16Symm: return accuracy.quant16Symm;
    case kBool:
    case kTensorBool8: return Tolerance{0.0, 0.0};
    default: return std::nullopt;
  }
}

std::optional<CheckFailure> checkOneOutput(const TestCase& testCase, uint32_t outputIndex,
                                           const std::vector<uint8_t>& buffer) {
  const Operand& operand = testCase.main.operands[testCase.main.outputIndexes[outputIndex]];
  const std::optional<Tolerance> tolerance = toleranceFor(testCase.accuracy, operand.type);
  if (!tolerance) {
    return CheckFailure{
        fmt::format("output {}: data type {} not supported", outputIndex, operand.type)};
  }
  const size_t count = operand.data.size();
  if (buffer.size() < count * elementSize(operand.type)) {
    return CheckFailure{fmt::format("output {}: buffer too small", outputIndex)};
  }
  for (size_t i = 0; i < count; ++i) {
    const double expected = operand.data[i];
    const double actual = decodeElement(operand.type, buffer.data(), i);
    const double limit = tolerance->atol + tolerance->rtol * std::abs(expected);
    const bool exact = operand.type == kTensorBool8 || operand.type == kBool;
    const bool ok = exact ? actual == expected : std::abs(actual - expected) <= limit;
    if (!ok) {
      Mismatch mismatch{outputIndex, i, expected, actual, exact ? 0.0 : limit};
      return CheckFailure{fmt::format("output {} element {}: expected {}, got {} (tolerance {})",
                                      outputIndex, i, expected, actual, mismatch.tolerance),
                          mismatch};
    }
  }
  return std::nullopt;
}

constexpr int32_t kRandomMultinomial = 74;

// What the statistical check reads: the logits values and the sample tensor.
struct MultinomialOperands {
  const Operand* logits = nullptr;
  const Operand* samples = nullptr;
  uint32_t outputIndex = 0;  // execution output holding the samples
};

const Operation* onlyMultinomialOperation(const Subgraph& main) {
  const Operation* found = nullptr;
  for (const Operation& operation : main.operations) {
    if (operation.type != kRandomMultinomial) continue;
    if (found != nullptr) return nullptr;
    found = &operation;
  }
  return found != nullptr && !found->inputs.empty() && found->outputs.size() == 1 ? found : nullptr;
}

// The logits are input 0 of the RANDOM_MULTINOMIAL operation, wherever they
// sit among the model inputs; their values must be in the case (a model
// input or a constant) for the expected distribution to be known.
std::optional<MultinomialOperands> findMultinomial(const Subgraph& main, std::string* error) {
  const Operation* op = onlyMultinomialOperation(main);
  if (op == nullptr) {
    *error = "expected exactly one RANDOM_MULTINOMIAL operation";
    return std::nullopt;
  }
  const auto output =
      std::find(main.outputIndexes.begin(), main.outputIndexes.end(), op->outputs[0]);
  const Operand& logits = main.operands[op->inputs[0]];
  const Operand& samples = main.operands[op->outputs[0]];
  if (output == main.outputIndexes.end()) {
    *error = "the samples are not a model output";
  } else if (logits.dimensions.size() != 2 || samples.dimensions.size() != 2) {
    *error = "expected rank-2 logits and samples";
  } else if (logits.data.size() != size_t{logits.dimensions[0]} * logits.dimensions[1]) {
    *error = "the logits' values are not part of the case";
  } else {
    return MultinomialOperands{&logits, &samples,
                               static_cast<uint32_t>(output - main.outputIndexes.begin())};
  }
  return std::nullopt;
}

// softmax(logits[batch]) in double, shifted by the maximum so exp cannot overflow.
std::vector<double> softmaxRow(const Operand& logits, size_t batch) {
  const size_t classes = logits.dimensions[1];
  const auto first = logits.data.begin() + static_cast<std::ptrdiff_t>(batch * classes);
  const double max = *std::max_element(first, first + static_cast<std::ptrdiff_t>(classes));
  std::vector<double> probabilities(classes);
  double sum = 0.0;
  for (size_t c = 0; c < classes; ++c)
    sum += probabilities[c] = std::exp(first[static_cast<std::ptrdiff_t>(c)] - max);
  for (double& p : probabilities) p /= sum;
  return probabilities;
}

// Class counts of one batch row of the samples; error text for an index out of range.
std::optional<std::vector<size_t>> countClasses(const std::vector<uint8_t>& buffer, size_t batch,
                                                size_t samples, size_t classes,
                                                std::string* error) {
  std::vector<size_t> counts(classes, 0);
  for (size_t s = 0; s < samples; ++s) {
    const double index = decodeElement(kTensorInt32, buffer.data(), batch * samples + s);
    if (index < 0 || index >= static_cast<double>(classes)) {
      *error =
          fmt::format("batch {} sample {} is class {}, outside [0, {})", batch, s, index, classes);
      return std::nullopt;
    }
    ++counts[static_cast<size_t>(index)];
  }
  return counts;
}

// README: for each class, the fraction of samples equal to that class must be
// within the tolerance of softmax(logits) of that batch row.
std::optional<CheckFailure> checkMultinomial(const TestCase& testCase,
                                             const std::vector<std::vector<uint8_t>>& outputs) {
  std::string error;
  const auto found = findMultinomial(testCase.main, &error);
  if (!found) return CheckFailure{"multinomial check: " + error};
  const size_t batches = found->logits->dimensions[0];
  const size_t classes = found->logits->dimensions[1];
  const size_t samples = found->samples->dimensions[1];
  if (found->samples->dimensions[0] != batches || samples == 0 || classes == 0 ||
      found->outputIndex >= outputs.size() ||
      outputs[found->outputIndex].size() != batches * samples * sizeof(int32_t)) {
    return CheckFailure{"multinomial check: the samples do not hold batches x samples int32s"};
  }
  const double tolerance = testCase.multinomialTolerance;
  for (size_t b = 0; b < batches; ++b) {
    const auto counts = countClasses(outputs[found->outputIndex], b, samples, classes, &error);
    if (!counts) return CheckFailure{"multinomial check: " + error};
    const std::vector<double> expected = softmaxRow(*found->logits, b);
    for (size_t c = 0; c < classes; ++c) {
      const double frequency = static_cast<double>((*counts)[c]) / static_cast<double>(samples);
      if (std::abs(frequency - expected[c]) <= tolerance) continue;
      Mismatch mismatch{found->outputIndex, b * classes + c, expected[c], frequency, tolerance};
      return CheckFailure{fmt::format("multinomial check: batch {} class {}: frequency {} vs "
                                      "probability {} (tolerance {})",
                                      b, c, frequency, expected[c], tolerance),
                          mismatch};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<CheckFailure> checkOutputs(const TestCase& testCase,
                                         const std::vector<std::vector<uint8_t>>& outputs) {
  const Subgraph& main = testCase.main;
  for (uint32_t i = 0; i < main.outputIndexes.size() && i < outputs.size(); ++i) {
    if (main.operands[main.outputIndexes[i]].isIgnored) continue;
    if (auto failure = checkOneOutput(testCase, i, outputs[i])) return failure;
  }
  if (testCase.multinomialTolerance > 0.0) return checkMultinomial(testCase, outputs);
  return std::nullopt;
}

}  // namespace annrt::cts
