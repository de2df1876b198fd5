// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One model partition compiled into a single XNNPACK runtime: the subgraph is
// built by the op lowerings, weights are packed once when the runtime is
// created, and each run only points the external values at the request's
// buffers (setting the runtime up again only when they moved, as
// xnn_setup_runtime redoes every operator's setup). Shapes are static:
// annrt-cpu claims only fully known shapes.
//
// An XNNPACK runtime keeps the thread pool it was created with, so a run on
// the calling thread alone (StageExecutable::run's `threaded` false, when
// other processes keep the cores busy) uses a second runtime without the
// pool, created at the first such run: it packs the weights again, which
// costs a compilation's time once and that memory from then on.
#pragma once

#include <xnnpack.h>

#include <deque>
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
  // `weights`, if given, may hold float16 weights converted by a cache
  // (weight_store.h).
  static Result<std::unique_ptr<CompiledGraph>> compile(
      std::shared_ptr<const Model> model, ThreadPool pool,
      const std::vector<bool>& paddedInputs = {}, std::shared_ptr<WeightStore> weights = nullptr);
  ~CompiledGraph() override;
  CompiledGraph(const CompiledGraph&) = delete;
  CompiledGraph& operator=(const CompiledGraph&) = delete;

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& sharedModel() const { return model_; }
  const ThreadPool& pool() const { return pool_; }
  Result<void> run(const std::vector<const void*>& inputs, const std::vector<void*>& outputs,
                   bool threaded) override;
  // Whether the runtime without the pool has been created (for tests).
  bool hasInlineRuntime() const { return inline_.runtime != nullptr; }

 private:
  struct Runtime {
    xnn_runtime_t runtime = nullptr;
    // The external values' pointers it was last set up for: setting it up
    // again for the same buffers would redo every operator's setup.
    std::vector<void*> setUpFor;
  };

  CompiledGraph() = default;
  Result<void> build(std::shared_ptr<const Model> model, ThreadPool pool,
                     const std::vector<bool>& paddedInputs);
  // Lowers the model into a subgraph and creates a runtime on `pool`;
  // inputsRead, if given, gets whether some node reads each model input.
  Result<xnn_runtime_t> createRuntime(pthreadpool_t pool, std::vector<bool>* inputsRead);
  Result<void> invoke(Runtime& runtime);

  std::shared_ptr<const Model> model_;
  std::shared_ptr<WeightStore> weights_;  // for the runtime created on first need too
  ThreadPool pool_;
  Runtime pooled_;                          // on pool_ (or inline when there is none)
  Runtime inline_;                          // without the pool, created on first need
  bool inlineUnavailable_ = false;          // its creation failed: runs stay on the pool
  std::deque<LoweredConstants> constants_;  // per runtime
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
};

}  // namespace annrt::cpu
