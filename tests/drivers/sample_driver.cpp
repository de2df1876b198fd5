// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Sample driver plug-ins that exercise partitioning and fallback. Built three
// times (ANNRT_SAMPLE selects which):
//   sample-float-fast  float32 CONV_2D, DEPTHWISE_CONV_2D and ADD only; claims 2x speed
//   sample-quant       operations on quantized tensors only; claims 2x speed
//   sample-abi10       sample-float-fast as a driver of ABI 1.0 (no caching)
//   sample-failing     claims every operation at 10x speed and fails on purpose:
//                      ANNRT_SAMPLE_FAILING_MODE=compile (default) | execute | output-size
//                      | execute-once (the first execution only; firstExecution)
//                      and, for ANNRT_DRIVER_ISOLATION tests (they would take the
//                      application down in process), crashes at execute:
//                      abort | segv | hang (spins forever) | alloc (touches 10 GB)
//                      | overflow (writes a page past the end of output 0)
//                      | write-input (writes into input 0)
// ANNRT_SAMPLE_FEATURE_LEVEL, if set, is the feature level code every sample
// reports (a device newer than the runtime, whose level the runtime caps).
// They compute with the reference kernels, so results are real. They cache
// (driver ABI 1.1) a record of what they prepared, checked against the model
// when read back, so the runtime's cache path through the ABI is exercised;
// ANNRT_SAMPLE_CACHE_SETTINGS is the settings text they give the runtime for
// its cache keys (ABI 1.2).
#include <annrt/driver.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "driver_abi/exported_device.h"
#include "drivers/reference/reference_device.h"

namespace annrt::samples {
namespace {

enum class Kind { FLOAT_FAST, QUANT, FAILING };

#if ANNRT_SAMPLE == 1
constexpr Kind kKind = Kind::FLOAT_FAST;
constexpr const char* kName = "sample-float-fast";
#elif ANNRT_SAMPLE == 4
// sample-float-fast as a driver built against ABI 1.0 (before caching).
constexpr Kind kKind = Kind::FLOAT_FAST;
constexpr const char* kName = "sample-abi10";
#define ANNRT_SAMPLE_ABI_1_0 1
#elif ANNRT_SAMPLE == 2
constexpr Kind kKind = Kind::QUANT;
constexpr const char* kName = "sample-quant";
#else
constexpr Kind kKind = Kind::FAILING;
constexpr const char* kName = "sample-failing";
#endif

bool isQuantizedTensor(OperandType type) {
  return isQuantizedType(type);
}

bool allTensorsAre(const Model& model, const Operation& operation, OperandType type) {
  for (const auto* list : {&operation.inputs, &operation.outputs}) {
    for (uint32_t index : *list) {
      const OperandType t = model.main.operands[index].shape.type;
      if (isTensorType(t) && t != type) return false;
    }
  }
  return true;
}

bool claims(const Model& model, const Operation& operation) {
  switch (kKind) {
    case Kind::FLOAT_FAST:
      return (operation.type == OperationType::CONV_2D ||
              operation.type == OperationType::DEPTHWISE_CONV_2D ||
              operation.type == OperationType::ADD) &&
             allTensorsAre(model, operation, OperandType::TENSOR_FLOAT32);
    case Kind::QUANT:
      return !operation.inputs.empty() &&
             isQuantizedTensor(model.main.operands[operation.inputs[0]].shape.type) &&
             operation.type != OperationType::IF && operation.type != OperationType::WHILE;
    case Kind::FAILING: return true;
  }
  return false;
}

int64_t reportedFeatureLevel(int64_t own) {
  const char* level = std::getenv("ANNRT_SAMPLE_FEATURE_LEVEL");
  return level && *level ? std::strtoll(level, nullptr, 10) : own;
}

std::string failingMode() {
  const char* mode = std::getenv("ANNRT_SAMPLE_FAILING_MODE");
  return mode && *mode ? mode : "compile";
}

// execute-once: whether this execution is the first, which fails. Across
// processes when ANNRT_SAMPLE_FAILING_ONCE_FILE names a file the first one
// creates (annrt-cts reruns a failed case in a fresh worker), else per process.
bool firstExecution() {
  const char* path = std::getenv("ANNRT_SAMPLE_FAILING_ONCE_FILE");
  if (path != nullptr && *path != '\0') {
    const int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    close(fd);
    return true;
  }
  static std::atomic<bool> executed{false};
  return !executed.exchange(true);
}

// The execute-time crash modes; only the process running the driver survives
// them when it is isolated.
void crashAsAsked(const std::string& mode, const Request& request) {
  if (mode == "abort") std::abort();
  if (mode == "segv") {
    // A real fault: a store to a page nobody may touch.
    void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *static_cast<volatile char*>(page) = 1;
  }
  if (mode == "write-input" && !request.inputs.empty() && request.inputs[0].length > 0) {
    request.inputs[0].data[0] ^= 0xff;
  }
  if (mode == "hang") {
    for (volatile bool spin = true; spin;) {
    }
  }
  if (mode == "alloc") {
    constexpr size_t kHuge = size_t{10} << 30;
    std::unique_ptr<char[]> huge(new char[kHuge]);
    std::memset(huge.get(), 1, kHuge);
    request.outputs[0].data[0] = huge[kHuge - 1];
  }
}

// overflow: a driver bug writing a page past the end of output 0.
void overflowAsAsked(const std::string& mode, const Request& request) {
  if (mode != "overflow" || request.outputs.empty()) return;
  const RequestArgument& output = request.outputs[0];
  std::memset(output.data + output.length, 0x5a, 4096);
}

// What a sample caches: which sample prepared which shape of model. A real
// driver would store its compiled form; the samples' is the reference's.
struct CacheRecord {
  char magic[8] = {'S', 'A', 'M', 'P', 'L', 'E', '1', '\0'};
  int32_t kind = static_cast<int32_t>(kKind);
  uint32_t operandCount = 0;
  uint32_t operationCount = 0;
  uint32_t operationTypeSum = 0;
};

CacheRecord recordOf(const Model& model) {
  CacheRecord record;
  record.operandCount = static_cast<uint32_t>(model.main.operands.size());
  record.operationCount = static_cast<uint32_t>(model.main.operations.size());
  for (const Operation& operation : model.main.operations) {
    record.operationTypeSum = record.operationTypeSum * 31 + static_cast<uint32_t>(operation.type);
  }
  return record;
}

Result<void> checkRecord(const Model& model, std::span<const uint8_t> bytes) {
  ANNRT_CHECK(bytes.size() == sizeof(CacheRecord), "{}: cached record of {} bytes, expected {}",
              kName, bytes.size(), sizeof(CacheRecord));
  const CacheRecord expected = recordOf(model);
  ANNRT_CHECK(std::memcmp(bytes.data(), &expected, sizeof(expected)) == 0,
              "{}: the cached record is for another model or sample", kName);
  return {};
}

// Wraps a reference prepared model; the failing sample breaks it on purpose.
class SamplePreparedModel final : public PreparedModel {
 public:
  SamplePreparedModel(std::shared_ptr<PreparedModel> inner, CacheRecord record)
      : inner_(std::move(inner)), record_(record) {}

  Result<void> serialize(CacheWriter& out) const override {
    ANNRT_CHECK_CODE(ErrorCode::OP_FAILED,
                     out.write({reinterpret_cast<const uint8_t*>(&record_), sizeof(record_)}),
                     "{}: the runtime did not take the cached record", kName);
    return {};
  }

  ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) override {
    if (kKind == Kind::FAILING && failingMode() == "execute") {
      return {ErrorCode::OP_FAILED, "execution fails on purpose", {}, {}, {}};
    }
    if (kKind == Kind::FAILING && failingMode() == "execute-once" && firstExecution()) {
      return {ErrorCode::OP_FAILED, "the first execution fails on purpose", {}, {}, {}};
    }
    if (kKind == Kind::FAILING && failingMode() == "output-size") {
      ExecutionOutcome outcome{
          ErrorCode::OUTPUT_INSUFFICIENT_SIZE, "reports every output as too small", {}, {}, {}};
      for (const RequestArgument& output : request.outputs) {
        outcome.outputShapes.push_back({output.dims, false});
      }
      return outcome;
    }
    if (kKind == Kind::FAILING) crashAsAsked(failingMode(), request);
    ExecutionOutcome outcome = inner_->execute(request, options);
    if (kKind == Kind::FAILING) overflowAsAsked(failingMode(), request);
    return outcome;
  }

 private:
  std::shared_ptr<PreparedModel> inner_;
  CacheRecord record_;
};

class SampleDevice final : public Device {
 public:
  SampleDevice() : reference_(reference::createReferenceDevice()) {
    // sample-failing must look better than every real device (annrt-cpu
    // reports 0.1) so that plans pick it and its failures are exercised.
    const float speed = kKind == Kind::FAILING ? 0.01f : 0.5f;
    if (kKind == Kind::FLOAT_FAST) {
      capabilities_.operandPerformance[OperandType::TENSOR_FLOAT32] = {speed, speed};
    } else if (kKind == Kind::QUANT) {
      for (OperandType type :
           {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
            OperandType::TENSOR_QUANT8_SYMM, OperandType::TENSOR_QUANT16_ASYMM,
            OperandType::TENSOR_QUANT16_SYMM}) {
        capabilities_.operandPerformance[type] = {speed, speed};
      }
    } else {
      capabilities_.defaultPerformance = {speed, speed};
      capabilities_.relaxedFloat32toFloat16Tensor = {speed, speed};
      capabilities_.relaxedFloat32toFloat16Scalar = {speed, speed};
      capabilities_.ifPerformance = {speed, speed};
      capabilities_.whilePerformance = {speed, speed};
    }
  }

  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 4; }  // ANEURALNETWORKS_DEVICE_ACCELERATOR
  int64_t featureLevel() const override { return reportedFeatureLevel(reference_->featureLevel()); }
  const Capabilities& capabilities() const override { return capabilities_; }

  std::vector<bool> supportedOperations(const Model& model) const override {
    const std::vector<bool> known = reference_->supportedOperations(model);
    std::vector<bool> supported;
    for (size_t i = 0; i < model.main.operations.size(); ++i) {
      supported.push_back(known[i] && claims(model, model.main.operations[i]));
    }
    return supported;
  }

  Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model> model,
                                                      const PrepareOptions& options) override {
    if (kKind == Kind::FAILING && failingMode() == "compile") {
      return makeError(ErrorCode::OP_FAILED, "compilation fails on purpose");
    }
    const CacheRecord record = recordOf(*model);
    ANNRT_ASSIGN_OR_RETURN(auto inner, reference_->prepareModel(std::move(model), options));
    return std::shared_ptr<PreparedModel>(std::make_shared<SamplePreparedModel>(inner, record));
  }

  bool supportsCaching() const override { return true; }

  std::string cacheSettings() const override {
    const char* settings = std::getenv("ANNRT_SAMPLE_CACHE_SETTINGS");
    return settings != nullptr ? settings : "";
  }

  Result<std::shared_ptr<PreparedModel>> prepareModelFromCache(
      std::shared_ptr<const Model> model, const CachedBytes& cached,
      const PrepareOptions& options) override {
    ANNRT_RETURN_IF_ERROR(checkRecord(*model, cached.bytes));
    return prepareModel(std::move(model), options);
  }

 private:
  std::shared_ptr<Device> reference_;
  std::string name_ = kName;
  std::string version_ = "sample-1";
  Capabilities capabilities_;
};

}  // namespace
}  // namespace annrt::samples

extern "C" __attribute__((visibility("default"))) const AnnrtDriver* annrt_driver_init(
    uint32_t runtimeAbiVersion) {
  if (ANNRT_DRIVER_ABI_MAJOR(runtimeAbiVersion) !=
      ANNRT_DRIVER_ABI_MAJOR(ANNRT_DRIVER_ABI_VERSION)) {
    return nullptr;
  }
  static const annrt::abi::DeviceExporter exporter(
      annrt::samples::kName, {std::make_shared<annrt::samples::SampleDevice>()});
#ifdef ANNRT_SAMPLE_ABI_1_0
  // What a driver compiled against ABI 1.0 returns: structs of that size.
  static const AnnrtDevice device = [] {
    AnnrtDevice d = exporter.driver()->devices[0];
    d.size = ANNRT_DEVICE_SIZE_1_0;
    return d;
  }();
  static const AnnrtDriver driver = [] {
    AnnrtDriver d = *exporter.driver();
    d.abiVersion = 1u << 16;
    d.devices = &device;
    return d;
  }();
  return &driver;
#else
  return exporter.driver();
#endif
}
