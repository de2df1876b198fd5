// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksExecution: binds inputs and outputs to a compilation and
// runs it (sync, async, fenced or in a burst), then reports output shapes and
// timing. State machine as the spec: preparation -> computation -> completed,
// and back to computation only for reusable executions.
#pragma once

#include <android/NeuralNetworksTypes.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "common/device.h"
#include "runtime/compilation.h"
#include "runtime/event.h"
#include "runtime/memory.h"

namespace annrt::runtime {

class Execution : public std::enable_shared_from_this<Execution> {
 public:
  explicit Execution(std::shared_ptr<const Compilation> compilation);

  Result<void> setArgument(bool isInput, int32_t index, const ANeuralNetworksOperandType* type,
                           const void* buffer, size_t length);
  Result<void> setArgumentFromMemory(bool isInput, int32_t index,
                                     const ANeuralNetworksOperandType* type,
                                     std::shared_ptr<Memory> memory, size_t offset, size_t length);
  Result<void> setMeasureTiming(bool measure);
  Result<void> setTimeout(uint64_t durationNs);
  Result<void> setLoopTimeout(uint64_t durationNs);
  Result<void> setReusable(bool reusable);
  // No device takes execution attributes: BAD_DATA once the state allows one.
  Result<void> addExtensionAttribute(std::string_view extension);
  Result<void> enableInputAndOutputPadding(bool enable);

  Result<void> compute();
  // Asynchronous compute; with dependencies and a fence for fenced executions.
  Result<std::unique_ptr<Event>> startCompute(const std::vector<const Event*>& dependencies,
                                              uint64_t durationAfterDependenciesNs, bool fenced);

  // Dims of an output after a computation that succeeded or ran out of
  // output space (isSufficient false for the outputs whose buffer was too small).
  Result<OutputShape> outputShape(int32_t index) const;
  Result<uint64_t> duration(int32_t durationCode) const;

  const Compilation& compilation() const { return *compilation_; }

 private:
  enum class State { PREPARATION, COMPUTATION, COMPLETED };

  struct Argument {
    enum class Kind { UNSET, POINTER, MEMORY, OMITTED };
    Kind kind = Kind::UNSET;
    uint8_t* buffer = nullptr;
    std::shared_ptr<Memory> memory;
    size_t offset = 0;
    size_t length = 0;
    std::vector<uint32_t> dims;  // model dims refined by the type given here
  };

  Result<void> checkPreparation() const;
  Result<Argument*> argumentAt(bool isInput, int32_t index);
  // NNAPI binds each argument once: BAD_STATE if `argument` is already set.
  Result<void> checkUnset(const Argument& argument, bool isInput, int32_t index) const;
  // The dims `type` gives model input/output `index` (the model's without one).
  Result<std::vector<uint32_t>> argumentDims(bool isInput, int32_t index,
                                             const ANeuralNetworksOperandType* type,
                                             bool allowUnspecified) const;
  // The length `shape` with `dims` needs, exact unless padding is enabled.
  Result<void> checkLength(const Shape& shape, const std::vector<uint32_t>& dims,
                           size_t length) const;
  // AOSP's memory validators: the range of an fd memory, the role and dims of a device memory.
  Result<void> checkMemoryRange(const Memory& memory, bool isInput, int32_t index,
                                const ANeuralNetworksOperandType* type, size_t offset,
                                size_t length) const;
  // Every argument set; for `fenced`, every output shape known and a duration
  // only on a single-device compilation.
  Result<void> checkArguments(bool fenced, uint64_t fencedDurationNs) const;
  // Enters the computation state, or completes with the error of checkArguments.
  Result<void> beginComputation(bool fenced, uint64_t fencedDurationNs);
  ExecutionOutcome run(std::optional<Clock::time_point> deadline);
  // run(), with std::bad_alloc turned into an OUT_OF_MEMORY outcome.
  ExecutionOutcome runCatchingOutOfMemory(std::optional<Clock::time_point> deadline);
  Result<Request> buildRequest();
  void endComputation(ExecutionOutcome outcome, bool fenced);

  std::shared_ptr<const Compilation> compilation_;
  std::vector<Argument> inputs_;
  std::vector<Argument> outputs_;
  mutable std::mutex mutex_;
  State state_ = State::PREPARATION;
  bool reusable_ = false;
  bool measureTiming_ = false;
  bool paddingEnabled_ = false;
  bool anyArgumentSet_ = false;
  std::optional<uint64_t> timeoutNs_;
  uint64_t loopTimeoutNs_;
  ErrorCode lastStatus_ = ErrorCode::NO_ERROR;
  std::vector<OutputShape> outputShapes_;
  Timing timing_;
  bool lastWasFenced_ = false;
};

}  // namespace annrt::runtime
