/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Deprecated OEM operand and operation codes. annrt knows the values but no
 * device supports them: a model using them fails to compile with BAD_DATA.
 */
#ifndef ANDROID_NEURAL_NETWORKS_OEM_H
#define ANDROID_NEURAL_NETWORKS_OEM_H

enum {
    ANEURALNETWORKS_OEM_SCALAR = 10000,
    ANEURALNETWORKS_TENSOR_OEM_BYTE = 10001,
};

enum {
    ANEURALNETWORKS_OEM_OPERATION = 10000,
};

#endif /* ANDROID_NEURAL_NETWORKS_OEM_H */
