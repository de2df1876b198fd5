// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The plans a compilation has specialized for the input dims of its
// executions (runtime/shape_specialization.h), most recently used first,
// at most a bound of them (ANNRT_SPECIALIZE). A specialization that failed
// is remembered too, so that it is tried and logged once per input dims.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/execution_plan.h"

namespace annrt::runtime {

// The input dims of one execution: one list per model input.
using InputDims = std::vector<std::vector<uint32_t>>;

// "[1,3,3,2] [4]": for logs.
std::string inputDimsText(const InputDims& dims);

// ANNRT_SPECIALIZE: how many specialized plans a compilation keeps (4 when
// unset); 0 turns specialization off.
size_t specializationBound();

class SpecializedPlans {
 public:
  // nullptr: the specialization failed (and was logged by the builder).
  using Build = std::function<std::shared_ptr<ExecutionPlan>(const InputDims&)>;

  explicit SpecializedPlans(size_t bound) : bound_(bound) {}

  // The plan for `dims`, built by `build` on the calling thread the first
  // time. Executions with the same dims meanwhile wait for that plan;
  // executions with other dims do not.
  std::shared_ptr<ExecutionPlan> find(const InputDims& dims, const Build& build);
  // The plans kept now that are built (not the failed specializations).
  std::vector<std::shared_ptr<ExecutionPlan>> plans() const;

 private:
  using Future = std::shared_future<std::shared_ptr<ExecutionPlan>>;
  struct Entry {
    InputDims dims;
    Future plan;
  };

  // The entry of `dims` (made the most recently used), or nullopt after
  // adding one that `promise` will fill.
  std::optional<Future> lookUpOrReserve(const InputDims& dims,
                                        std::promise<std::shared_ptr<ExecutionPlan>>& promise);

  void evictBeyondBound();

  const size_t bound_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first
};

}  // namespace annrt::runtime
