// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The support library's device performance queries that libneuralnetworks.so
// exports (<annrt/device_performance.h>).
#include <annrt/device_performance.h>

#include <set>
#include <vector>

#include "common/device_lookup.h"
#include "test_models.h"

namespace annrt::test {
namespace {

using Ratings = std::vector<SL_ANeuralNetworksOperandPerformanceInfo>;

void collect(SL_ANeuralNetworksOperandPerformanceInfo info, void* context) {
  static_cast<Ratings*>(context)->push_back(info);
}

Ratings ratingsOf(const ANeuralNetworksDevice* device) {
  Ratings ratings;
  EXPECT_EQ(SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(device, &ratings, collect),
            ANEURALNETWORKS_NO_ERROR);
  return ratings;
}

float execTimeOf(const Ratings& ratings, int32_t type) {
  for (const auto& r : ratings) {
    if (r.operandType == type) return r.performanceInfo.execTime;
  }
  ADD_FAILURE() << "no rating for operand type " << type;
  return 0.0f;
}

TEST(DevicePerformanceTest, EveryKindOfEveryDeviceIsRated) {
  uint32_t count = 0;
  ASSERT_OK(ANeuralNetworks_getDeviceCount(&count));
  for (uint32_t i = 0; i < count; ++i) {
    for (int32_t kind : {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR,
                         SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR,
                         SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF,
                         SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE}) {
      SL_ANeuralNetworksPerformanceInfo info{-1.0f, -1.0f};
      EXPECT_NN(ANEURALNETWORKS_NO_ERROR,
                SL_ANeuralNetworksDevice_getPerformanceInfo(deviceAt(i), kind, &info));
      EXPECT_GT(info.execTime, 0.0f) << "device " << i << " kind " << kind;
      EXPECT_GT(info.powerUsage, 0.0f) << "device " << i << " kind " << kind;
    }
  }
}

TEST(DevicePerformanceTest, RefusesNullsAndUnknownKinds) {
  SL_ANeuralNetworksPerformanceInfo info{};
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            SL_ANeuralNetworksDevice_getPerformanceInfo(nullptr, 0, &info));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            SL_ANeuralNetworksDevice_getPerformanceInfo(deviceAt(0), 0, nullptr));
  EXPECT_NN(ANEURALNETWORKS_BAD_DATA,
            SL_ANeuralNetworksDevice_getPerformanceInfo(deviceAt(0), 4, &info));
  Ratings ratings;
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(nullptr, &ratings, collect));
  EXPECT_NN(ANEURALNETWORKS_UNEXPECTED_NULL,
            SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(deviceAt(0), &ratings, nullptr));
  EXPECT_TRUE(ratings.empty());
}

TEST(DevicePerformanceTest, RatesEachOperandTypeOnce) {
  const Ratings ratings = ratingsOf(findDevice("nnapi-reference"));
  std::set<int32_t> types;
  for (const auto& r : ratings) {
    EXPECT_TRUE(types.insert(r.operandType).second) << "type " << r.operandType << " twice";
    EXPECT_NE(r.operandType, ANEURALNETWORKS_MODEL) << "subgraphs are rated through IF and WHILE";
  }
  EXPECT_EQ(types.size(), 17u);
  EXPECT_TRUE(types.count(ANEURALNETWORKS_TENSOR_FLOAT32));
  EXPECT_TRUE(types.count(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED));
}

// The ratings are the devices' own: annrt-cpu reports itself faster than the
// reference on float32 tensors, which is what makes plans prefer it.
TEST(DevicePerformanceTest, ReportsEachDevicesOwnRatings) {
  const ANeuralNetworksDevice* cpu = findDevice("annrt-cpu");
  if (cpu == nullptr) GTEST_SKIP() << "annrt-cpu is not built (no XNNPACK)";
  const float reference =
      execTimeOf(ratingsOf(findDevice("nnapi-reference")), ANEURALNETWORKS_TENSOR_FLOAT32);
  const float fast = execTimeOf(ratingsOf(cpu), ANEURALNETWORKS_TENSOR_FLOAT32);
  EXPECT_LT(fast, reference);
}

}  // namespace
}  // namespace annrt::test
