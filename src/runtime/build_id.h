// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The GNU build ID of the library holding the runtime (and its in-tree
// devices): a hash the linker computes over the code, so any change of the
// code changes it. Compilation cache keys include it, so that a build never
// reads entries another build wrote, even with the same version number
// (annrt-cpu's serialized form may change between commits).
#pragma once

#include <string>

namespace annrt::runtime {

// Hex digits of the build ID; empty when the library has none (linked
// without --build-id), in which case keys rely on the version alone.
const std::string& runtimeBuildId();

}  // namespace annrt::runtime
