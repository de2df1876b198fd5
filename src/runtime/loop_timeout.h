// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// WHILE loop timeouts, as the NNAPI spec fixes them (feature level 4).
#pragma once

#include <cstdint>

namespace annrt::runtime {

inline constexpr uint64_t kDefaultLoopTimeoutNs = 2'000'000'000;   // 2 s
inline constexpr uint64_t kMaximumLoopTimeoutNs = 15'000'000'000;  // 15 s

}  // namespace annrt::runtime
