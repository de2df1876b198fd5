// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The NNAPI support library's device performance queries
// (<annrt/device_performance.h>), exported beside the NDK functions: the only
// way a client (annrt-devices, a scheduler) reads a device's ratings through
// the public library.
#include <annrt/device_performance.h>

#include "common/log.h"
#include "runtime/c_edge.h"

namespace {

using annrt::OperandType;
using annrt::PerformanceInfo;

using annrt::runtime::toDevice;

SL_ANeuralNetworksPerformanceInfo toC(const PerformanceInfo& info) {
  return {info.execTime, info.powerUsage};
}

// Every operand type NNAPI defines but SUBGRAPH (rated through IF and WHILE).
constexpr OperandType kRatedTypes[] = {
    OperandType::FLOAT32,
    OperandType::INT32,
    OperandType::UINT32,
    OperandType::TENSOR_FLOAT32,
    OperandType::TENSOR_INT32,
    OperandType::TENSOR_QUANT8_ASYMM,
    OperandType::BOOL,
    OperandType::TENSOR_QUANT16_SYMM,
    OperandType::TENSOR_FLOAT16,
    OperandType::TENSOR_BOOL8,
    OperandType::FLOAT16,
    OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL,
    OperandType::TENSOR_QUANT16_ASYMM,
    OperandType::TENSOR_QUANT8_SYMM,
    OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
    OperandType::OEM_SCALAR,
    OperandType::TENSOR_OEM_BYTE,
};

}  // namespace

ANNRT_EXPORT int SL_ANeuralNetworksDevice_getPerformanceInfo(
    const ANeuralNetworksDevice* device, int32_t performanceInfoKind,
    SL_ANeuralNetworksPerformanceInfo* performanceInfo) {
  if (device == nullptr || performanceInfo == nullptr) {
    annrt::logError("{}: {} is null", __func__, device == nullptr ? "device" : "performanceInfo");
    return ANEURALNETWORKS_UNEXPECTED_NULL;
  }
  const annrt::Capabilities& caps = toDevice(device)->capabilities();
  switch (performanceInfoKind) {
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR:
      *performanceInfo = toC(caps.relaxedFloat32toFloat16Scalar);
      return ANEURALNETWORKS_NO_ERROR;
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR:
      *performanceInfo = toC(caps.relaxedFloat32toFloat16Tensor);
      return ANEURALNETWORKS_NO_ERROR;
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF:
      *performanceInfo = toC(caps.ifPerformance);
      return ANEURALNETWORKS_NO_ERROR;
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE:
      *performanceInfo = toC(caps.whilePerformance);
      return ANEURALNETWORKS_NO_ERROR;
    default:
      annrt::logError("{}: unknown performance info kind {}", __func__, performanceInfoKind);
      return ANEURALNETWORKS_BAD_DATA;
  }
}

ANNRT_EXPORT int SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(
    const ANeuralNetworksDevice* device, void* context,
    void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void*)) {
  if (device == nullptr || callback == nullptr) {
    annrt::logError("{}: {} is null", __func__, device == nullptr ? "device" : "callback");
    return ANEURALNETWORKS_UNEXPECTED_NULL;
  }
  const annrt::Capabilities& caps = toDevice(device)->capabilities();
  for (OperandType type : kRatedTypes) {
    callback({static_cast<int32_t>(type), toC(caps.forOperandType(type))}, context);
  }
  return ANEURALNETWORKS_NO_ERROR;
}
