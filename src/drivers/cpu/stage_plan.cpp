// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/stage_plan.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/work_estimate.h"

namespace annrt::cpu {
namespace {

constexpr size_t kSerial = 0, kThreaded = 1;
constexpr size_t kMaxNativeGap = 2;

// Which staged operations (plan.staged()) run on annrt-cpu's own kernels:
// those they are preferred for, and gaps of up to kMaxNativeGap operations
// between two of those, or after the last of them, that have a native
// kernel too (which would otherwise cut the stage into three, or end the
// partition with an XNNPACK runtime of its own). A clamp XNNPACK would fold into a native
// operation is folded into its kernel instead, as is a PAD before a native
// convolution or ADD (FusionPlan::nativePad); reshapes XNNPACK would join
// to it become native copies where the table uses them; no other fusion is
// split.
std::vector<bool> nativeOperations(const Model& model, const FusionPlan& plan) {
  LoweringContext context(model, nullptr);
  // The kernels made here only answer; the stages' kernels are packed later.
  context.decideOnly();
  const std::vector<uint32_t>& operations = plan.staged();
  const size_t n = operations.size();
  auto clamp = [&](size_t i) { return plan.role(operations[i]) == FusionRole::CLAMP; };
  // Where the table uses the native reshape, reshapes after a native
  // operation are copied by kernels of their own (below) instead of keeping
  // that operation on XNNPACK.
  const bool reshapes = nativeFormUse(NativeForm::RESHAPE) != NativeUse::NO;
  std::vector<bool> native(n, false);
  std::vector<bool> padded(n, false);  // operation i takes in the PAD before it
  for (size_t i = 0; i < n; ++i) {
    const Operation& op = model.main.operations[operations[i]];
    const std::optional<uint32_t> pad = plan.nativePad(model, i);
    native[i] = (plan.nativeRunsWhole(i, reshapes) || pad) &&
                nativeKernelPreferred(context, op, pad ? &model.main.operations[*pad] : nullptr);
    padded[i] = native[i] && pad;
  }
  // Operations [from, to) native, where each has a native kernel that
  // fills gaps (or is a clamp folded into one).
  auto fillGap = [&](size_t from, size_t to) {
    bool fill = true;
    for (size_t j = from; j < to && fill; ++j) {
      fill = clamp(j) || (plan.nativeRunsWhole(j, reshapes) &&
                          nativeKernelAvailable(context, model.main.operations[operations[j]]));
    }
    for (size_t j = from; j < to && fill; ++j) native[j] = true;
  };
  size_t last = n;  // the last preferred operation seen
  for (size_t i = 0; i < n; ++i) {
    if (!native[i]) continue;
    const size_t first = padded[i] ? i - 1 : i;  // where its native run starts
    if (last < n && first > last && first - last - 1 <= kMaxNativeGap) fillGap(last + 1, first);
    if (padded[i]) native[i - 1] = true;
    last = i;
  }
  // A tail as short after the last one (pose_landmark's LOGISTIC of its
  // score): on XNNPACK it would be a stage and a runtime of its own. The
  // reshapes XNNPACK would join to its end follow it below.
  size_t end = n;
  while (last < n && end > last + 1 && plan.role(operations[end - 1]) == FusionRole::RESHAPE) {
    --end;
  }
  if (last < n && end - last - 1 <= kMaxNativeGap) fillGap(last + 1, end);
  for (size_t i = 1; i < n; ++i) native[i] = native[i] || (native[i - 1] && clamp(i));
  for (size_t i = 1; i < n && reshapes; ++i) {
    // One XNNPACK would have joined to the native operation before it (a
    // reshape the kernel refuses becomes an XNNPACK node: foldIntoNative).
    if (native[i - 1] && plan.role(operations[i]) == FusionRole::RESHAPE) {
      native[i] = nativeKernelAvailable(context, model.main.operations[operations[i]]);
    }
  }
  return native;
}

// Whether each staged operation is threaded in the cheapest plan: a
// two-state shortest path over the operations, where changing state (a cut)
// costs kCutMicros and is allowed only between nodes.
std::vector<bool> cheapestAssignment(const Model& model, const FusionPlan& plan,
                                     double handOffMicros, uint32_t threads) {
  const double threadedShare = 1.0 / (threads * kThreadEfficiency);
  const std::vector<uint32_t>& operations = plan.staged();
  const size_t n = operations.size();
  constexpr double kNever = std::numeric_limits<double>::infinity();
  std::vector<std::array<double, 2>> best(n);
  std::vector<std::array<size_t, 2>> from(n);  // state of the previous operation
  for (size_t i = 0; i < n; ++i) {
    const Operation& op = model.main.operations[operations[i]];
    // Fused operations cost nothing of their own; their node is timed whole.
    const bool absorbed = plan.node(operations[i]) != operations[i];
    const double serial = absorbed ? 0 : operationMicros(model, op);
    const bool node = !absorbed && operationMflop(model, op) > 0;
    const std::array<double, 2> cost = {serial,
                                        node ? serial * threadedShare + handOffMicros : serial};
    const bool canCut = i > 0 && !plan.joinsPrevious(i);
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

StagePlan planStages(const Model& model, double handOffMicros, uint32_t threads,
                     bool nativeKernels) {
  auto fusions = std::make_shared<FusionPlan>(model);
  const std::vector<uint32_t>& operations = fusions->staged();
  if (operations.empty()) return {std::move(fusions), {}};
  // Threads and native kernels are chosen by XNNPACK's fusions; the stages
  // are then cut by the fusions with the native kernels' folds.
  std::vector<bool> threaded(operations.size(), true);
  if (handOffMicros > 0 && threads > 1) {
    threaded = cheapestAssignment(model, *fusions, handOffMicros, threads);
  }
  std::vector<bool> native(operations.size(), false);
  if (nativeKernels) native = nativeOperations(model, *fusions);
  std::vector<bool> nativeOperation(model.main.operations.size(), false);
  for (size_t i = 0; i < operations.size(); ++i) nativeOperation[operations[i]] = native[i];
  fusions->foldIntoNative(model, nativeOperation);
  for (size_t i = 1; i < operations.size(); ++i) {
    // A folded activation or ADD runs in its convolution's kernel, as do a
    // clamp after the ADD and a PAD folded into it.
    const FusionRole role = fusions->role(operations[i]);
    const bool folded = role == FusionRole::ACTIVATION || role == FusionRole::ADDEND ||
                        ((role == FusionRole::CLAMP || role == FusionRole::PAD) && native[i - 1]);
    if (folded && fusions->joinsPrevious(i)) {
      native[i] = true;
      threaded[i] = threaded[i - 1];
    }
    // An ADD folded into the average after it runs in the average's kernel.
    if (fusions->role(operations[i - 1]) == FusionRole::AVERAGED_ADD && fusions->joinsPrevious(i)) {
      native[i - 1] = true;
      threaded[i - 1] = threaded[i];
    }
  }
  const bool nodeStages = std::find(native.begin(), native.end(), true) != native.end();
  std::vector<PlannedStage> stages;
  for (size_t i = 0; i < operations.size(); ++i) {
    // Node by node, native operations too, with what folds into them: each
    // native stage planned an arena of its own for the tensors between its
    // kernels, and those added up beside the staged graph's one arena
    // (face_detection_full_range 13 -> 17.6 MB once 1x1 convolutions ran
    // between depthwise ones).
    const bool node = nodeStages && !fusions->joinsPrevious(i);
    if (stages.empty() || stages.back().threaded != threaded[i] ||
        stages.back().native != native[i] || node) {
      stages.push_back({{}, threaded[i], native[i]});
    }
    stages.back().operations.push_back(operations[i]);
  }
  return {std::move(fusions), std::move(stages)};
}

}  // namespace annrt::cpu
