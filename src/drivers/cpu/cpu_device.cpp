// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_device.h"

#include "common/log.h"
#include "drivers/cpu/compiled_graph.h"
#include "drivers/cpu/cpu_prepared_model.h"
#include "drivers/cpu/op_lowering.h"
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
    uint32_t threads = resolveThreadCount(options.numThreads);
    const double threshold = threads > 1 ? minParallelMflopPerNode() : 0;
    if (threshold > 0) {
      const WorkEstimate work = estimateWork(*model);
      if (work.mflopPerNode() < threshold) {
        ANNRT_VLOG(DRIVER,
                   "annrt-cpu: {:.1f} MFLOP over {} nodes ({:.2f} per node, under {}): one "
                   "thread instead of {} (ANNRT_PARALLEL_MIN_MFLOP)",
                   work.mflop, work.nodes, work.mflopPerNode(), threshold, threads);
        threads = 1;
      }
    }
    ANNRT_VLOG(DRIVER, "annrt-cpu: compiling {} operations with {} threads",
               model->main.operations.size(), threads);
    ANNRT_ASSIGN_OR_RETURN(std::unique_ptr<CompiledGraph> graph,
                           CompiledGraph::compile(std::move(model), sharedThreadPool(threads)));
    return std::shared_ptr<PreparedModel>(std::make_shared<CpuPreparedModel>(std::move(graph)));
  }

 private:
  std::string name_ = kCpuDeviceName;
  std::string version_ = "annrt-0.1-xnnpack";
  Capabilities capabilities_ = cpuCapabilities();
};

}  // namespace

std::shared_ptr<Device> createCpuDevice() {
  return std::make_shared<CpuDevice>();
}

}  // namespace annrt::cpu
