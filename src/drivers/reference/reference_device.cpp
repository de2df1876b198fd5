// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/reference/reference_device.h"

#include "drivers/reference/graph_executor.h"
#include "ops/operation.h"

namespace annrt::reference {
namespace {

struct OperationProfile final : OperationTimer {
  explicit OperationProfile(size_t count) : nanoseconds(count, 0) {}
  void record(uint32_t operationIndex, uint64_t ns) override { nanoseconds[operationIndex] += ns; }
  std::vector<uint64_t> nanoseconds;
};

class ReferencePreparedModel final : public PreparedModel {
 public:
  explicit ReferencePreparedModel(std::shared_ptr<const Model> model) : model_(std::move(model)) {}

  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override {
    if (!options.profileOperations) return executeModel(*model_, request, options);
    OperationProfile profile(model_->main.operations.size());
    ExecutionOutcome outcome = executeModel(*model_, request, options, &profile);
    outcome.operationNs = std::move(profile.nanoseconds);
    return outcome;
  }

 private:
  std::shared_ptr<const Model> model_;
};

class ReferenceDevice final : public Device {
 public:
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 2; }  // ANEURALNETWORKS_DEVICE_CPU
  int64_t featureLevel() const override { return featureLevelCode(kMaxFeatureLevel); }
  const Capabilities& capabilities() const override { return capabilities_; }

  std::vector<bool> supportedOperations(const Model& model) const override {
    std::vector<bool> supported;
    supported.reserve(model.main.operations.size());
    for (const Operation& operation : model.main.operations) {
      supported.push_back(isControlFlow(operation.type) ||
                          ops::findModelOperation(model.extensions, operation.type) != nullptr);
    }
    return supported;
  }

  bool supportsExtension(const std::string& name) const override {
    return ops::isKnownExtension(name);
  }

  Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model> model,
                                                      const PrepareOptions&) override {
    return std::shared_ptr<PreparedModel>(std::make_shared<ReferencePreparedModel>(model));
  }

 private:
  static bool isControlFlow(OperationType type) {
    return type == OperationType::IF || type == OperationType::WHILE;
  }

  std::string name_ = kReferenceDeviceName;
  std::string version_ = "annrt-0.1";
  Capabilities capabilities_;
};

}  // namespace

std::shared_ptr<Device> createReferenceDevice() {
  return std::make_shared<ReferenceDevice>();
}

}  // namespace annrt::reference
