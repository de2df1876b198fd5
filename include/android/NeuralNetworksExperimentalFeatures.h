/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Experimental NNAPI features (AOSP's NN_EXPERIMENTAL_FEATURE). annrt always
 * implements DENSIFY, so these names are available to every client.
 */
#ifndef ANDROID_NEURAL_NETWORKS_EXPERIMENTAL_FEATURES_H
#define ANDROID_NEURAL_NETWORKS_EXPERIMENTAL_FEATURES_H

typedef enum {
    ANEURALNETWORKS_FEATURE_LEVEL_EXPERIMENTAL = 2147483647,
} ANeuralNetworksExperimentalFeatureLevelCode;

typedef enum {
    ANEURALNETWORKS_DENSIFY = 20000,
} ANeuralNetworksExperimentalOperationCode;

#endif /* ANDROID_NEURAL_NETWORKS_EXPERIMENTAL_FEATURES_H */
