// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A fast non-cryptographic 128-bit hash of bulk data: the automatic cache
// hashes every constant of a model (tens of MB) on each compilation to find
// its entry, which SHA-256 in software would make cost more than the cache
// saves. Built as XXH3's long-input loop is: eight 64-bit accumulators take
// a 64-byte stripe at a time, each word XORed with a key and its two 32-bit
// halves multiplied into its own accumulator and the word itself added to
// its neighbour's (so a product of zero loses nothing); every 16 stripes
// (1 KB) each accumulator is scrambled by a bijection. The keys and
// constants are annrt's own. The accumulators and the length then fold
// into two 64-bit halves (docs/caching.md). Not meant to resist a
// chosen-input attacker, only accidental collisions.
//
// The digest depends on the bytes alone: every kernel computes the same
// one, on every CPU, so cache keys made on one machine are found on
// another.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace annrt::runtime {

using Hash128 = std::array<uint8_t, 16>;

// With the fastest kernel this CPU has.
Hash128 hash128(std::span<const uint8_t> data);

// Portable C++ (every CPU), or AVX2 (x86-64 with it; 3-5x the portable
// code's speed on an AMD Zen 4, docs/caching.md).
enum class Hash128Kernel { PORTABLE, AVX2 };

// The kernels this CPU can run, slowest first (PORTABLE always).
std::vector<Hash128Kernel> hash128KernelsOnThisCpu();
// hash128 with `kernel`, which must be one of hash128KernelsOnThisCpu().
Hash128 hash128With(Hash128Kernel kernel, std::span<const uint8_t> data);
// "portable" or "avx2".
const char* hash128KernelName(Hash128Kernel kernel);

}  // namespace annrt::runtime
