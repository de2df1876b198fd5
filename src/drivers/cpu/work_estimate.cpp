// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/work_estimate.h"

#include <cstdlib>

#include "common/log.h"

namespace annrt::cpu {
namespace {

// Multiply-adds per output element of the operations dominated by them.
double macsPerOutput(const Model& model, const Operation& op) {
  const auto& operands = model.main.operands;
  auto dims = [&](uint32_t input) -> const std::vector<uint32_t>& {
    return operands[op.inputs[input]].shape.dims;
  };
  switch (op.type) {
    // Filters [out, h, w, in] (in / groups for GROUPED_CONV_2D).
    case OperationType::CONV_2D:
    case OperationType::GROUPED_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D:
      return dims(1).size() == 4 ? double(dims(1)[1]) * dims(1)[2] * dims(1)[3] : 1;
    case OperationType::DEPTHWISE_CONV_2D:  // filter [1, h, w, out]
      return dims(1).size() == 4 ? double(dims(1)[1]) * dims(1)[2] : 1;
    case OperationType::FULLY_CONNECTED:  // weights [out, in]
      return dims(1).size() == 2 ? double(dims(1)[1]) : 1;
    default: return 0;
  }
}

bool becomesNode(OperationType type) {
  switch (type) {
    case OperationType::CAST:  // folded float16 weights
    case OperationType::RESHAPE:
    case OperationType::SQUEEZE:
    case OperationType::EXPAND_DIMS: return false;
    default: return true;
  }
}

}  // namespace

double operationMflop(const Model& model, const Operation& op) {
  if (!becomesNode(op.type) || op.outputs.empty()) return 0;
  const double outputs =
      static_cast<double>(elementCount(model.main.operands[op.outputs[0]].shape));
  const double macs = macsPerOutput(model, op);
  return (macs > 0 ? 2 * macs * outputs : outputs) / 1e6;
}

double operationMicros(const Model& model, const Operation& op) {
  constexpr double kConvolutionMflopPerUs = 0.1, kDepthwiseMflopPerUs = 0.02;
  constexpr double kElementsPerUs = 7000;
  const double mflop = operationMflop(model, op);
  switch (op.type) {
    case OperationType::CONV_2D:
    case OperationType::GROUPED_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D:
    case OperationType::FULLY_CONNECTED: return mflop / kConvolutionMflopPerUs;
    case OperationType::DEPTHWISE_CONV_2D: return mflop / kDepthwiseMflopPerUs;
    default: return mflop * 1e6 / kElementsPerUs;  // mflop counts output elements
  }
}

double handOffMicros() {
  const char* value = std::getenv("ANNRT_CPU_HANDOFF_US");
  if (value == nullptr || *value == '\0') return kDefaultHandOffMicros;
  char* end = nullptr;
  const double parsed = std::strtod(value, &end);
  if (*end != '\0' || !(parsed >= 0)) {
    logWarning("ignoring ANNRT_CPU_HANDOFF_US={}: not a non-negative number", value);
    return kDefaultHandOffMicros;
  }
  return parsed;
}

}  // namespace annrt::cpu
