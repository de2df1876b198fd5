// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "check.h"

#include <fmt/format.h>

#include <cmath>

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

// README: for each class, the fraction of samples equal to that class must be
// within the tolerance of softmax(logits) computed from the input.
std::optional<CheckFailure> checkMultinomial(const TestCase& testCase,
                                             const std::vector<std::vector<uint8_t>>& outputs) {
  const Subgraph& main = testCase.main;
  if (main.inputIndexes.empty() || main.outputIndexes.size() != 1 || outputs.size() != 1) {
    return CheckFailure{"multinomial check: expected one logits input and one output"};
  }
  const Operand& input = main.operands[main.inputIndexes[0]];
  const Operand& output = main.operands[main.outputIndexes[0]];
  if (input.dimensions.size() != 2 || output.dimensions.size() != 2) {
    return CheckFailure{"multinomial check: expected rank-2 input and output"};
  }
  const size_t batches = input.dimensions[0];
  const size_t classes = input.dimensions[1];
  const size_t samples = output.dimensions[1];
  if (outputs[0].size() < batches * samples * sizeof(int32_t)) {
    return CheckFailure{"multinomial check: output buffer too small"};
  }
  for (size_t b = 0; b < batches; ++b) {
    std::vector<double> frequency(classes, 0.0);
    for (size_t s = 0; s < samples; ++s) {
      const double index = decodeElement(kTensorInt32, outputs[0].data(), b * samples + s);
      if (index < 0 || index >= static_cast<double>(classes)) {
        return CheckFailure{
            fmt::format("multinomial check: batch {} sample {} is class {}, "
                        "outside [0, {})",
                        b, s, index, classes)};
      }
      frequency[static_cast<size_t>(index)] += 1.0 / static_cast<double>(samples);
    }
    double sum = 0.0;
    for (size_t c = 0; c < classes; ++c) sum += std::exp(input.data[b * classes + c]);
    for (size_t c = 0; c < classes; ++c) {
      const double expected = std::exp(input.data[b * classes + c]) / sum;
      if (std::abs(frequency[c] - expected) > testCase.multinomialTolerance) {
        Mismatch mismatch{0, b * classes + c, expected, frequency[c],
                          testCase.multinomialTolerance};
        return CheckFailure{
            fmt::format("multinomial check: batch {} class {}: frequency {} vs "
                        "probability {} (tolerance {})",
                        b, c, frequency[c], expected, testCase.multinomialTolerance),
            mismatch};
      }
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
