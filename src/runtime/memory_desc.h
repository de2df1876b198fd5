// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksMemoryDesc: describes a device memory by the compilation
// inputs and outputs it will serve; their operand types must agree.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "runtime/compilation.h"
#include "runtime/memory.h"

namespace annrt::runtime {

class MemoryDescBuilder {
 public:
  Result<void> addRole(std::shared_ptr<const Compilation> compilation, uint32_t index, bool isInput,
                       float frequency);
  Result<void> setDimensions(std::span<const uint32_t> dims);
  Result<void> finish();
  Result<std::shared_ptr<Memory>> createMemory() const;

 private:
  Result<void> checkModifiable() const;
  Result<void> mergeDims(const std::vector<uint32_t>& dims);

  std::optional<Shape> shape_;
  std::vector<uint32_t> dims_;  // empty: rank unknown
  std::vector<MemoryRole> roles_;
  // Keeps the compilations alive while their memories may be used with them.
  std::vector<std::shared_ptr<const Compilation>> compilations_;
  bool finished_ = false;
};

}  // namespace annrt::runtime
