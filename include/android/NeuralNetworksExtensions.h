/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * NNAPI vendor extensions (platform API). An extension is named by a reverse-domain
 * string; its operand and operation types are encoded as (prefix << 16 | type).
 */
#ifndef ANDROID_NEURAL_NETWORKS_EXTENSIONS_H
#define ANDROID_NEURAL_NETWORKS_EXTENSIONS_H

#include "NeuralNetworks.h"

#ifdef __cplusplus
extern "C" {
#endif

int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device,
                                              const char* extensionName,
                                              bool* isExtensionSupported);
int ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel* model,
                                                 const char* extensionName,
                                                 uint16_t operandCodeWithinExtension,
                                                 int32_t* type);
int ANeuralNetworksModel_getExtensionOperationType(ANeuralNetworksModel* model,
                                                   const char* extensionName,
                                                   uint16_t operationCodeWithinExtension,
                                                   ANeuralNetworksOperationType* type);
int ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel* model, int32_t index,
                                                 const void* data, size_t length);
int ANeuralNetworksCompilation_addExtensionAttribute(ANeuralNetworksCompilation* compilation,
                                                     const char* extensionName,
                                                     uint16_t attributeCodeWithinExtension,
                                                     const void* data, size_t length);
int ANeuralNetworksExecution_addExtensionAttribute(ANeuralNetworksExecution* execution,
                                                   const char* extensionName,
                                                   uint16_t attributeCodeWithinExtension,
                                                   const void* data, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* ANDROID_NEURAL_NETWORKS_EXTENSIONS_H */
