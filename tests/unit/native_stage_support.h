// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the tests of annrt-cpu's own kernels share: a model compiled as one
// native stage, a stage run on one input, the kernels made from each
// instruction set's code, and outputs compared with XNNPACK's.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "drivers/cpu/fusion.h"
#include "drivers/cpu/native_kernel_table.h"
#include "drivers/cpu/native_stage.h"
#include "drivers/cpu/stage_plan.h"

namespace annrt::cpu {

// The fusion plan of `model` with every operation on annrt-cpu's own
// kernels: the folds the planner gives such a stage.
inline FusionPlan allNativeFusions(const Model& model) {
  FusionPlan fusions(model);
  fusions.foldIntoNative(model, std::vector<bool>(model.main.operations.size(), true));
  return fusions;
}

// `model` as one native stage, every operation on annrt-cpu's own kernels.
inline Result<std::unique_ptr<NativeStage>> compileNative(const std::shared_ptr<const Model>& model,
                                                          ThreadPool pool) {
  return NativeStage::compile(model, allNativeFusions(*model), std::move(pool));
}

// Runs `stage` on one input; the output has `outputCount` floats.
// `threaded` false: on the calling thread alone, as beside busy processes.
inline std::vector<float> runStage(StageExecutable& stage, const std::vector<float>& input,
                                   size_t outputCount, bool threaded = true) {
  std::vector<float> output(outputCount);
  const Result<void> ran = stage.run({input.data()}, {output.data()}, threaded);
  EXPECT_TRUE(ran.ok()) << (ran.ok() ? "" : ran.error().message);
  return output;
}

// The instruction sets whose code this build and host run.
inline std::vector<NativeIsa> runnableIsas() {
  std::vector<NativeIsa> isas;
  for (NativeIsa isa : {NativeIsa::BASELINE, NativeIsa::AVX2, NativeIsa::AVX512, NativeIsa::NEON}) {
    if (nativeIsaRuns(isa)) isas.push_back(isa);
  }
  return isas;
}

// Calls check() with the kernels made from the code of each instruction set
// the host runs and the decisions of the table's `decisions` column.
template <class Check>
void forEachIsa(Check&& check, NativeIsa decisions = NativeIsa::AVX512) {
  for (NativeIsa isa : runnableIsas()) {
    SCOPED_TRACE(std::string("code ") + std::string(nativeIsaName(isa)) + ", decisions " +
                 std::string(nativeIsaName(decisions)));
    const ScopedNativeIsa scoped(isa, decisions);
    check();
  }
}

// Within `tolerance` of each expected value, absolute and relative.
inline void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                       float tolerance = 1e-4f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], tolerance + tolerance * std::fabs(expected[i]))
        << "element " << i;
  }
}

// `model`, one operation of a form measured faster than XNNPACK on AVX-512
// and AVX2 alone: one stage, native under those columns of the table and on
// XNNPACK under the unmeasured ones.
inline void expectNativeUnderAvx2AndAvx512(const Model& model) {
  for (const auto& [isa, native] :
       {std::pair{NativeIsa::AVX512, true}, std::pair{NativeIsa::AVX2, true},
        std::pair{NativeIsa::BASELINE, false}, std::pair{NativeIsa::NEON, false}}) {
    SCOPED_TRACE(std::string(nativeIsaName(isa)));
    const ScopedNativeIsa scoped(hostNativeIsa(), isa);
    const StagePlan plan = planStages(model, 0, 1);
    ASSERT_EQ(plan.stages.size(), 1u);
    EXPECT_EQ(plan.stages[0].native, native);
  }
}

}  // namespace annrt::cpu
