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
// A clamp XNNPACK would fold into a native operation, or a PAD into a native
// convolution, is folded into its kernel instead (native_stage.h); no other
// fusion is split.
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
  // The PAD right before operation i that its kernel may fold in (a spatial
  // one into a convolution, fusion.h, or one along the channels into an
  // ADD; the kernel checks the rest), itself fused with nothing.
  auto padOf = [&](size_t i) -> const Operation* {
    if (i == 0 || fusion[i - 1] != Fusion::NONE) return nullptr;
    const Operation& previous = model.main.operations[operations[i - 1]];
    const bool intoConvolution = fusion[i] == Fusion::PREVIOUS_INTO;
    const bool intoAdd = fusion[i] == Fusion::NONE &&
                         model.main.operations[operations[i]].type == OperationType::ADD;
    if (previous.type != OperationType::PAD || !(intoConvolution || intoAdd)) return nullptr;
    if (fusion[i + 1] != Fusion::NONE && !clampOfPrevious(i + 1)) return nullptr;
    return &previous;
  };
  std::vector<bool> native(n, false);
  std::vector<bool> padded(n, false);  // operation i takes in the PAD before it
  for (size_t i = 0; i < n; ++i) {
    const Operation& op = model.main.operations[operations[i]];
    const Operation* pad = padOf(i);
    native[i] = (standalone(i) || pad != nullptr) && nativeKernelPreferred(context, op, pad);
    padded[i] = native[i] && pad != nullptr;
  }
  size_t last = n;  // the last preferred operation seen
  for (size_t i = 0; i < n; ++i) {
    if (!native[i]) continue;
    const size_t first = padded[i] ? i - 1 : i;  // where its native run starts
    if (last < n && first > last && first - last - 1 <= kMaxNativeGap) {
      bool fill = true;
      for (size_t j = last + 1; j < first && fill; ++j) {
        fill =
            clampOfPrevious(j) ||
            (standalone(j) && nativeKernelAvailable(context, model.main.operations[operations[j]]));
      }
      for (size_t j = last + 1; j < first && fill; ++j) native[j] = true;
    }
    if (padded[i]) native[i - 1] = true;
    last = i;
  }
  for (size_t i = 1; i < n; ++i) native[i] = native[i] || (native[i - 1] && clampOfPrevious(i));
  return native;
}

// Whether each operation is threaded in the cheapest plan: a two-state
// shortest path over the operations, where changing state (a cut) costs
// kCutMicros and is allowed only where it splits no fusion (`fusion` as
// fusions() gives it).
std::vector<bool> cheapestAssignment(const Model& model, const std::vector<uint32_t>& operations,
                                     const std::vector<Fusion>& fusion, double handOffMicros,
                                     uint32_t threads) {
  const double threadedShare = 1.0 / (threads * kThreadEfficiency);
  const size_t n = operations.size();
  constexpr double kNever = std::numeric_limits<double>::infinity();
  std::vector<std::array<double, 2>> best(n);
  std::vector<std::array<size_t, 2>> from(n);  // state of the previous operation
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
  const std::vector<Fusion> fusion = fusions(model, operations);
  std::vector<bool> threaded(operations.size(), true);
  if (handOffMicros > 0 && threads > 1) {
    threaded = cheapestAssignment(model, operations, fusion, handOffMicros, threads);
  }
  std::vector<bool> native(operations.size(), false);
  if (nativeKernels) native = nativeOperations(model, operations, fusion);
  const bool nodeStages = std::find(native.begin(), native.end(), true) != native.end();
  std::vector<PlannedStage> stages;
  for (size_t i = 0; i < operations.size(); ++i) {
    // Node by node, native operations too, with what folds into them: each
    // native stage planned an arena of its own for the tensors between its
    // kernels, and those added up beside the staged graph's one arena
    // (face_detection_full_range 13 -> 17.6 MB once 1x1 convolutions ran
    // between depthwise ones).
    const bool foldedPad = i > 0 && native[i - 1] &&
                           model.main.operations[operations[i - 1]].type == OperationType::PAD;
    const bool node = nodeStages && fusion[i] == Fusion::NONE && !foldedPad;
    if (stages.empty() || stages.back().threaded != threaded[i] ||
        stages.back().native != native[i] || node) {
      stages.push_back({{}, threaded[i], native[i]});
    }
    stages.back().operations.push_back(operations[i]);
  }
  return stages;
}

}  // namespace annrt::cpu
