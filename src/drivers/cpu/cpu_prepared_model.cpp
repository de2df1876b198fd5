// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_prepared_model.h"

#include "common/log.h"

namespace annrt::cpu {

CpuPreparedModel::CpuPreparedModel(std::unique_ptr<StagedGraph> graph,
                                   std::shared_ptr<CpuLoad> load, CompileSettings settings)
    : graph_(std::move(graph)), load_(std::move(load)), settings_(settings) {
  if (graph_->pool() != nullptr) {
    poolThreads_ = static_cast<uint32_t>(pthreadpool_get_threads_count(graph_->pool().get()));
  }
}

Result<void> CpuPreparedModel::serialize(CacheWriter& out) const {
  // The graph is only read: executions may run meanwhile.
  std::vector<PlannedStage> stages;
  for (size_t s = 0; s < graph_->stageCount(); ++s) stages.push_back(graph_->stagePlan(s));
  return writeCompileCache(graph_->model(), settings_, stages, *graph_->fusions(),
                           graph_->weights(), out);
}

bool CpuPreparedModel::runThreaded() {
  if (poolThreads_ <= 1 || load_ == nullptr) return true;
  const PoolAdvice advice = load_->advise(poolThreads_);
  if (advice.usePool != threaded_) {
    ANNRT_VLOG(DRIVER, "annrt-cpu: {} {:.1f} cores: running on {}",
               advice.fromRunnableTasks ? "no load window yet; tasks of other processes runnable on"
                                        : "other processes kept busy",
               advice.othersBusy,
               advice.usePool ? fmt::format("{} threads", poolThreads_)
                              : std::string("the calling thread alone"));
    threaded_ = advice.usePool;
    // Workers still spinning after the pool's creation or its latest region
    // would share the caller's core in the runs alone; asleep, they are left
    // so (waking one beside a busy process can cost a scheduler tick).
    if (!threaded_ && ownRunnableThreads() > 1) restWorkers(graph_->pool().get());
  }
  return advice.usePool;
}

Result<std::vector<const void*>> CpuPreparedModel::inputBuffers(const Request& request) {
  const Subgraph& main = graph_->model().main;
  ANNRT_CHECK(request.inputs.size() == main.inputIndexes.size(), "expected {} inputs, got {}",
              main.inputIndexes.size(), request.inputs.size());
  std::vector<const void*> buffers;
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    const RequestArgument& argument = request.inputs[i];
    const Shape& shape = main.operands[main.inputIndexes[i]].shape;
    ANNRT_CHECK(!argument.omitted, "input {} is omitted", i);
    ANNRT_CHECK(argument.dims.empty() || argument.dims == shape.dims,
                "input {} has dims {}, annrt-cpu prepared {}", i, toString(argument.dims),
                toString(shape.dims));
    const size_t bytes = byteSize(shape);
    ANNRT_CHECK(argument.length >= bytes && argument.data != nullptr,
                "input {} has {} bytes, needs {}", i, argument.length, bytes);
    buffers.push_back(argument.data);
  }
  return buffers;
}

Result<std::vector<void*>> CpuPreparedModel::outputBuffers(const Request& request,
                                                           ExecutionOutcome& outcome) {
  const Subgraph& main = graph_->model().main;
  ANNRT_CHECK(request.outputs.size() == main.outputIndexes.size(), "expected {} outputs, got {}",
              main.outputIndexes.size(), request.outputs.size());
  std::vector<void*> buffers;
  bool sufficient = true;
  for (size_t i = 0; i < request.outputs.size(); ++i) {
    const RequestArgument& argument = request.outputs[i];
    const Shape& shape = main.operands[main.outputIndexes[i]].shape;
    const bool fits = argument.length >= byteSize(shape) && argument.data != nullptr;
    outcome.outputShapes.push_back({shape.dims, fits});
    sufficient = sufficient && fits;
    buffers.push_back(argument.data);
  }
  ANNRT_CHECK_CODE(ErrorCode::OUTPUT_INSUFFICIENT_SIZE, sufficient,
                   "an output buffer is too small");
  return buffers;
}

Result<void> CpuPreparedModel::runProfiled(const std::vector<const void*>& inputs,
                                           const std::vector<void*>& outputs, bool threaded,
                                           std::vector<uint64_t>& operationNs) {
  if (profiler_ == nullptr) {
    ANNRT_ASSIGN_OR_RETURN(profiler_, OperationProfiler::create(*graph_));
  }
  return profiler_->run(inputs, outputs, threaded, operationNs);
}

ExecutionOutcome CpuPreparedModel::execute(const Request& request,
                                           const ExecutionOptions& options) {
  const auto start = Clock::now();
  ExecutionOutcome outcome;
  auto fail = [&](const Error& error) {
    outcome.status = error.code;
    outcome.message = error.message;
    return outcome;
  };
  std::lock_guard lock(mutex_);
  // A run is not interrupted once started, but one whose deadline passed
  // before it could start (waiting here for another execution of this model,
  // under load) is refused, with AOSP's sample driver's code for that case.
  if (options.deadline && Clock::now() >= *options.deadline) {
    return fail({ErrorCode::MISSED_DEADLINE_PERSISTENT,
                 "annrt-cpu: the execution deadline passed before the run started"});
  }
  Result<std::vector<void*>> outputs = outputBuffers(request, outcome);
  if (!outputs.ok()) return fail(outputs.error());
  Result<std::vector<const void*>> inputs = inputBuffers(request);
  if (!inputs.ok()) return fail(inputs.error());
  const bool threaded = runThreaded();
  Result<void> ran = options.profileOperations
                         ? runProfiled(*inputs, *outputs, threaded, outcome.operationNs)
                         : graph_->run(*inputs, *outputs, threaded);
  if (!ran.ok()) return fail(ran.error());
  if (options.measureTiming) {
    const uint64_t ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    outcome.timing = {ns, ns};
  }
  return outcome;
}

}  // namespace annrt::cpu
