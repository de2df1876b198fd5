// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SHA-256's compression function over whole 64-byte blocks, on the CPU's
// SHA extensions when it has them (x86-64 SHA-NI, checked at run time) and
// in portable C++ otherwise. The automatic cache's key hashes a model's
// whole structure on every compilation, and in software that was most of
// the model hash on a small model.
#pragma once

#include <cstddef>
#include <cstdint>

namespace annrt::runtime {

// Compresses `count` blocks into `state` (FIPS 180-4 section 6.2.2).
void sha256Blocks(uint32_t state[8], const uint8_t* blocks, size_t count);

// The same in portable C++ only (for tests and the speed figure).
void sha256BlocksPortable(uint32_t state[8], const uint8_t* blocks, size_t count);

// Which implementation sha256Blocks uses on this CPU: "sha-ni" or "portable".
const char* sha256Implementation();

}  // namespace annrt::runtime
