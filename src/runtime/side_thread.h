// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A warm start reads every byte of a model's weights twice before its first
// inference (the constants' digests that find the cache entry, the entry's
// payload checksum), and while an application starts the other core of a
// small board is usually idle: those passes are cut into pieces that the
// calling thread and a thread of their own take in turn (docs/caching.md has
// the measurements).
#pragma once

#include <cstddef>
#include <functional>

namespace annrt::runtime {

// From this many bytes a pass is shared: starting a thread cost the caller
// 50-80 us on a Zen 3 VM; warm compilations with a 1-2 MB payload shared
// were 4-7% slower, with 5.5-6.4 MB up to 18% faster (docs/caching.md).
inline constexpr size_t kSharedPassBytes = size_t{4} << 20;

// The pieces a shared pass is cut into, where it can choose.
inline constexpr size_t kSharedPieceBytes = size_t{256} << 10;

// Calls piece(i) once for every i in [0, count), pieces of a pass over
// `bytes` bytes in all. From kSharedPassBytes, the calling thread and a
// thread started for it each take the next piece not yet taken, and the call
// returns when both are done; a thread that starts late finds the pieces
// taken. Below it, or where no thread can be started, the calling thread
// takes them all.
void runPiecesBeside(size_t count, size_t bytes, const std::function<void(size_t)>& piece);

}  // namespace annrt::runtime
