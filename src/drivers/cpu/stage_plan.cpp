// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/stage_plan.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_set>

#include "drivers/cpu/fusion.h"
#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/op_lowering.h"
#include "drivers/cpu/work_estimate.h"

namespace annrt::cpu {
namespace {

// The operations stages are made of: all but the folded float16 casts.
std::vector<uint32_t> stagedOperations(const Model& model) {
  std::unordered_set<uint32_t> folded;
  for (const auto& [output, cast] : foldedHalfCasts(model)) folded.insert(cast);
  std::vector<uint32_t> operations;
  for (uint32_t i = 0; i < model.main.operations.size(); ++i) {
    if (!folded.count(i)) operations.push_back(i);
  }
  return operations;
}

constexpr size_t kSerial = 0, kThreaded = 1;
constexpr size_t kMaxNativeGap = 2;
// A native stage in the middle of a partition cuts XNNPACK's memory plan in
// two: tensors made before it and read after it then live in buffers of
// their own instead of XNNPACK's shared arena. Runs that would keep more
// than this apart stay on XNNPACK (pose_landmark_full: 4 MB around one
// depthwise convolution of 16 channels, for 0.1 ms).
constexpr size_t kMaxBypassBytes = size_t{2} << 20;

// Bytes of the tensors made before operations[first] and read after
// operations[last] (model inputs excluded: they are the caller's).
size_t bypassBytes(const Model& model, const std::vector<uint32_t>& operations, size_t first,
                   size_t last) {
  std::unordered_set<uint32_t> before;
  for (size_t i = 0; i < first; ++i) {
    for (uint32_t output : model.main.operations[operations[i]].outputs) before.insert(output);
  }
  std::unordered_set<uint32_t> bypassing;
  for (size_t i = last + 1; i < operations.size(); ++i) {
    for (uint32_t input : model.main.operations[operations[i]].inputs) {
      if (before.count(input) != 0) bypassing.insert(input);
    }
  }
  size_t bytes = 0;
  for (uint32_t operand : bypassing) bytes += byteSize(model.main.operands[operand].shape);
  return bytes;
}

// A native run beside XNNPACK stages must hold at least this many operations
// it is preferred for. One alone cost more than it saved, as each cut splits
// XNNPACK's memory plan (face_detection_full_range: two depthwise
// convolutions of 16 channels each a stage of its own, 2.4 -> 2.8 ms and
// 15 -> 20.6 MB; pose_landmark_full's runs of 2 and 3: 11.5 -> 9.0 ms).
constexpr size_t kMinPreferredPerRun = 2;

// Unmarks the runs of native operations that keep too much apart or save
// too little; `preferred` marks the operations they are preferred for.
void dropCostlyRuns(const Model& model, const std::vector<uint32_t>& operations,
                    const std::vector<bool>& preferred, std::vector<bool>& native) {
  for (size_t first = 0; first < native.size();) {
    if (!native[first]) {
      ++first;
      continue;
    }
    size_t last = first;
    while (last + 1 < native.size() && native[last + 1]) ++last;
    const bool whole = first == 0 && last + 1 == native.size();
    const auto count = std::count(preferred.begin() + first, preferred.begin() + last + 1, true);
    if (!whole && (static_cast<size_t>(count) < kMinPreferredPerRun ||
                   bypassBytes(model, operations, first, last) > kMaxBypassBytes)) {
      std::fill(native.begin() + first, native.begin() + last + 1, false);
    }
    first = last + 1;
  }
}

// fusion[i]: how operations[i] joins operations[i - 1] (NONE for the first,
// and for the one past the end).
std::vector<Fusion> fusions(const Model& model, const std::vector<uint32_t>& operations) {
  std::vector<Fusion> fusion(operations.size() + 1, Fusion::NONE);
  for (size_t i = 1; i < operations.size(); ++i) {
    fusion[i] = fusionWithPrevious(model, model.main.operations[operations[i - 1]],
                                   model.main.operations[operations[i]]);
  }
  return fusion;
}

// Which operations run on annrt-cpu's own kernels: those they are preferred
// for, and gaps of up to kMaxNativeGap operations between two of those that
// have a native kernel too (which would otherwise cut the stage into three).
// A clamp XNNPACK would fold into a native operation is folded into its
// kernel instead (native_stage.h); no other fusion is split.
std::vector<bool> nativeOperations(const Model& model, const std::vector<uint32_t>& operations,
                                   const std::vector<Fusion>& fusion) {
  LoweringContext context(model, nullptr);
  const size_t n = operations.size();
  auto clampOfPrevious = [&](size_t i) {
    return fusion[i] == Fusion::INTO_PREVIOUS &&
           reluRange(model.main.operations[operations[i]].type).has_value();
  };
  // Nothing folds into operation i, and only a clamp follows folded.
  auto standalone = [&](size_t i) {
    return fusion[i] == Fusion::NONE && (fusion[i + 1] == Fusion::NONE || clampOfPrevious(i + 1));
  };
  std::vector<bool> native(n, false);
  for (size_t i = 0; i < n; ++i) {
    native[i] =
        standalone(i) && nativeKernelPreferred(context, model.main.operations[operations[i]]);
  }
  const std::vector<bool> preferred = native;
  size_t last = n;  // the last preferred operation seen
  for (size_t i = 0; i < n; ++i) {
    if (!native[i]) continue;
    if (last < n && i - last - 1 <= kMaxNativeGap) {
      bool fill = true;
      for (size_t j = last + 1; j < i && fill; ++j) {
        fill =
            clampOfPrevious(j) ||
            (standalone(j) && nativeKernelAvailable(context, model.main.operations[operations[j]]));
      }
      for (size_t j = last + 1; j < i && fill; ++j) native[j] = true;
    }
    last = i;
  }
  for (size_t i = 1; i < n; ++i) native[i] = native[i] || (native[i - 1] && clampOfPrevious(i));
  dropCostlyRuns(model, operations, preferred, native);
  return native;
}

// Whether each operation is threaded in the cheapest plan: a two-state
// shortest path over the operations, where changing state (a cut) costs
// kCutMicros and is allowed only where it splits no fusion.
std::vector<bool> cheapestAssignment(const Model& model, const std::vector<uint32_t>& operations,
                                     double handOffMicros, uint32_t threads) {
  const double threadedShare = 1.0 / (threads * kThreadEfficiency);
  const size_t n = operations.size();
  constexpr double kNever = std::numeric_limits<double>::infinity();
  std::vector<std::array<double, 2>> best(n);
  std::vector<std::array<size_t, 2>> from(n);  // state of the previous operation
  const std::vector<Fusion> fusion = fusions(model, operations);
  for (size_t i = 0; i < n; ++i) {
    const Operation& op = model.main.operations[operations[i]];
    // Fused operations cost nothing of their own; their node is timed whole.
    const bool absorbed =
        fusion[i] == Fusion::INTO_PREVIOUS || fusion[i + 1] == Fusion::PREVIOUS_INTO;
    const double serial = absorbed ? 0 : operationMicros(model, op);
    const bool node = !absorbed && operationMflop(model, op) > 0;
    const std::array<double, 2> cost = {serial,
                                        node ? serial * threadedShare + handOffMicros : serial};
    const bool canCut = i > 0 && fusion[i] == Fusion::NONE;
    for (size_t state : {kSerial, kThreaded}) {
      if (i == 0) {
        best[i][state] = cost[state];
        continue;
      }
      const size_t other = 1 - state;
      const double stay = best[i - 1][state];
      const double change = canCut ? best[i - 1][other] + kCutMicros : kNever;
      from[i][state] = stay <= change ? state : other;
      best[i][state] = std::min(stay, change) + cost[state];
    }
  }
  std::vector<bool> threaded(n);
  size_t state = best[n - 1][kThreaded] <= best[n - 1][kSerial] ? kThreaded : kSerial;
  for (size_t i = n; i-- > 0;) {
    threaded[i] = state == kThreaded;
    if (i > 0) state = from[i][state];
  }
  return threaded;
}

}  // namespace

std::vector<PlannedStage> planStages(const Model& model, double handOffMicros, uint32_t threads,
                                     bool nativeKernels) {
  const std::vector<uint32_t> operations = stagedOperations(model);
  if (operations.empty()) return {};
  std::vector<bool> threaded(operations.size(), true);
  if (handOffMicros > 0 && threads > 1) {
    threaded = cheapestAssignment(model, operations, handOffMicros, threads);
  }
  std::vector<bool> native(operations.size(), false);
  if (nativeKernels) native = nativeOperations(model, operations, fusions(model, operations));
  std::vector<PlannedStage> stages;
  for (size_t i = 0; i < operations.size(); ++i) {
    if (stages.empty() || stages.back().threaded != threaded[i] ||
        stages.back().native != native[i]) {
      stages.push_back({{}, threaded[i], native[i]});
    }
    stages.back().operations.push_back(operations[i]);
  }
  return stages;
}

}  // namespace annrt::cpu
