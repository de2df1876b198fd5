// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cts's reader of the JSON conformance cases (test_case.h), and what
// annrt-cts then does with a case before any NNAPI call: the coupling
// rewrite, the main operation's name, the operands' data encoded and read
// back. Malformed JSON or values must be exceptions, never crashes.
#include <exception>
#include <string_view>

#include "annrt-cts/test_case.h"

namespace {

void useCase(const annrt::cts::TestCase& testCase) {
  (void)annrt::cts::mainOperationName(testCase);
  (void)annrt::cts::makeQuantizationCoupling(testCase);
  for (const annrt::cts::Operand& operand : testCase.main.operands) {
    const auto bytes = annrt::cts::encodeData(operand.type, operand.data);
    const size_t element = annrt::cts::elementSize(operand.type);
    for (size_t i = 0; element > 0 && i < bytes.size() / element; ++i) {
      (void)annrt::cts::decodeElement(operand.type, bytes.data(), i);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& testCase : annrt::cts::parseTestCases(text)) useCase(testCase);
  } catch (const std::exception&) {
    // Malformed input is reported as an exception: what annrt-cts expects.
  }
  return 0;
}
