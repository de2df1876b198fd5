// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One model partition compiled into a single XNNPACK runtime: the subgraph is
// built by the op lowerings, weights are packed once when the runtime is
// created, and each run only points the external values at the request's
// buffers (setting the runtime up again only when they moved, as
// xnn_setup_runtime redoes every operator's setup). Shapes are static:
// annrt-cpu claims only fully known shapes.
#pragma once

#include <xnnpack.h>

#include <memory>
#include <vector>

#include "common/model.h"
#include "common/result.h"
#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/stage_executable.h"
#include "drivers/cpu/thread_pool.h"

namespace annrt::cpu {

// Initializes XNNPACK once per process; false if this CPU is unsupported.
bool initializeXnnpack();

class CompiledGraph final : public StageExecutable {
 public:
  // paddedInputs[i] (if given): XNN_EXTRA_BYTES past the end of every
  // buffer given for input i may be read, so it is never copied.
  static Result<std::unique_ptr<CompiledGraph>> compile(std::shared_ptr<const Model> model,
                                                        ThreadPool pool,
                                                        std::vector<bool> paddedInputs = {});
  ~CompiledGraph() override;
  CompiledGraph(const CompiledGraph&) = delete;
  CompiledGraph& operator=(const CompiledGraph&) = delete;

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& sharedModel() const { return model_; }
  const ThreadPool& pool() const { return pool_; }
  Result<void> run(const std::vector<const void*>& inputs,
                   const std::vector<void*>& outputs) override;

 private:
  CompiledGraph() = default;
  Result<void> build(std::shared_ptr<const Model> model, ThreadPool pool,
                     const std::vector<bool>& paddedInputs);

  std::shared_ptr<const Model> model_;
  ThreadPool pool_;
  xnn_runtime_t runtime_ = nullptr;
  LoweredConstants constants_;
  // Where XNNPACK reads input i: the caller's buffer when reading
  // XNN_EXTRA_BYTES past its end is safe, else a padded copy.
  Result<void*> readableInput(size_t i, const void* data);

  struct InputSlot {
    uint32_t index = 0;  // model input index, also its XNNPACK external id
    size_t bytes = 0;
    std::unique_ptr<uint8_t[]> staging;  // allocated on first need
    bool padded = false;                 // read in place always
  };
  std::vector<InputSlot> inputs_;  // the model inputs some node reads
  std::vector<xnn_external_value> externals_;
  // Whether the runtime is set up for the pointers now in externals_: setting
  // it up again for the same buffers would redo every operator's setup.
  bool setUp_ = false;
};

}  // namespace annrt::cpu
