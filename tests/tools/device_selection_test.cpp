// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include "client/graph_builder.h"
#include "compilation.h"
#include "devices.h"

namespace annrt::tools {
namespace {

DeviceInfo device(const char* name, int32_t type) {
  DeviceInfo info;
  info.name = name;
  info.type = type;
  return info;
}

const std::vector<DeviceInfo> kDevices = {device("nnapi-reference", ANEURALNETWORKS_DEVICE_CPU),
                                          device("annrt-cpu", ANEURALNETWORKS_DEVICE_CPU),
                                          device("npu", ANEURALNETWORKS_DEVICE_ACCELERATOR),
                                          device("gpu", ANEURALNETWORKS_DEVICE_GPU)};

TEST(DeviceSelectionTest, NoConstraintLetsTheRuntimeChoose) {
  auto selection = selectDevices(kDevices, "", false);
  ASSERT_TRUE(selection.ok());
  EXPECT_TRUE(selection->runtimeChooses);
  EXPECT_EQ(describeSelection(*selection), "runtime's own device selection");
}

TEST(DeviceSelectionTest, NamedDevice) {
  auto selection = selectDevices(kDevices, "npu", false);
  ASSERT_TRUE(selection.ok());
  EXPECT_FALSE(selection->runtimeChooses);
  ASSERT_EQ(selection->devices.size(), 1u);
  EXPECT_EQ(selection->devices[0].name, "npu");
}

TEST(DeviceSelectionTest, NameWinsOverDisableCpu) {
  // As in TFLite: --nnapi_accelerator_name takes precedence.
  auto selection = selectDevices(kDevices, "nnapi-reference", true);
  ASSERT_TRUE(selection.ok());
  EXPECT_EQ(describeSelection(*selection), "nnapi-reference");
}

TEST(DeviceSelectionTest, UnknownNameListsAvailableDevices) {
  auto selection = selectDevices(kDevices, "tpu", false);
  ASSERT_FALSE(selection.ok());
  EXPECT_NE(selection.error().message.find("unknown NNAPI device 'tpu' (--nnapi_accelerator_name)"),
            std::string::npos);
  EXPECT_NE(selection.error().message.find("nnapi-reference (CPU), annrt-cpu (CPU), npu "
                                           "(ACCELERATOR), gpu (GPU)"),
            std::string::npos);
  auto diff = selectDevices(kDevices, "tpu", false, "--test_device");
  EXPECT_NE(diff.error().message.find("(--test_device)"), std::string::npos);
}

TEST(DeviceSelectionTest, DisableCpuKeepsOtherDevices) {
  auto selection = selectDevices(kDevices, "", true);
  ASSERT_TRUE(selection.ok());
  EXPECT_FALSE(selection->runtimeChooses);
  EXPECT_EQ(describeSelection(*selection), "npu, gpu");
}

TEST(DeviceSelectionTest, DisableCpuWithOnlyCpuDevicesIsAnError) {
  const std::vector<DeviceInfo> cpuOnly = {device("nnapi-reference", ANEURALNETWORKS_DEVICE_CPU)};
  auto selection = selectDevices(cpuOnly, "", true);
  ASSERT_FALSE(selection.ok());
  EXPECT_NE(
      selection.error().message.find("--disable_nnapi_cpu=true excludes every CPU-type device"),
      std::string::npos);
}

// ADD, which annrt-cpu claims, then EXP, which it does not.
ANeuralNetworksModel* addThenExp() {
  client::GraphBuilder g;
  const uint32_t in = g.addFloatTensor({1, 4});
  const uint32_t sum = g.addFloatTensor({1, 4});
  const uint32_t out = g.addFloatTensor({1, 4});
  g.addOperation(ANEURALNETWORKS_ADD, {in, in, g.addInt32Scalar(0)}, {sum});
  g.addOperation(ANEURALNETWORKS_EXP, {sum}, {out});
  g.finish({in}, {out}, false);
  return g.releaseModel();
}

TEST(DeviceSelectionTest, ReferenceRunsWhatTheNamedDeviceLeaves) {
  auto available = listDevices();
  ASSERT_TRUE(available.ok());
  auto selection = selectDevices(*available, "annrt-cpu", false);
  if (!selection.ok()) GTEST_SKIP() << "annrt-cpu is not built";
  ANeuralNetworksModel* model = addThenExp();
  auto note = addReferenceForUnsupported(model, 2, *available, *selection);
  ASSERT_TRUE(note.ok()) << note.error().message;
  EXPECT_EQ(*note,
            "1 of 2 operations are not supported by annrt-cpu; they run on nnapi-reference, as "
            "TensorFlow Lite runs the nodes its NNAPI delegate leaves on its own CPU kernels.");
  EXPECT_EQ(describeSelection(*selection), "annrt-cpu, nnapi-reference");
  // Already complete: nothing changes.
  note = addReferenceForUnsupported(model, 2, *available, *selection);
  ASSERT_TRUE(note.ok());
  EXPECT_EQ(*note, "");
  ANeuralNetworksModel_free(model);
}

TEST(DeviceSelectionTest, CompileErrorNamesTheUnsupportedOperation) {
  auto available = listDevices();
  ASSERT_TRUE(available.ok());
  auto selection = selectDevices(*available, "annrt-cpu", false);
  if (!selection.ok()) GTEST_SKIP() << "annrt-cpu is not built";
  ANeuralNetworksModel* model = addThenExp();
  ::testing::internal::CaptureStderr();
  auto compilation = compileModel(model, *selection, {});
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_FALSE(compilation.ok());
  EXPECT_NE(compilation.error().message.find("BAD_DATA"), std::string::npos);
  EXPECT_NE(log.find("no device supports operation 1 (EXP)"), std::string::npos) << log;
  ANeuralNetworksModel_free(model);
}

}  // namespace
}  // namespace annrt::tools
