// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A client of an installed annrt, built with pkg-config or find_package(annrt)
// by check_install.sh: it lists the devices and runs one ADD through the NNAPI
// C API, so that the installed headers, library and its search paths are all
// exercised. Plain C, as most users of the NDK header are.
#include <android/NeuralNetworks.h>
#include <stdint.h>
#include <stdio.h>

// Says which call failed; returns 1 when status is an error.
static int failed(int status, const char* call) {
  if (status == ANEURALNETWORKS_NO_ERROR) return 0;
  fprintf(stderr, "client: %s returned %d\n", call, status);
  return 1;
}

#define CHECK(call)                      \
  do {                                   \
    if (failed((call), #call)) return 1; \
  } while (0)

static int listDevices(void) {
  uint32_t count = 0;
  CHECK(ANeuralNetworks_getDeviceCount(&count));
  if (count == 0) {
    fprintf(stderr, "client: no NNAPI device\n");
    return 1;
  }
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* device = NULL;
    const char* name = NULL;
    CHECK(ANeuralNetworks_getDevice(i, &device));
    CHECK(ANeuralNetworksDevice_getName(device, &name));
    printf("device %u: %s\n", i, name);
  }
  return 0;
}

// out = a + b on two 3-element float tensors, activation NONE.
static int buildAddModel(ANeuralNetworksModel* model) {
  uint32_t dimensions[] = {3};
  ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dimensions, 0.0f, 0};
  ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
  CHECK(ANeuralNetworksModel_addOperand(model, &tensor));  // 0: a
  CHECK(ANeuralNetworksModel_addOperand(model, &tensor));  // 1: b
  CHECK(ANeuralNetworksModel_addOperand(model, &scalar));  // 2: fused activation
  CHECK(ANeuralNetworksModel_addOperand(model, &tensor));  // 3: out
  int32_t activation = ANEURALNETWORKS_FUSED_NONE;
  CHECK(ANeuralNetworksModel_setOperandValue(model, 2, &activation, sizeof(activation)));
  uint32_t addInputs[] = {0, 1, 2};
  uint32_t addOutputs[] = {3};
  CHECK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, addInputs, 1, addOutputs));
  uint32_t modelInputs[] = {0, 1};
  CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, modelInputs, 1, addOutputs));
  CHECK(ANeuralNetworksModel_finish(model));
  return 0;
}

static int runAdd(ANeuralNetworksCompilation* compilation) {
  const float a[3] = {1.5f, -2.0f, 1024.0f};
  const float b[3] = {0.25f, 7.0f, -0.5f};
  float out[3] = {0.0f, 0.0f, 0.0f};
  ANeuralNetworksExecution* execution = NULL;
  CHECK(ANeuralNetworksExecution_create(compilation, &execution));
  int status = ANeuralNetworksExecution_setInput(execution, 0, NULL, a, sizeof(a));
  if (status == ANEURALNETWORKS_NO_ERROR) {
    status = ANeuralNetworksExecution_setInput(execution, 1, NULL, b, sizeof(b));
  }
  if (status == ANEURALNETWORKS_NO_ERROR) {
    status = ANeuralNetworksExecution_setOutput(execution, 0, NULL, out, sizeof(out));
  }
  if (status == ANEURALNETWORKS_NO_ERROR) status = ANeuralNetworksExecution_compute(execution);
  ANeuralNetworksExecution_free(execution);
  CHECK(status);
  for (int i = 0; i < 3; ++i) {
    // Each sum is exact in float32, so any difference is a wrong result.
    if (out[i] != a[i] + b[i]) {
      fprintf(stderr, "client: ADD output %d is %g, expected %g\n", i, out[i], a[i] + b[i]);
      return 1;
    }
  }
  printf("ADD: %g %g %g\n", out[0], out[1], out[2]);
  return 0;
}

int main(void) {
  if (listDevices() != 0) return 1;
  ANeuralNetworksModel* model = NULL;
  ANeuralNetworksCompilation* compilation = NULL;
  int status =
      failed(ANeuralNetworksModel_create(&model), "ANeuralNetworksModel_create") ||
      buildAddModel(model) ||
      failed(ANeuralNetworksCompilation_create(model, &compilation),
             "ANeuralNetworksCompilation_create") ||
      failed(ANeuralNetworksCompilation_finish(compilation), "ANeuralNetworksCompilation_finish") ||
      runAdd(compilation);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  return status;
}
