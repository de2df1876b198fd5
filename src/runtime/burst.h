// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksBurst: a sequence of executions of one compilation that must
// not overlap. annrt's devices keep no per-burst state, so a burst only
// enforces the sequencing contract.
#pragma once

#include <memory>
#include <mutex>

#include "runtime/compilation.h"

namespace annrt::runtime {

class Burst {
 public:
  explicit Burst(std::shared_ptr<const Compilation> compilation)
      : compilation_(std::move(compilation)) {}

  const Compilation* compilation() const { return compilation_.get(); }
  // Held for the duration of one burst execution; try_lock fails while another runs.
  std::mutex& busy() { return busy_; }

 private:
  std::shared_ptr<const Compilation> compilation_;
  std::mutex busy_;
};

}  // namespace annrt::runtime
