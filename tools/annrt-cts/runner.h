// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs one test case through the public NNAPI C API the way AOSP's
// TestGenerated.cpp / GeneratedTestUtils.cpp do (see README "How AOSP runs a
// case"): build, finish, compile (optionally again with caching), check the
// preferred memory alignment/padding, execute as a single-use and as a
// reusable execution (computing twice), check shapes and values.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "test_case.h"

namespace annrt::cts {

enum class ComputeMode { kSync, kAsync, kBurst, kFenced };

// Which suite a run belongs to. kBase is GeneratedTests for valid cases,
// GeneratedValidationTests for expectFailure cases, and the loop-timeout check
// for the isInfiniteLoopTimeoutTest cases.
enum class Variant { kBase, kDynamicOutputShape, kQuantizationCoupling, kDeviceMemory };

enum class Status { kPassed, kFailed, kSkipped };

struct RunOptions {
  ComputeMode mode = ComputeMode::kSync;
  bool cache = false;
  std::filesystem::path cacheDir;  // used when `cache` is set
  // Devices for ANeuralNetworksCompilation_createForDevices; empty means
  // ANeuralNetworksCompilation_create.
  std::vector<const ANeuralNetworksDevice*> devices;
  int64_t runtimeFeatureLevel = 0;
  uint64_t loopTimeoutNs = 1'000'000;  // for the isInfiniteLoopTimeoutTest cases
  // Inputs and outputs through driver-allocated memories (set by runCase for
  // Variant::kDeviceMemory).
  bool deviceMemory = false;
  // Called with true right before each compute and with false right after;
  // the watchdog measures the time in between.
  std::function<void(bool computing)> onCompute;
};

struct CaseResult {
  Status status = Status::kPassed;
  std::string stage;  // where a failure happened: model, finish, compile, ...
  int code = 0;       // NNAPI result code of the failing call, 0 if none
  std::string message;
  std::optional<Mismatch> mismatch = std::nullopt;
  // --cache: the entries the first cached compilation stored, which the
  // second was prepared from (0: nothing of the case was cached).
  uint32_t cacheEntries = 0;
};

CaseResult runCase(const TestCase& testCase, Variant variant, const RunOptions& options);

const char* modeName(ComputeMode mode);
const char* variantSuffix(Variant variant);  // "" or "#dynamic_output_shape", ...
const char* statusName(Status status);

}  // namespace annrt::cts
