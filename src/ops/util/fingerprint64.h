// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// FarmHash's Fingerprint64: a 64-bit hash of a byte string that FarmHash
// promises never to change. LSH_PROJECTION's output is defined by it, so the
// values must agree bit for bit with every other NNAPI implementation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace annrt::ops {

uint64_t fingerprint64(std::span<const uint8_t> bytes);

}  // namespace annrt::ops
