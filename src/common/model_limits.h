// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Limits on what a model may hold, one place for the runtime, the importer
// and the executors (docs/limits.md). Models come from untrusted files and
// callers, so every count or size that would size an allocation or a
// recursion is checked against these before it is used. They are far above
// what real models need: Android's runtime has only the 32-bit limits
// (operand and operation counts below 2^32 - 1, tensors below 2^32 bytes),
// and no NNAPI operation takes a tensor of rank over 6.
#pragma once

#include <cstdint>

namespace annrt::limits {

// Dimensions of one operand (a model's, or one given at execution).
inline constexpr uint32_t kMaxRank = 32;
// Operands, and operations, of one subgraph.
inline constexpr uint32_t kMaxOperands = 1u << 20;
inline constexpr uint32_t kMaxOperations = 1u << 20;
// Inputs, and outputs, of one operation or one subgraph.
inline constexpr uint32_t kMaxArity = 1u << 16;
// IF and WHILE nest subgraphs; executors recurse once per level.
inline constexpr uint32_t kMaxSubgraphDepth = 32;
// Subgraphs referenced by one model, after finish flattens the models it
// references (distinct models referencing the same one each bring a copy).
inline constexpr uint32_t kMaxReferencedSubgraphs = 1u << 12;
// One tensor's bytes, at compile time for known dims and at run time for
// dims computed while executing (as Android: the size must fit in 32 bits).
inline constexpr uint64_t kMaxTensorBytes = (uint64_t{1} << 32) - 1;

}  // namespace annrt::limits
