// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/result.h"

namespace annrt {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::NO_ERROR: return "NO_ERROR";
    case ErrorCode::OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case ErrorCode::INCOMPLETE: return "INCOMPLETE";
    case ErrorCode::UNEXPECTED_NULL: return "UNEXPECTED_NULL";
    case ErrorCode::BAD_DATA: return "BAD_DATA";
    case ErrorCode::OP_FAILED: return "OP_FAILED";
    case ErrorCode::BAD_STATE: return "BAD_STATE";
    case ErrorCode::UNMAPPABLE: return "UNMAPPABLE";
    case ErrorCode::OUTPUT_INSUFFICIENT_SIZE: return "OUTPUT_INSUFFICIENT_SIZE";
    case ErrorCode::UNAVAILABLE_DEVICE: return "UNAVAILABLE_DEVICE";
    case ErrorCode::MISSED_DEADLINE_TRANSIENT: return "MISSED_DEADLINE_TRANSIENT";
    case ErrorCode::MISSED_DEADLINE_PERSISTENT: return "MISSED_DEADLINE_PERSISTENT";
    case ErrorCode::RESOURCE_EXHAUSTED_TRANSIENT: return "RESOURCE_EXHAUSTED_TRANSIENT";
    case ErrorCode::RESOURCE_EXHAUSTED_PERSISTENT: return "RESOURCE_EXHAUSTED_PERSISTENT";
    case ErrorCode::DEAD_OBJECT: return "DEAD_OBJECT";
  }
  return "UNKNOWN_ERROR";
}

}  // namespace annrt
