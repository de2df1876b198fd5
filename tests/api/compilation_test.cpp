// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ANeuralNetworksCompilation_*: creation (with and without devices), the
// settings before finish, finish itself, and the preferred memory alignment
// and padding queries after it.
#include <filesystem>
#include <limits>
#include <ostream>

#include "annrt/compilation_attributes.h"
#include "common/temp_path.h"
#include "test_models.h"

namespace annrt::test {
namespace {

bool isPowerOfTwo(uint32_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

class CompilationTest : public ::testing::Test {
 protected:
  void SetUp() override { model_ = floorModel(); }
  ANeuralNetworksModel* model() const { return model_.get(); }
  Model model_;
};

TEST_F(CompilationTest, CreateChecksNullsAndAnUnfinishedModel) {
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_create(nullptr, &compilation));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksCompilation_create(model(), nullptr));
  Model unfinished = floorModel(kDims, kDims, /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksCompilation_create(unfinished.get(), &compilation));
  EXPECT_EQ(compilation, nullptr);
  ANeuralNetworksCompilation_free(nullptr);  // documented as a no-op
  // Once finished, the same model compiles.
  ASSERT_OK(ANeuralNetworksModel_finish(unfinished.get()));
  EXPECT_NE(compile(unfinished.get()), nullptr);
}

TEST_F(CompilationTest, CreateForDevicesChecksTheDeviceList) {
  const ANeuralNetworksDevice* device = deviceAt(0);
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_createForDevices(nullptr, &device, 1, &compilation));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_createForDevices(model(), nullptr, 1, &compilation));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_createForDevices(model(), &device, 1, nullptr));
  const ANeuralNetworksDevice* withNull[] = {device, nullptr};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_createForDevices(model(), withNull, 2, &compilation));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_createForDevices(model(), &device, 0, &compilation));
  const ANeuralNetworksDevice* duplicates[] = {device, device};
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_createForDevices(model(), duplicates, 2, &compilation));
  // A pointer that is no device of this runtime.
  int notADevice = 0;
  const auto* bogus = reinterpret_cast<const ANeuralNetworksDevice*>(&notADevice);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_createForDevices(model(), &bogus, 1, &compilation));
  EXPECT_EQ(compilation, nullptr);
  Model unfinished = floorModel(kDims, kDims, /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_createForDevices(
                                           unfinished.get(), &device, 1, &compilation));
  EXPECT_NE(compileForDevice(model()), nullptr);
}

TEST_F(CompilationTest, SettingsRejectInvalidValuesAndKeepTheCompilationUsable) {
  Compilation compilation = compile(model(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_setPreference(nullptr, ANEURALNETWORKS_PREFER_LOW_POWER));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_setPreference(compilation.get(), 40));
  // AOSP refuses only values past the last preference (CompilationBuilder).
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_setPreference(compilation.get(), 3));
  for (int32_t preference : {int32_t{-1}, int32_t{ANEURALNETWORKS_PREFER_LOW_POWER},
                             int32_t{ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER},
                             int32_t{ANEURALNETWORKS_PREFER_SUSTAINED_SPEED}}) {
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksCompilation_setPreference(compilation.get(), preference));
  }
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_setPriority(nullptr, ANEURALNETWORKS_PRIORITY_DEFAULT));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksCompilation_setPriority(compilation.get(), 0));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_setPriority(compilation.get(), 101));
  for (int priority : {ANEURALNETWORKS_PRIORITY_LOW, ANEURALNETWORKS_PRIORITY_MEDIUM,
                       ANEURALNETWORKS_PRIORITY_HIGH}) {
    EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
              ANeuralNetworksCompilation_setPriority(compilation.get(), priority));
  }
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksCompilation_finish(compilation.get()));
  EXPECT_NE(newExecution(compilation.get()), nullptr);
}

TEST_F(CompilationTest, SetCaching) {
  Compilation compilation = compile(model(), /*finish=*/false);
  // The cache files this writes go to a directory of this process alone.
  const TempPath cacheDir("annrt_set_caching");
  const std::string& dir = cacheDir.str();
  std::filesystem::create_directories(dir);
  const std::vector<uint8_t> token(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, 7);
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_setCaching(nullptr, dir.c_str(), token.data()));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_setCaching(compilation.get(), nullptr, token.data()));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_setCaching(compilation.get(), dir.c_str(), nullptr));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksCompilation_setCaching(compilation.get(), dir.c_str(), token.data()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksCompilation_finish(compilation.get()));
}

TEST_F(CompilationTest, ModificationAfterFinishIsBadState) {
  Compilation compilation = compileForDevice(model());
  const std::vector<uint8_t> token(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, 0);
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_setPreference(
                                           compilation.get(), ANEURALNETWORKS_PREFER_LOW_POWER));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_setPriority(
                                           compilation.get(), ANEURALNETWORKS_PRIORITY_DEFAULT));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_setTimeout(compilation.get(), 1));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksCompilation_setCaching(compilation.get(), "/tmp", token.data()));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_finish(compilation.get()));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksCompilation_finish(nullptr));
  EXPECT_NE(newExecution(compilation.get()), nullptr);
}

TEST_F(CompilationTest, TimeoutNeedsExactlyOneExplicitDevice) {
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL, ANeuralNetworksCompilation_setTimeout(nullptr, 1000));
  Compilation automatic = compile(model(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_setTimeout(automatic.get(), 1'000'000'000));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksCompilation_finish(automatic.get()));

  Compilation explicitDevice = compileForDevice(model(), /*finish=*/false);
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksCompilation_setTimeout(explicitDevice.get(), 1'000'000'000));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksCompilation_setTimeout(explicitDevice.get(),
                                                  std::numeric_limits<uint64_t>::max()));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksCompilation_setTimeout(explicitDevice.get(), 0));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksCompilation_finish(explicitDevice.get()));
}

TEST_F(CompilationTest, ShortTimeoutFinishesOrMissesTheDeadline) {
  Compilation compilation = compileForDevice(model(), /*finish=*/false);
  ASSERT_OK(ANeuralNetworksCompilation_setTimeout(compilation.get(), 1));
  const int result = ANeuralNetworksCompilation_finish(compilation.get());
  EXPECT_TRUE(result == ANEURALNETWORKS_NO_ERROR ||
              result == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
              result == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT)
      << resultName(result);
}

// A model with an operation no device supports cannot be compiled; the
// failed compilation cannot create executions, bursts or memory roles.
TEST_F(CompilationTest, UnsupportedOperationFailsFinish) {
  Model oem = oemAndFloorModel();
  for (bool explicitDevice : {false, true}) {
    SCOPED_TRACE(explicitDevice ? "createForDevices" : "create");
    Compilation compilation =
        explicitDevice ? compileForDevice(oem.get(), false) : compile(oem.get(), false);
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksCompilation_finish(compilation.get()));
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksCompilation_finish(compilation.get()));
    ANeuralNetworksExecution* execution = nullptr;
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
              ANeuralNetworksExecution_create(compilation.get(), &execution));
    EXPECT_EQ(execution, nullptr);
    ANeuralNetworksBurst* burst = nullptr;
    EXPECT_NN(ANEURALNETWORKS_BAD_STATE, ANeuralNetworksBurst_create(compilation.get(), &burst));
    EXPECT_EQ(burst, nullptr);
    ANeuralNetworksMemoryDesc* rawDesc = nullptr;
    ASSERT_OK(ANeuralNetworksMemoryDesc_create(&rawDesc));
    MemoryDesc desc(rawDesc);
    EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
              ANeuralNetworksMemoryDesc_addInputRole(desc.get(), compilation.get(), 1, 1.0f));
  }
}

struct PreferenceQuery {
  const char* name;  // the function's name after ANeuralNetworksCompilation_getPreferredMemory
  int (*call)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*);
};

void PrintTo(const PreferenceQuery& query, std::ostream* out) {
  *out << query.name;
}

class PreferredMemoryTest : public CompilationTest,
                            public ::testing::WithParamInterface<PreferenceQuery> {};

TEST_P(PreferredMemoryTest, IsAPowerOfTwoAfterFinish) {
  const auto query = GetParam().call;
  Compilation compilation = compile(model(), /*finish=*/false);
  uint32_t value = 0;
  // Not through EXPECT_NN: the function pointer hides the name it logs.
  EXPECT_EQ(ANEURALNETWORKS_UNEXPECTED_NULL, query(nullptr, 0, &value));
  EXPECT_EQ(ANEURALNETWORKS_UNEXPECTED_NULL, query(compilation.get(), 0, nullptr));
  EXPECT_EQ(ANEURALNETWORKS_BAD_STATE, query(compilation.get(), 0, &value));
  ASSERT_OK(ANeuralNetworksCompilation_finish(compilation.get()));
  EXPECT_EQ(ANEURALNETWORKS_BAD_DATA, query(compilation.get(), 1, &value));
  EXPECT_EQ(ANEURALNETWORKS_BAD_DATA,
            query(compilation.get(), std::numeric_limits<uint32_t>::max(), &value));
  ASSERT_OK(query(compilation.get(), 0, &value));
  EXPECT_TRUE(isPowerOfTwo(value)) << value;
}

// As AOSP: a compilation whose finish failed answers no query.
TEST_P(PreferredMemoryTest, IsBadStateAfterAFailedFinish) {
  Model oem = oemAndFloorModel();
  Compilation compilation = compileForDevice(oem.get(), /*finish=*/false);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation.get()), ANEURALNETWORKS_BAD_DATA);
  uint32_t value = 0;
  EXPECT_EQ(ANEURALNETWORKS_BAD_STATE, GetParam().call(compilation.get(), 0, &value));
}

INSTANTIATE_TEST_SUITE_P(
    AllQueries, PreferredMemoryTest,
    ::testing::Values(
        PreferenceQuery{"AlignmentForInput",
                        &ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput},
        PreferenceQuery{"PaddingForInput",
                        &ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput},
        PreferenceQuery{"AlignmentForOutput",
                        &ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput},
        PreferenceQuery{"PaddingForOutput",
                        &ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput}),
    [](const ::testing::TestParamInfo<PreferenceQuery>& info) { return info.param.name; });

TEST_F(CompilationTest, PreferredMemoryQueriesLogTheirErrors) {
  Compilation compilation = compile(model());
  uint32_t value = 0;
  EXPECT_NN(
      ANEURALNETWORKS_BAD_DATA,
      ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(compilation.get(), 3, &value));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA, ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
                                          compilation.get(), 3, &value));
}

TEST_F(CompilationTest, ExtensionAttributes) {
  Compilation compilation = compile(model(), /*finish=*/false);
  const int32_t data = 1;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_addExtensionAttribute(nullptr, "org.annrt.none", 0, &data,
                                                             sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_addExtensionAttribute(compilation.get(), nullptr, 0, &data,
                                                             sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(compilation.get(), "org.annrt.none", 0,
                                                             &data, sizeof(data)));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR, ANeuralNetworksCompilation_finish(compilation.get()));
}

TEST_F(CompilationTest, ThreadHintIsCheckedAndGivenOnce) {
  Compilation compilation = compile(model(), /*finish=*/false);
  ANeuralNetworksCompilation* c = compilation.get();
  const char* annrt = ANNRT_COMPILATION_EXTENSION;
  const uint16_t threads = ANNRT_COMPILATION_NUM_THREADS;
  const uint32_t zero = 0;
  const uint32_t tooMany = 257;
  const uint32_t two = 2;
  const uint64_t wide = 2;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, nullptr, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, &zero, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, &tooMany, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, &wide, 8));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, nullptr, 0));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads + 1, &two, 4));
  EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, &two, 4));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, &two, 4));
  ASSERT_OK(ANeuralNetworksCompilation_finish(c));
  EXPECT_NN(ANEURALNETWORKS_BAD_STATE,
            ANeuralNetworksCompilation_addExtensionAttribute(c, annrt, threads, &two, 4));
  // The hinted compilation computes as any other.
  expectFloors(newExecution(c).get());
}

// The application may free the model once the compilation exists, and the
// compilation once executions exist: the runtime keeps what they need.
TEST_F(CompilationTest, ObjectsOutliveTheHandlesTheyWereMadeFrom) {
  Compilation compilation = compile(model());
  model_.reset();
  Execution execution = newExecution(compilation.get());
  compilation.reset();
  expectFloors(execution.get());
}

}  // namespace
}  // namespace annrt::test
