// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Which operations of one model each device supports, asked of each device
// once per model. A compilation needs the answer twice (to check that every
// operation runs somewhere, then to partition), and asking annrt-cpu costs a
// conversion across the plug-in ABI and a trial lowering of every operation:
// on a warm start of a small model that was a third of the compile.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "common/device.h"

namespace annrt::runtime {

class SupportedOperations {
 public:
  explicit SupportedOperations(const Model& model) : model_(model) {}

  const Model& model() const { return model_; }
  // One flag per operation of the model's main graph.
  const std::vector<bool>& of(const Device& device);
  // Per operation: whether any of `devices` supports it.
  std::vector<bool> anyOf(const std::vector<std::shared_ptr<Device>>& devices);

 private:
  const Model& model_;
  std::vector<std::pair<const Device*, std::vector<bool>>> known_;
};

}  // namespace annrt::runtime
