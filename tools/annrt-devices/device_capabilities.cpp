// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "device_capabilities.h"

#include <annrt/device_performance.h>
#include <fmt/format.h>

#include <map>
#include <utility>

#include "common/types.h"

namespace annrt::tools {
namespace {

using Rating = std::pair<float, float>;  // exec time, power usage

std::string performance(const Rating& rating) {
  return fmt::format("{:g}/{:g}", rating.first, rating.second);
}

void collect(SL_ANeuralNetworksOperandPerformanceInfo info, void* context) {
  static_cast<std::vector<std::pair<int32_t, Rating>>*>(context)->emplace_back(
      info.operandType, Rating{info.performanceInfo.execTime, info.performanceInfo.powerUsage});
}

std::optional<Rating> rating(const ANeuralNetworksDevice* device, int32_t kind) {
  SL_ANeuralNetworksPerformanceInfo info{};
  if (SL_ANeuralNetworksDevice_getPerformanceInfo(device, kind, &info) !=
      ANEURALNETWORKS_NO_ERROR) {
    return std::nullopt;
  }
  return Rating{info.execTime, info.powerUsage};
}

// The rating most operand types share: the device's default.
Rating mostCommon(const std::vector<std::pair<int32_t, Rating>>& ratings) {
  std::map<Rating, int> counts;
  for (const auto& [type, r] : ratings) ++counts[r];
  Rating best{};
  int bestCount = 0;
  for (const auto& [r, count] : counts) {
    if (count > bestCount) std::tie(best, bestCount) = std::tie(r, count);
  }
  return best;
}

std::optional<DeviceCapabilities> describe(const ANeuralNetworksDevice* device) {
  std::vector<std::pair<int32_t, Rating>> ratings;
  if (SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(device, &ratings, collect) !=
      ANEURALNETWORKS_NO_ERROR) {
    return std::nullopt;
  }
  const auto scalar = rating(device, SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR);
  const auto tensor = rating(device, SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR);
  const auto ifRating = rating(device, SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF);
  const auto whileRating = rating(device, SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE);
  if (!scalar || !tensor || !ifRating || !whileRating) return std::nullopt;
  const Rating common = mostCommon(ratings);
  std::vector<std::string> types;
  std::string text = fmt::format("exec time/power (reference = 1; lower is better): default {}",
                                 performance(common));
  for (const auto& [type, r] : ratings) {
    if (r == common) continue;
    const char* name = operandTypeName(static_cast<OperandType>(type));
    types.emplace_back(name);
    text += fmt::format(", {} {}", name, performance(r));
  }
  text +=
      fmt::format(", relaxed fp32->fp16 tensor {} scalar {}, IF {}, WHILE {}", performance(*tensor),
                  performance(*scalar), performance(*ifRating), performance(*whileRating));
  DeviceCapabilities result;
  // A device rating every type alike has one default rating.
  result.operandTypes =
      types.empty() ? std::vector<std::string>{"all (one default rating)"} : types;
  result.performance = text;
  return result;
}

}  // namespace

std::vector<DeviceCapabilities> queryCapabilities(const std::vector<DeviceInfo>& devices) {
  std::vector<DeviceCapabilities> result(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    if (auto described = describe(devices[i].handle)) result[i] = std::move(*described);
  }
  return result;
}

}  // namespace annrt::tools
