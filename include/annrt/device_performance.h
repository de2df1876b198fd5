// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A device's performance and power ratings, which the NDK API does not expose.
// Names, values and signatures are those of the NNAPI support library's device
// queries (feature level 5), so code written for the support library builds
// against libneuralnetworks.so unchanged. Ratings are relative to a float32
// reference CPU: lower is better.
#ifndef ANNRT_DEVICE_PERFORMANCE_H
#define ANNRT_DEVICE_PERFORMANCE_H

#include <android/NeuralNetworks.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR = 0,
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR = 1,
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF = 2,
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE = 3,
} SL_ANeuralNetworksPerformanceInfoCode;

typedef struct {
  float execTime;
  float powerUsage;
} SL_ANeuralNetworksPerformanceInfo;

typedef struct {
  int32_t operandType;
  SL_ANeuralNetworksPerformanceInfo performanceInfo;
} SL_ANeuralNetworksOperandPerformanceInfo;

// The rating of relaxed float32 computation (scalar or tensor), of IF or of
// WHILE. UNEXPECTED_NULL for a null argument, BAD_DATA for an unknown kind.
int SL_ANeuralNetworksDevice_getPerformanceInfo(const ANeuralNetworksDevice* device,
                                                int32_t performanceInfoKind,
                                                SL_ANeuralNetworksPerformanceInfo* performanceInfo);

// Calls `callback` once per non-extension operand type with the device's rating
// of operations whose first operand has that type.
int SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(
    const ANeuralNetworksDevice* device, void* context,
    void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void*));

#ifdef __cplusplus
}
#endif

#endif  // ANNRT_DEVICE_PERFORMANCE_H
