// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How the operations of a partition fold into one another, decided once: the
// planner cuts stages only between nodes (stage_plan.h), a native stage
// builds one kernel per node (native_stage.h), and the profiler times each
// node with what folds into it (operation_profiler.h), all reading this plan.
//
// XNNPACK makes a clamp (RELU, RELU1, RELU6) part of the node producing its
// input, makes no node of a reshape, and folds a zero PAD of the spatial
// dimensions into the convolution reading it. A float16 weights' CAST is
// folded into every stage reading its output (lowering_context.h).
// annrt-cpu's own kernels (native_kernel.h) take in the same clamps, and a
// PAD into the kernel after it (also one along the channels into an ADD);
// their convolutions also take in a HARD_SWISH or LOGISTIC after them, which
// XNNPACK runs as a node of its own.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/model.h"

namespace annrt::cpu {

// RESHAPE, SQUEEZE and EXPAND_DIMS: the operations that only give a
// tensor's values other dimensions.
bool isReshape(OperationType type);

enum class FusionRole : uint8_t {
  NODE,          // a node of its own
  CLAMP,         // folded into the node before it, which clamps its output
  RESHAPE,       // no node: the node before it writes the data it passes on
  PAD,           // folded into the node after it, which reads the PAD's input
  HALF_CAST,     // a float16 weights' CAST, in no stage: every stage reading it folds it in
  ACTIVATION,    // HARD_SWISH or LOGISTIC folded into the native convolution before it
  ADDEND,        // an ADD of a native convolution's, resize's or MUL's output and an
                 // earlier tensor, folded into that kernel
  AVERAGED_ADD,  // an ADD folded into the native global average after it, which
                 // sums the ADD's inputs
};

class FusionPlan {
 public:
  // XNNPACK's fusions in `model`, a partition.
  explicit FusionPlan(const Model& model);

  // The folds of annrt-cpu's own kernels, given which main-model operations
  // run on them (`native`). A step of its own because the planner chooses
  // native kernels from XNNPACK's fusions (which clamp or PAD a kernel may
  // take in), and then a native kernel folds more: every PAD before it (a
  // PAD along the channels into an ADD too), and a native convolution the
  // HARD_SWISH or LOGISTIC that alone reads its output, where the kernel
  // table uses NativeForm::FOLDED_ACTIVATION (whatever `native` says of the
  // activation: the caller runs it with its convolution), and the ADD that
  // alone reads a native convolution's, resize's or MUL's output (after its clamp or
  // activation, if any) where the table uses NativeForm::FOLDED_ADD, its
  // other input being of the same shape (or a PAD of it along the channels
  // folded into the ADD) and written before that kernel (FusionRole::ADDEND,
  // clamps after the ADD becoming the kernel's too), while a reshape after them, which the kernel
  // cannot pass through, becomes an XNNPACK node of its own; and where the
  // table uses NativeForm::FOLDED_SUM, the ADD (of two computed tensors of
  // its shape) whose output only a native global average reads, and which
  // nothing else joins (FusionRole::AVERAGED_ADD).
  void foldIntoNative(const Model& model, const std::vector<bool>& native);

  // The plan of a stage compiled as a model of its own (extractSubmodel):
  // its operation k is main-model operation operations[k] (ascending). An
  // operation whose node is not among them gets kNoNode.
  FusionPlan slice(const std::vector<uint32_t>& operations) const;

  static constexpr uint32_t kNoNode = UINT32_MAX;

  size_t operationCount() const { return operations_.size(); }
  FusionRole role(uint32_t operation) const { return operations_[operation].role; }
  // The operation that is the node `operation` belongs to (itself for a
  // NODE and a HALF_CAST): its time is the node's, and no stage is cut
  // between them.
  uint32_t node(uint32_t operation) const { return operations_[operation].node; }
  // The operations stages are made of, in execution order: all but the
  // HALF_CASTs.
  const std::vector<uint32_t>& staged() const { return staged_; }
  // Whether staged()[i] belongs to the node of staged()[i - 1] (false for
  // the first, and for i past the end).
  bool joinsPrevious(size_t i) const {
    return i > 0 && i < staged_.size() && node(staged_[i]) == node(staged_[i - 1]);
  }

  // What annrt-cpu's own kernels could take in, by XNNPACK's fusions (before
  // foldIntoNative), for the planner to ask a kernel of staged()[i] about:
  // whether it runs all of its node (nothing joins it from before, and only
  // a clamp, which the kernel folds, after it; or a reshape, where
  // `reshapesMayFollow`: foldIntoNative makes it a node of its own);
  bool nativeRunsWhole(size_t i, bool reshapesMayFollow) const;
  // the PAD right before it that it may fold in instead (one XNNPACK folds
  // into this convolution, or any PAD before an ADD: the kernel checks the
  // rest), when only a clamp joins it after.
  std::optional<uint32_t> nativePad(const Model& model, size_t i) const;

 private:
  struct Folding {
    FusionRole role = FusionRole::NODE;
    uint32_t node = 0;
  };
  FusionPlan() = default;
  bool onlyAClampFollows(size_t i, bool reshapesMayFollow) const;

  std::vector<Folding> operations_;  // by main-model operation
  std::vector<uint32_t> staged_;
};

}  // namespace annrt::cpu
