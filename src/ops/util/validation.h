// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Signature checks shared by the operations' validate functions.
#pragma once

#include <initializer_list>

#include "ops/operation.h"

namespace annrt::ops {

// Exactly these input types, in order.
Result<void> validateInputTypes(const ValidationContext& context,
                                std::initializer_list<OperandType> types);
// Exactly these output types, in order.
Result<void> validateOutputTypes(const ValidationContext& context,
                                 std::initializer_list<OperandType> types);
Result<void> validateInputCount(const ValidationContext& context, uint32_t min, uint32_t max);
Result<void> validateOutputCount(const ValidationContext& context, uint32_t count);
// `type` is one of `allowed` (message names `what`).
Result<void> validateTypeIn(OperandType type, std::initializer_list<OperandType> allowed,
                            const char* what);
// Rank is known and at most `maxRank` (unknown rank passes).
Result<void> validateRankAtMost(const Shape& shape, uint32_t maxRank, const char* what);
// Rank is `expected` when known.
Result<void> validateRank(const Shape& shape, uint32_t expected, const char* what);
// For a quantized input: the output keeps its type; a float op keeps the float type.
bool isFloatTensor(OperandType type);   // TENSOR_FLOAT32 or TENSOR_FLOAT16
bool isQuant8Tensor(OperandType type);  // TENSOR_QUANT8_ASYMM or _ASYMM_SIGNED

}  // namespace annrt::ops
