// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What annrt-cpu keeps in the compilation cache for a prepared model
// (PreparedModel::serialize, Device::prepareModelFromCache): the decisions
// of its compile, which are the slow part to redo (the stage plan: which
// operations run on its own kernels and which on the pool, from which the
// fusions follow), and the bytes it computed from the model's constants
// (weight_store.h: its kernels' packed weights, float16 weights as float32).
// A warm start then only lowers the stages onto XNNPACK (whose 2022 API
// Debian ships has no weights cache, so XNNPACK stages still pack theirs).
//
// The layout, offsets relative to the start of the bytes, every blob on a
// 64-byte boundary (the runtime hands the bytes back 64-byte aligned, so
// the kernels read the blobs in place):
//   CacheHeader
//   the plan: per stage, flags (1 threaded, 2 native), the operation count,
//     the operations (uint32 each)
//   the index: CacheEntry per blob
//   the blobs
// Everything is checked when read: bytes that do not describe a compile of
// this model with these settings are BAD_DATA, never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/device.h"
#include "common/model.h"
#include "common/result.h"
#include "drivers/cpu/native_kernel_table.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/weight_store.h"

namespace annrt::cpu {

// What the plan and its weights were made for, beside the model and the
// instruction sets of the native kernels' code and table
// (native_kernel_table.h): a cache of other settings is not used.
struct CompileSettings {
  uint32_t threads = 1;
  NativeKernelMode nativeKernels = NativeKernelMode::TABLE;
};

// What a warm start compiles from.
struct CachedCompile {
  StagePlan plan;
  std::shared_ptr<WeightStore> weights;
};

// Writes the cache of a compile of `model` with `settings` into stages
// `stages` (fusions their fusion plan), whose packed weights `weights`
// recorded.
Result<void> writeCompileCache(const Model& model, const CompileSettings& settings,
                               const std::vector<PlannedStage>& stages, const FusionPlan& fusions,
                               const WeightStore& weights, CacheWriter& out);

// The plan and the weights `cached` holds for `model` compiled with
// `settings`; BAD_DATA when it holds anything else or is malformed.
Result<CachedCompile> readCompileCache(const Model& model, const CompileSettings& settings,
                                       const CachedBytes& cached);

}  // namespace annrt::cpu
