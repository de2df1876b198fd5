/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * The Android Neural Networks API (NNAPI) C ABI, up to feature level 8, as
 * implemented by annrt's libneuralnetworks.so on Linux. Semantics follow the
 * public NNAPI specification; Linux-specific behaviour is documented at each
 * Android-only entry point below and in docs/android-only-apis.md.
 */
#ifndef ANDROID_NEURAL_NETWORKS_H
#define ANDROID_NEURAL_NETWORKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/cdefs.h>

#include "NeuralNetworksTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Android's hardware buffer: opaque here; Linux has none (see createFromAHardwareBuffer). */
typedef struct AHardwareBuffer AHardwareBuffer;

/* ---- Memory descriptors (feature level 4) ---- */
int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc);
void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc);
int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency);
int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency);
int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions);
int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc);
int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                         ANeuralNetworksMemory** memory);
int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst);

/* ---- Devices (feature level 3) ---- */
int ANeuralNetworks_getDeviceCount(uint32_t* numDevices);
int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device);
int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name);
int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type);
int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version);
int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                          int64_t* featureLevel);
int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device);
int ANeuralNetworksModel_getSupportedOperationsForDevices(
        const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
        uint32_t numDevices, bool* supportedOps);
int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation);
int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                          const char* cacheDir, const uint8_t* token);

/* ---- Executions ---- */
int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution);
int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution,
                                                  int32_t index, uint32_t* rank);
int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution,
                                                        int32_t index, uint32_t* dimensions);
int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                ANeuralNetworksBurst** burst);
void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst);
int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksBurst* burst);

/*
 * Android-only: Linux has no AHardwareBuffer. annrt returns ANEURALNETWORKS_UNEXPECTED_NULL
 * for a NULL buffer and ANEURALNETWORKS_BAD_DATA otherwise, with a log line; use
 * ANeuralNetworksMemory_createFromFd with a dma-buf or memfd instead.
 */
int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb,
                                                    ANeuralNetworksMemory** memory);
int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure);
int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution,
                                         int32_t durationCode, uint64_t* duration);

/* ---- Memories ---- */
int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory);
void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory);

/* ---- Models ---- */
int ANeuralNetworksModel_create(ANeuralNetworksModel** model);
void ANeuralNetworksModel_free(ANeuralNetworksModel* model);
int ANeuralNetworksModel_finish(ANeuralNetworksModel* model);
int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model,
                                    const ANeuralNetworksOperandType* type);
int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index,
                                         const void* buffer, size_t length);
int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
        ANeuralNetworksModel* model, int32_t index,
        const ANeuralNetworksSymmPerChannelQuantParams* channelQuant);
int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory,
                                                   size_t offset, size_t length);
int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value);
int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model,
                                      ANeuralNetworksOperationType type, uint32_t inputCount,
                                      const uint32_t* inputs, uint32_t outputCount,
                                      const uint32_t* outputs);
int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model,
                                                  uint32_t inputCount, const uint32_t* inputs,
                                                  uint32_t outputCount, const uint32_t* outputs);
int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow);

/* ---- Compilations ---- */
int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation);
void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation);
int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                             int32_t preference);
int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation);
int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority);
int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                          uint64_t duration);

/* ---- Executions ---- */
int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation,
                                    ANeuralNetworksExecution** execution);
void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution);
int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer,
                                      size_t length);
int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory,
                                                size_t offset, size_t length);
int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer,
                                       size_t length);
int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution,
                                                 int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory,
                                                 size_t offset, size_t length);
int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksEvent** event);
int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration);
int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution,
                                            uint64_t duration);
uint64_t ANeuralNetworks_getDefaultLoopTimeout(void);
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void);

/* ---- Events ---- */
int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event);
void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event);
/*
 * Android sync fences are Linux file descriptors that poll readable once signalled.
 * annrt accepts any such fd (an eventfd, a sync_file from a dma-fence driver) and
 * hands out eventfds for its own fenced executions.
 */
int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event);
int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd);
int ANeuralNetworksExecution_startComputeWithDependencies(
        ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies,
        uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event);

/* ---- Feature level 5 ---- */
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void);
int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution,
                                                         bool enable);
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);
int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable);

#ifdef __cplusplus
}
#endif

#endif /* ANDROID_NEURAL_NETWORKS_H */
