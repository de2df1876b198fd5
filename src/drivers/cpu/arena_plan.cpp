// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/arena_plan.h"

#include <algorithm>

namespace annrt::cpu {
namespace {

// The lowest offset where `tensor` fits beside those placed whose spans
// overlap its own.
size_t firstFit(const ArenaTensor& tensor, const std::vector<const ArenaTensor*>& placed) {
  std::vector<const ArenaTensor*> overlapping;
  for (const ArenaTensor* other : placed) {
    if (other->first <= tensor.last && tensor.first <= other->last) overlapping.push_back(other);
  }
  std::sort(overlapping.begin(), overlapping.end(),
            [](const ArenaTensor* a, const ArenaTensor* b) { return a->offset < b->offset; });
  size_t offset = 0;
  for (const ArenaTensor* other : overlapping) {
    if (offset + tensor.size <= other->offset) break;
    offset = std::max(offset, other->offset + other->size);
  }
  return offset;
}

}  // namespace

size_t planArena(std::vector<ArenaTensor>& tensors) {
  std::vector<ArenaTensor*> bySize;
  bySize.reserve(tensors.size());
  for (ArenaTensor& tensor : tensors) bySize.push_back(&tensor);
  std::stable_sort(bySize.begin(), bySize.end(), [](const ArenaTensor* a, const ArenaTensor* b) {
    return a->size != b->size ? a->size > b->size : a->first < b->first;
  });
  std::vector<const ArenaTensor*> placed;
  size_t total = 0;
  for (ArenaTensor* tensor : bySize) {
    tensor->offset = firstFit(*tensor, placed);
    total = std::max(total, tensor->offset + tensor->size);
    placed.push_back(tensor);
  }
  return total;
}

}  // namespace annrt::cpu
