// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's compilation cache (src/drivers/cpu/cpu_cache.h) on the default
// models, at 1 and 2 threads: a prepared model rebuilt from the bytes it
// serialized computes bit-identical outputs; bytes truncated, corrupted or
// written for another model or thread count are refused with an error, or
// (a changed flag that still makes a valid plan) compute the same outputs.
// Prints cold and warm prepare times ("[ cache ]" lines).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <random>

#include "common/default_models.h"
#include "common/device.h"
#include "common/scoped_environment.h"
#include "cpu/test_graph.h"
#include "drivers/cpu/cpu_device.h"
#include "drivers/cpu/native_kernel_table.h"
#include "runtime/model_builder.h"
#include "tflite/importer.h"

namespace annrt::cpu {
namespace {

using test::defaultModels;

struct LoadedModel {
  std::unique_ptr<tflite::ImportedModel> imported;  // owns the model's data
  std::shared_ptr<const Model> model;
};

// The runtime's Model behind an ANeuralNetworksModel: the C handle holds a
// shared ModelBuilder as its only member (Handle in runtime/ndk_api.cpp).
std::shared_ptr<const Model> internalModel(ANeuralNetworksModel* handle) {
  return (*reinterpret_cast<const std::shared_ptr<runtime::ModelBuilder>*>(handle))->model();
}

LoadedModel load(const std::string& name) {
  auto imported = tflite::importFile(test::modelPath(name));
  EXPECT_TRUE(imported.ok()) << imported.error().message;
  if (!imported.ok()) return {};
  std::shared_ptr<const Model> model = internalModel((*imported)->model());
  return {std::move(imported).value(), std::move(model)};
}

// `bytes` copied to a 64-byte boundary, as the runtime maps a cache file.
CachedBytes alignedCopy(std::span<const uint8_t> bytes) {
  constexpr std::align_val_t kAlignment{64};
  std::shared_ptr<uint8_t> copy(
      static_cast<uint8_t*>(::operator new[](std::max<size_t>(bytes.size(), 1), kAlignment)),
      [=](uint8_t* p) { ::operator delete[](p, kAlignment); });
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  return {copy, {copy.get(), bytes.size()}};
}

using Outputs = std::vector<std::vector<uint8_t>>;

std::vector<std::vector<uint8_t>> randomInputs(const Model& model, uint32_t seed) {
  std::vector<std::vector<uint8_t>> inputs;
  for (uint32_t index : model.main.inputIndexes) {
    inputs.push_back(test::randomBytes(byteSize(model.main.operands[index].shape), seed++));
    if (model.main.operands[index].shape.type != OperandType::TENSOR_FLOAT32) continue;
    const std::vector<float> values = test::randomValues(inputs.back().size() / 4, seed, -1, 1);
    std::memcpy(inputs.back().data(), values.data(), inputs.back().size());
  }
  return inputs;
}

Outputs run(PreparedModel& prepared, const Model& model,
            const std::vector<std::vector<uint8_t>>& inputs) {
  Request request;
  Outputs outputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Shape& shape = model.main.operands[model.main.inputIndexes[i]].shape;
    request.inputs.push_back(
        {false, const_cast<uint8_t*>(inputs[i].data()), inputs[i].size(), shape.dims});
  }
  for (uint32_t index : model.main.outputIndexes) {
    outputs.emplace_back(byteSize(model.main.operands[index].shape));
  }
  for (std::vector<uint8_t>& output : outputs) {
    request.outputs.push_back({false, output.data(), output.size(), {}});
  }
  const ExecutionOutcome outcome = prepared.execute(request, {});
  EXPECT_EQ(outcome.status, ErrorCode::NO_ERROR) << outcome.message;
  return outputs;
}

double millisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

class CpuCacheTest : public testing::TestWithParam<std::tuple<std::string, uint32_t>> {
 protected:
  void SetUp() override {
    const auto& [name, threads] = GetParam();
    loaded_ = load(name);
    ASSERT_NE(loaded_.model, nullptr);
    options_.numThreads = threads;
    for (bool claimed : device_->supportedOperations(*loaded_.model)) {
      ASSERT_TRUE(claimed) << name << ": annrt-cpu does not claim the whole model";
    }
    auto start = std::chrono::steady_clock::now();
    auto prepared = device_->prepareModel(loaded_.model, options_);
    coldMs_ = millisSince(start);
    ASSERT_TRUE(prepared.ok()) << prepared.error().message;
    cold_ = std::move(prepared).value();
    inputs_ = randomInputs(*loaded_.model, 7);
    expected_ = run(*cold_, *loaded_.model, inputs_);
    BytesCacheWriter out;
    ASSERT_TRUE(cold_->serialize(out).ok());
    bytes_ = std::move(out.bytes);
  }

  Result<std::shared_ptr<PreparedModel>> warm(std::span<const uint8_t> bytes) {
    return device_->prepareModelFromCache(loaded_.model, alignedCopy(bytes), options_);
  }

  // Bytes that are not a cache of this compile: an error, or a plan that
  // computes the same outputs.
  void expectRefusedOrSame(std::span<const uint8_t> bytes, const std::string& what) {
    auto prepared = warm(bytes);
    if (!prepared.ok()) {
      EXPECT_FALSE(prepared.error().message.empty()) << what;
      ++refused_;
      return;
    }
    EXPECT_TRUE(run(**prepared, *loaded_.model, inputs_) == expected_) << what;
  }

  std::shared_ptr<Device> device_ = createCpuDevice();
  LoadedModel loaded_;
  PrepareOptions options_;
  std::shared_ptr<PreparedModel> cold_;
  double coldMs_ = 0;
  std::vector<std::vector<uint8_t>> inputs_;
  Outputs expected_;
  std::vector<uint8_t> bytes_;
  size_t refused_ = 0;
};

TEST_P(CpuCacheTest, WarmStartComputesTheSameOutputs) {
  // Offsets are relative to where serialize starts writing.
  BytesCacheWriter appended;
  appended.bytes.assign(24, 0xA5);
  ASSERT_TRUE(cold_->serialize(appended).ok());
  ASSERT_EQ(std::vector<uint8_t>(appended.bytes.begin() + 24, appended.bytes.end()), bytes_);
  auto prepared = warm(bytes_);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  // The test's copy is gone: the prepared model keeps the bytes it reads.
  EXPECT_TRUE(run(**prepared, *loaded_.model, inputs_) == expected_);
  BytesCacheWriter again;
  ASSERT_TRUE((*prepared)->serialize(again).ok());
  EXPECT_EQ(again.bytes, bytes_) << "a warm start serializes what it was built from";
}

// Not a check: cold and warm prepare times, the best of 3 (the copy of
// the bytes, which the runtime maps instead, is not timed).
TEST_P(CpuCacheTest, PrepareTimes) {
  double cold = coldMs_, warmed = 1e9;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(device_->prepareModel(loaded_.model, options_).ok());
    cold = std::min(cold, millisSince(start));
    const CachedBytes cached = alignedCopy(bytes_);
    start = std::chrono::steady_clock::now();
    ASSERT_TRUE(device_->prepareModelFromCache(loaded_.model, cached, options_).ok());
    warmed = std::min(warmed, millisSince(start));
  }
  fmt::print(
      "[ cache ] {} threads {}: cold prepare {:.2f} ms (first {:.2f}), warm {:.2f} ms, {} KiB\n",
      std::get<0>(GetParam()), options_.numThreads, cold, coldMs_, warmed, bytes_.size() / 1024);
}

TEST_P(CpuCacheTest, TruncatedBytesAreRefused) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n < std::min<size_t>(bytes_.size(), 512); ++n) lengths.push_back(n);
  for (size_t k = 1; k < 64; ++k) lengths.push_back(bytes_.size() * k / 64);
  lengths.push_back(bytes_.size() - 1);
  for (size_t n : lengths) {
    auto prepared = warm(std::span(bytes_).first(n));
    EXPECT_FALSE(prepared.ok()) << n << " of " << bytes_.size() << " bytes";
  }
  // And with bytes added.
  std::vector<uint8_t> longer = bytes_;
  longer.resize(bytes_.size() + 64);
  EXPECT_FALSE(warm(longer).ok());
}

// Random bytes of the header, the plan and the index changed: everything
// but the blobs, which the runtime's checksum guards.
TEST_P(CpuCacheTest, CorruptedStructureIsRefusedOrHarmless) {
  // CacheHeader's entryCount and indexOffset (cpu_cache.cpp); entries of 32 bytes.
  uint64_t indexOffset = 0;
  uint32_t entries = 0;
  std::memcpy(&indexOffset, bytes_.data() + 48, sizeof indexOffset);
  std::memcpy(&entries, bytes_.data() + 36, sizeof entries);
  const size_t structure = indexOffset + size_t{entries} * 32;
  ASSERT_LE(structure, bytes_.size());
  std::mt19937 random(11);
  constexpr int kTrials = 150;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<uint8_t> corrupted = bytes_;
    const size_t at = random() % structure;
    corrupted[at] ^= static_cast<uint8_t>(1 + random() % 255);
    expectRefusedOrSame(corrupted, fmt::format("byte {} of {} changed", at, structure));
  }
  // Nearly every change is caught by the format's own checks; how many
  // depends on the plan's layout, which differs with the compiler (GCC 12
  // builds passed 4/5; clang 16's ASan+UBSan build refused 115-119 of 150).
  EXPECT_GE(refused_, kTrials * 3 / 4);
}

TEST_P(CpuCacheTest, OtherSettingsAreRefused) {
  PrepareOptions other = options_;
  other.numThreads = options_.numThreads == 1 ? 2 : 1;
  EXPECT_FALSE(device_->prepareModelFromCache(loaded_.model, alignedCopy(bytes_), other).ok());
  std::vector<uint8_t> unaligned(bytes_.size() + 1);
  std::memcpy(unaligned.data() + 1, bytes_.data(), bytes_.size());
  const CachedBytes cached = alignedCopy(unaligned);
  EXPECT_FALSE(
      device_
          ->prepareModelFromCache(loaded_.model, {cached.owner, cached.bytes.subspan(1)}, options_)
          .ok());
}

// The runtime keys annrt-cpu's cache entries (and its supported operations)
// by these, so a process with other settings never finds them.
TEST(CpuDeviceCacheSettingsTest, FollowTheNativeKernelModeAndTheInstructionSet) {
  const std::shared_ptr<Device> device = createCpuDevice();
  test::ScopedEnvironment environment;
  environment.set("ANNRT_CPU_NATIVE_KERNELS", nullptr);
  const std::string table = device->cacheSettings();
  environment.set("ANNRT_CPU_NATIVE_KERNELS", "0");
  const std::string off = device->cacheSettings();
  environment.set("ANNRT_CPU_NATIVE_KERNELS", "all");
  const std::string all = device->cacheSettings();
  EXPECT_NE(table, off);
  EXPECT_NE(table, all);
  EXPECT_NE(off, all);
  environment.set("ANNRT_CPU_NATIVE_KERNELS", nullptr);
  const cpu::ScopedNativeIsa baseline(cpu::NativeIsa::BASELINE, cpu::NativeIsa::BASELINE);
  if (cpu::hostNativeIsa() != cpu::NativeIsa::BASELINE) {
    EXPECT_NE(device->cacheSettings(), table);
  }
}

// Every model's bytes with every other model.
TEST_P(CpuCacheTest, AnotherModelsBytesAreRefused) {
  for (const std::string& name : defaultModels()) {
    if (name == std::get<0>(GetParam())) continue;
    LoadedModel other = load(name);
    ASSERT_NE(other.model, nullptr);
    auto prepared = device_->prepareModel(other.model, options_);
    ASSERT_TRUE(prepared.ok()) << prepared.error().message;
    BytesCacheWriter bytes;
    ASSERT_TRUE((*prepared)->serialize(bytes).ok());
    EXPECT_FALSE(warm(bytes.bytes).ok()) << name << "'s bytes";
  }
}

std::string testName(const testing::TestParamInfo<CpuCacheTest::ParamType>& info) {
  return fmt::format("{}_{}threads", std::get<0>(info.param), std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(DefaultModels, CpuCacheTest,
                         testing::Combine(testing::ValuesIn(defaultModels()),
                                          testing::Values(1u, 2u)),
                         testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CpuCacheTest);

}  // namespace
}  // namespace annrt::cpu
