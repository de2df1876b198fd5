// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// --delegate_serialize_token is free text; NNAPI caching takes exactly
// ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN (32) bytes. The token is hashed
// into 32 bytes (four independent 64-bit FNV-1a lanes, each finished with a
// SplitMix64 mix): equal tokens give equal keys, different tokens different
// keys with overwhelming probability. Not a cryptographic hash.
#pragma once

#include <android/NeuralNetworks.h>

#include <array>
#include <cstdint>
#include <string_view>

namespace annrt::client {

using CacheToken = std::array<uint8_t, ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN>;

CacheToken hashCacheToken(std::string_view token);

}  // namespace annrt::client
