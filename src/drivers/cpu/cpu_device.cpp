// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_device.h"

#include <cstdlib>
#include <string_view>

#include "common/log.h"
#include "drivers/cpu/cpu_cache.h"
#include "drivers/cpu/cpu_prepared_model.h"
#include "drivers/cpu/heap_release.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/op_lowering.h"
#include "drivers/cpu/stage_plan.h"
#include "drivers/cpu/staged_graph.h"
#include "drivers/cpu/thread_pool.h"
#include "drivers/cpu/work_estimate.h"

namespace annrt::cpu {
namespace {

// Ten times faster than nnapi-reference on what it claims (float32 and
// 8-bit asymmetric quantized tensors).
Capabilities cpuCapabilities() {
  constexpr PerformanceInfo kFast{.execTime = 0.1f, .powerUsage = 0.1f};
  Capabilities caps;
  caps.relaxedFloat32toFloat16Scalar = kFast;
  caps.relaxedFloat32toFloat16Tensor = kFast;
  for (OperandType type :
       {OperandType::FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
        OperandType::TENSOR_QUANT8_ASYMM_SIGNED}) {
    caps.operandPerformance[type] = kFast;
  }
  return caps;
}

// ANNRT_CPU_ADAPTIVE_THREADS=0 keeps every run on the pool, whatever the load
// (for measuring what threads are worth under load).
bool adaptiveThreads() {
  const char* value = std::getenv("ANNRT_CPU_ADAPTIVE_THREADS");
  return value == nullptr || std::string_view(value) != "0";
}

// `what`: "compiling", or "preparing from the cache" (the plan a cold
// compile made, with the hand-off estimate of then).
void logPlan(const Model& model, const std::vector<PlannedStage>& plan, uint32_t threads,
             double handOff, const char* what = "compiling") {
  if (!vlogEnabled(LogArea::DRIVER)) return;
  if (plan.size() == 1) {
    ANNRT_VLOG(DRIVER, "annrt-cpu: {} {} operations with {} threads", what,
               model.main.operations.size(), threads);
    return;
  }
  std::string stages;
  for (const PlannedStage& stage : plan) {
    stages +=
        fmt::format("{}operations {}-{} on {} thread{}{}", stages.empty() ? "" : ", ",
                    stage.operations.front(), stage.operations.back(), stage.threaded ? threads : 1,
                    stage.threaded ? "s" : "", stage.native ? " (native kernels)" : "");
  }
  ANNRT_VLOG(DRIVER,
             "annrt-cpu: {} {} operations in {} stages (hand-off to the pool estimated at {} us, "
             "ANNRT_CPU_HANDOFF_US): {}",
             what, model.main.operations.size(), plan.size(), handOff, stages);
}

CompileSettings settingsFor(const PrepareOptions& options) {
  return {resolveThreadCount(options.numThreads), nativeKernelMode()};
}

class CpuDevice final : public Device {
 public:
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 2; }  // ANEURALNETWORKS_DEVICE_CPU
  int64_t featureLevel() const override { return featureLevelCode(kMaxFeatureLevel); }
  const Capabilities& capabilities() const override { return capabilities_; }

  // For MediaPipe's Convolution2DTransposeBias (see op_lowering.cpp).
  bool supportsExtension(const std::string& name) const override {
    return name == "com.annrt.tflite";
  }

  bool supportsCaching() const override { return true; }

  std::string cacheSettings() const override {
    return fmt::format("code {}, decisions {}, native kernels {}", nativeIsaName(nativeCodeIsa()),
                       nativeIsaName(nativeDecisionIsa()),
                       static_cast<unsigned>(nativeKernelMode()));
  }

  std::vector<bool> supportedOperations(const Model& model) const override {
    std::vector<bool> supported;
    const bool available = initializeXnnpack();
    LoweringContext context(model, nullptr);
    for (size_t i = 0; i < model.main.operations.size(); ++i) {
      const Operation& op = model.main.operations[i];
      Result<void> claim =
          available
              ? lowerOperation(context, op)
              : Result<void>(makeError(ErrorCode::UNAVAILABLE_DEVICE, "XNNPACK is unavailable"));
      if (!claim.ok()) {
        ANNRT_VLOG(DRIVER, "annrt-cpu: not claiming operation {} ({}): {}", i,
                   operationTypeName(op.type), claim.error().message);
      }
      supported.push_back(claim.ok());
    }
    return supported;
  }

  Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model> model,
                                                      const PrepareOptions& options) override {
    const CompileSettings settings = settingsFor(options);
    const uint32_t threads = settings.threads;
    // One thread: one stage, with no pool.
    const double handOff = handOffMicros();
    StagePlan plan =
        planStages(*model, handOff, threads, settings.nativeKernels != NativeKernelMode::OFF);
    logPlan(*model, plan.stages, threads, handOff);
    const ThreadPool pool = sharedThreadPool(threads);
    const bool staged = plan.stages.size() > 1;
    Result<std::unique_ptr<StagedGraph>> graph = StagedGraph::compile(model, std::move(plan), pool);
    if (!graph.ok() && staged) {
      // Stages only move work between threads and kernels: the partition
      // compiled whole on XNNPACK is the same computation.
      ANNRT_VLOG(DRIVER, "annrt-cpu: {}; compiling the partition as one stage instead",
                 graph.error().message);
      graph = StagedGraph::compile(model, planStages(*model, 0, threads, false), pool);
    }
    releaseFreedHeap();
    if (!graph.ok()) return graph.error();
    if (spareCoreForPages(threads)) (*graph)->populateArenaAhead();
    return std::shared_ptr<PreparedModel>(
        std::make_shared<CpuPreparedModel>(std::move(graph).value(), load_, settings));
  }

  // Compiles the cached plan with the cached weights: no planning, no
  // packing of native kernels' weights, no float16 conversion.
  Result<std::shared_ptr<PreparedModel>> prepareModelFromCache(
      std::shared_ptr<const Model> model, const CachedBytes& cached,
      const PrepareOptions& options) override {
    const CompileSettings settings = settingsFor(options);
    ANNRT_ASSIGN_OR_RETURN(CachedCompile compile, readCompileCache(*model, settings, cached));
    logPlan(*model, compile.plan.stages, settings.threads, handOffMicros(),
            "preparing from the cache");
    const std::shared_ptr<const WeightStore> weights = compile.weights;
    ANNRT_ASSIGN_OR_RETURN(
        std::unique_ptr<StagedGraph> graph,
        StagedGraph::compile(model, std::move(compile.plan), sharedThreadPool(settings.threads),
                             std::move(compile.weights)));
    weights->releaseConvertedHalves();
    releaseFreedHeap();
    if (spareCoreForPages(settings.threads)) graph->populateArenaAhead();
    return std::shared_ptr<PreparedModel>(
        std::make_shared<CpuPreparedModel>(std::move(graph), load_, settings));
  }

 private:
  // Whether a compilation of `threads` may map its arena's pages on a thread
  // of its own: at 1 thread, with a second core idle. At 2 threads the
  // mapping thread took the pool's second core and the first inference
  // came later, not sooner (docs/threads.md).
  bool spareCoreForPages(uint32_t threads) const {
    if (threads != 1) return false;
    if (load_ == nullptr) return onlineCores() > 1;
    return load_->advise(2).usePool;
  }

  std::string name_ = kCpuDeviceName;
  std::string version_ = "annrt-0.1-xnnpack";
  Capabilities capabilities_ = cpuCapabilities();
  // Shared by the prepared models: one reading of /proc/stat per window.
  std::shared_ptr<CpuLoad> load_ = adaptiveThreads() ? std::make_shared<CpuLoad>() : nullptr;
};

}  // namespace

std::shared_ptr<Device> createCpuDevice() {
  return std::make_shared<CpuDevice>();
}

}  // namespace annrt::cpu
