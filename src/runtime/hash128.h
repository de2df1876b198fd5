// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A fast non-cryptographic 128-bit hash of bulk data: the automatic cache
// hashes every constant of a model (tens of MB) on each compilation to find
// its entry, which SHA-256 in software would make cost more than the cache
// saves. Four chains, each from its own start, take every fourth 16-byte
// block; in each, two 64-bit lanes with their own constants and their own
// pairing of the input words absorb a block through a 64x64->128 bit
// multiply folded to 64 bits. The chains' states then go, in order, into
// one more, and the digests into SHA-256 with the model's structure
// (modelContentHash). Not meant to resist a chosen-input
// attacker (see docs/caching.md), only accidental collisions.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace annrt::runtime {

using Hash128 = std::array<uint8_t, 16>;

Hash128 hash128(std::span<const uint8_t> data);

}  // namespace annrt::runtime
