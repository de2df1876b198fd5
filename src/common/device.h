// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The interface every device implements, in-tree or behind the plug-in C ABI.
// Devices compile whole (sub)models: the runtime hands a device a Model
// holding one partition and gets back a PreparedModel to execute many times.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/model.h"
#include "common/result.h"

namespace annrt {

using Clock = std::chrono::steady_clock;

// `from` + `durationNs`, saturating at the latest time point: NNAPI timeouts are
// uint64_t nanoseconds and may be UINT64_MAX, which overflows Clock's int64.
inline Clock::time_point deadlineAfter(uint64_t durationNs, Clock::time_point from = Clock::now()) {
  const auto left = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::time_point::max() - from)
          .count());
  if (durationNs >= left) return Clock::time_point::max();
  return from + std::chrono::nanoseconds(durationNs);
}

// Relative cost; the reference CPU device is 1.0 for everything. Lower is better.
struct PerformanceInfo {
  float execTime = 1.0f;
  float powerUsage = 1.0f;
};

struct Capabilities {
  PerformanceInfo relaxedFloat32toFloat16Scalar;
  PerformanceInfo relaxedFloat32toFloat16Tensor;
  std::map<OperandType, PerformanceInfo> operandPerformance;  // absent: default
  PerformanceInfo ifPerformance;
  PerformanceInfo whilePerformance;
  PerformanceInfo defaultPerformance;

  PerformanceInfo forOperandType(OperandType type) const;
};

inline constexpr size_t kCacheTokenSize = 32;
// The most threads a compilation may ask a device for (PrepareOptions::numThreads).
inline constexpr uint32_t kMaxThreadCount = 256;

struct PrepareOptions {
  int32_t preference = 1;  // ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER
  int32_t priority = 100;  // ANEURALNETWORKS_PRIORITY_MEDIUM
  std::optional<Clock::time_point> deadline;
  // Compilation caching: empty cacheDir means no caching.
  std::string cacheDir;
  std::array<uint8_t, kCacheTokenSize> token{};
  uint32_t numThreads = 0;  // ANNRT_COMPILATION_NUM_THREADS; 0: the device's choice
};

// One input or output of a request, already resolved to host memory.
struct RequestArgument {
  bool omitted = false;
  uint8_t* data = nullptr;
  size_t length = 0;
  // Dimensions from the execution (setInput/setOutput type) or the model.
  std::vector<uint32_t> dims;
  // When `data` maps a file the application gave (ANeuralNetworksMemory_
  // createFromFd): the file and where `data` lies in it, so that a device in
  // another process maps the bytes instead of copying them. -1: none.
  int fd = -1;
  uint64_t fdOffset = 0;
};

struct Request {
  std::vector<RequestArgument> inputs;
  std::vector<RequestArgument> outputs;
};

struct OutputShape {
  std::vector<uint32_t> dims;
  bool isSufficient = true;
};

inline constexpr uint64_t kNoTiming = UINT64_MAX;

struct Timing {
  uint64_t onDeviceNs = kNoTiming;
  uint64_t inDriverNs = kNoTiming;
};

struct ExecutionOptions {
  bool measureTiming = false;
  // Fill ExecutionOutcome::operationNs (per-operation profiling).
  bool profileOperations = false;
  std::optional<Clock::time_point> deadline;
  uint64_t loopTimeoutNs = 2'000'000'000;  // ANeuralNetworks_getDefaultLoopTimeout()
};

struct ExecutionOutcome {
  ErrorCode status = ErrorCode::NO_ERROR;
  std::string message;
  std::vector<OutputShape> outputShapes;
  Timing timing;
  // With profileOperations: time of each operation of the prepared model's
  // main subgraph, in its order (empty if the device cannot profile).
  std::vector<uint64_t> operationNs;
};

// Bytes a device wrote for a prepared model (PreparedModel::serialize), as the
// runtime read them back from its compilation cache: checked against the
// file's checksum, 64-byte aligned, read-only (mapped from the file, so
// processes loading one cached model share the pages). `owner` keeps them
// valid; a prepared model built from them may keep a copy of it and point
// into the bytes for as long as it lives.
struct CachedBytes {
  std::shared_ptr<const void> owner;
  std::span<const uint8_t> bytes;
};

// Where PreparedModel::serialize writes: the runtime streams the bytes into
// its cache file (nothing of tens of MB is held twice).
class CacheWriter {
 public:
  virtual ~CacheWriter() = default;
  // Appends `bytes`; false when they could not be written (the device then
  // stops and returns an error).
  virtual bool write(std::span<const uint8_t> bytes) = 0;
};

// A CacheWriter into memory (tests, and callers that want the bytes).
class BytesCacheWriter final : public CacheWriter {
 public:
  bool write(std::span<const uint8_t> bytes) override;
  std::vector<uint8_t> bytes;
};

class PreparedModel {
 public:
  virtual ~PreparedModel() = default;
  // Thread-safe: several executions of one prepared model may run at once.
  virtual ExecutionOutcome execute(const Request& request, const ExecutionOptions& options) = 0;
  // Writes to `out` what Device::prepareModelFromCache needs to rebuild this
  // prepared model for the same model and options. Offsets the device keeps
  // inside its bytes are relative to their start, which the runtime places
  // at a 64-byte aligned address when reading them back. OP_FAILED (the
  // default) when the device caches nothing.
  virtual Result<void> serialize(CacheWriter& out) const;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const std::string& name() const = 0;
  virtual const std::string& version() const = 0;
  virtual int32_t type() const = 0;          // DeviceTypeCode
  virtual int64_t featureLevel() const = 0;  // FeatureLevelCode
  virtual const Capabilities& capabilities() const = 0;
  // One flag per operation of model.main.
  virtual std::vector<bool> supportedOperations(const Model& model) const = 0;
  virtual Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model> model,
                                                              const PrepareOptions& options) = 0;
  virtual bool supportsExtension(const std::string& name) const { return false; }
  // Whether prepared models of this device serialize and prepareModelFromCache
  // rebuilds them (the runtime then keeps them in its compilation cache).
  virtual bool supportsCaching() const { return false; }
  // Built into libneuralnetworks (the reference, annrt-cpu): its answers
  // change only with the runtime's build, so the compilation cache may keep
  // its supported operations even when it caches no prepared model.
  virtual bool isBuiltIn() const { return false; }
  // What its supported operations and prepared models depend on in this
  // process besides the model and the options (annrt-cpu: the instruction
  // sets of its kernels and ANNRT_CPU_NATIVE_KERNELS), read at each
  // compilation. Part of every cache key of the device, so that entries made
  // under other settings are never found.
  virtual std::string cacheSettings() const { return {}; }
  // Rebuilds the prepared model that serialize() wrote for `model` (the same
  // partition, with the same options). The runtime has checked the file's
  // header and checksum, but the device checks its own structure: bytes it
  // cannot use are an error (the runtime then logs a cache miss and calls
  // prepareModel), never a crash or a wrong result.
  virtual Result<std::shared_ptr<PreparedModel>> prepareModelFromCache(
      std::shared_ptr<const Model> model, const CachedBytes& cached, const PrepareOptions& options);
};

}  // namespace annrt
