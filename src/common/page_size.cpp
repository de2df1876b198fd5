// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "common/page_size.h"

#include <unistd.h>

namespace annrt {

size_t pageSize() {
  static const auto size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace annrt
