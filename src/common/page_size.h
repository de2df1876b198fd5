// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The kernel's page size, read once: mappings (arenas, shared memories,
// cache files, the driver host's buffers) are placed and sized in pages.
#pragma once

#include <cstddef>

namespace annrt {

size_t pageSize();

}  // namespace annrt
