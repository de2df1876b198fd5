// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/specialized_plans.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "common/log.h"

namespace annrt::runtime {
namespace {

constexpr size_t kDefaultBound = 4;

}  // namespace

std::string inputDimsText(const InputDims& dims) {
  std::string text;
  for (const auto& input : dims) {
    if (!text.empty()) text += ' ';
    text += toString(input);
  }
  return text;
}

size_t specializationBound() {
  const char* env = std::getenv("ANNRT_SPECIALIZE");
  if (env == nullptr || *env == '\0') return kDefaultBound;
  const std::string_view text(env);
  size_t bound = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bound);
  if (error != std::errc() || end != text.data() + text.size()) {
    logWarning("ANNRT_SPECIALIZE={} is not a count of plans; keeping {}", text, kDefaultBound);
    return kDefaultBound;
  }
  return bound;
}

std::shared_ptr<ExecutionPlan> SpecializedPlans::find(const InputDims& dims, const Build& build) {
  std::promise<std::shared_ptr<ExecutionPlan>> promise;
  if (auto kept = lookUpOrReserve(dims, promise)) {
    return kept->get();  // waits, unlocked, while another execution builds it
  }
  std::shared_ptr<ExecutionPlan> plan = build(dims);
  promise.set_value(plan);
  return plan;
}

std::optional<SpecializedPlans::Future> SpecializedPlans::lookUpOrReserve(
    const InputDims& dims, std::promise<std::shared_ptr<ExecutionPlan>>& promise) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->dims != dims) continue;
    entries_.splice(entries_.begin(), entries_, it);
    return entries_.front().plan;
  }
  entries_.push_front({dims, promise.get_future().share()});
  evictBeyondBound();
  return std::nullopt;
}

std::vector<std::shared_ptr<ExecutionPlan>> SpecializedPlans::plans() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<ExecutionPlan>> plans;
  for (const Entry& entry : entries_) {
    const bool built = entry.plan.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    if (built && entry.plan.get()) plans.push_back(entry.plan.get());
  }
  return plans;
}

void SpecializedPlans::evictBeyondBound() {
  while (entries_.size() > bound_) {
    logInfo("dropping the plan specialized for input dims {} (ANNRT_SPECIALIZE keeps {})",
            inputDimsText(entries_.back().dims), bound_);
    // Executions still running on it hold their own reference.
    entries_.pop_back();
  }
}

}  // namespace annrt::runtime
