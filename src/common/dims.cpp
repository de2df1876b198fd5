// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/dims.h"

#include "common/types.h"

namespace annrt {

Result<std::vector<uint32_t>> combineDims(const std::vector<uint32_t>& a,
                                          const std::vector<uint32_t>& b) {
  if (b.empty()) return a;
  if (a.empty()) return b;
  ANNRT_CHECK(a.size() == b.size(), "ranks of {} and {} differ", toString(a), toString(b));
  std::vector<uint32_t> merged = a;
  for (size_t i = 0; i < a.size(); ++i) {
    ANNRT_CHECK(a[i] == 0 || b[i] == 0 || a[i] == b[i], "dimensions {} and {} conflict",
                toString(a), toString(b));
    if (merged[i] == 0) merged[i] = b[i];
  }
  return merged;
}

}  // namespace annrt
