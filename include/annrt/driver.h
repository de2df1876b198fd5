/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * annrt's stable C ABI for driver plug-ins.
 *
 * A driver is a shared library exporting
 *
 *     const AnnrtDriver* annrt_driver_init(uint32_t runtimeAbiVersion);
 *
 * The runtime finds drivers through ANNRT_DRIVER_PATH (files or directories,
 * separated by ':') and the directories $XDG_CONFIG_HOME/annrt/drivers and
 * /etc/annrt/drivers, loads each library, calls annrt_driver_init with
 * ANNRT_DRIVER_ABI_VERSION and refuses the driver (with a log line) when the
 * returned abiVersion has another major version or a struct is smaller than
 * the first version of its major version. Structs carry their size first so
 * minor versions can grow them at the end: a field past the size a driver
 * gives is absent (the runtime treats it as NULL).
 *
 * Versions: 1.0; 1.1 added compilation caching (AnnrtDevice.serialize and
 * AnnrtDevice.prepareFromCache); 1.2 added AnnrtDevice.writeCacheSettings.
 *
 * AnnrtDriver.devices is an array of deviceCount structs of devices[0].size
 * bytes each (a driver built against an older header has smaller ones); the
 * runtime steps through it by that size, and every device must give the same.
 *
 * Devices compile whole partitions: the runtime hands prepare() a model
 * holding the operations of one partition (its inputs and outputs are the
 * tensors crossing the partition's boundary) and executes the prepared model
 * many times. All pointers the runtime passes stay valid until the call
 * returns, except that a prepared model may keep pointers into the constant
 * data of the model it was prepared from: the runtime keeps that model alive
 * until release() of the prepared model.
 *
 * Every callback returns an NNAPI ResultCode (ANEURALNETWORKS_NO_ERROR = 0);
 * an error message may be written to the AnnrtMessage given.
 */
#ifndef ANNRT_DRIVER_H
#define ANNRT_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Major version in the high 16 bits, minor in the low 16 bits. */
#define ANNRT_DRIVER_ABI_VERSION ((1u << 16) | 2u)
#define ANNRT_DRIVER_ABI_MAJOR(version) ((version) >> 16)
#define ANNRT_DRIVER_INIT_SYMBOL "annrt_driver_init"

/* Room for an error message from the driver; always NUL-terminated. */
typedef struct AnnrtMessage {
  char text[512];
} AnnrtMessage;

/* ---- Models ---- */

/* Same values as annrt's operand lifetimes (and AOSP's test harness). */
enum {
  ANNRT_LIFETIME_TEMPORARY_VARIABLE = 0,
  ANNRT_LIFETIME_SUBGRAPH_INPUT = 1,
  ANNRT_LIFETIME_SUBGRAPH_OUTPUT = 2,
  ANNRT_LIFETIME_CONSTANT = 3, /* data/length give the value */
  ANNRT_LIFETIME_NO_VALUE = 5, /* omitted optional operand */
  ANNRT_LIFETIME_SUBGRAPH = 6, /* subgraph gives the index into AnnrtModel.referenced */
};

typedef struct AnnrtOperand {
  int32_t type; /* NNAPI OperandCode (or an extension type) */
  uint32_t rank;
  const uint32_t* dimensions; /* 0 = unknown; rank 0 for a tensor = unknown rank */
  float scale;
  int32_t zeroPoint;
  int32_t lifetime;
  /* TENSOR_QUANT8_SYMM_PER_CHANNEL: channelDim and scaleCount scales. */
  uint32_t channelDim;
  uint32_t scaleCount;
  const float* scales;
  const void* data; /* ANNRT_LIFETIME_CONSTANT */
  size_t length;
  uint32_t subgraph; /* ANNRT_LIFETIME_SUBGRAPH */
  const void* extensionData;
  size_t extensionDataLength;
} AnnrtOperand;

typedef struct AnnrtOperation {
  int32_t type; /* NNAPI OperationCode (or an extension type) */
  uint32_t inputCount;
  const uint32_t* inputs;
  uint32_t outputCount;
  const uint32_t* outputs;
} AnnrtOperation;

typedef struct AnnrtSubgraph {
  uint32_t operandCount;
  const AnnrtOperand* operands;
  uint32_t operationCount;
  const AnnrtOperation* operations; /* in a valid execution order */
  uint32_t inputCount;
  const uint32_t* inputs;
  uint32_t outputCount;
  const uint32_t* outputs;
} AnnrtSubgraph;

typedef struct AnnrtExtension {
  const char* name;
  uint16_t prefix; /* extension types are (prefix << 16 | code within the extension) */
} AnnrtExtension;

typedef struct AnnrtModel {
  uint32_t size; /* sizeof(AnnrtModel) */
  AnnrtSubgraph main;
  uint32_t referencedCount;
  const AnnrtSubgraph* referenced;
  bool relaxComputationFloat32toFloat16;
  uint32_t extensionCount;
  const AnnrtExtension* extensions;
} AnnrtModel;

/* ---- Capabilities ---- */

/* Relative to annrt's reference CPU device, which is 1.0 everywhere; lower is better. */
typedef struct AnnrtPerformance {
  float execTime;
  float powerUsage;
} AnnrtPerformance;

typedef struct AnnrtOperandPerformance {
  int32_t type;
  AnnrtPerformance performance;
} AnnrtOperandPerformance;

typedef struct AnnrtCapabilities {
  uint32_t size; /* sizeof(AnnrtCapabilities) */
  AnnrtPerformance relaxedFloat32toFloat16Scalar;
  AnnrtPerformance relaxedFloat32toFloat16Tensor;
  AnnrtPerformance ifPerformance;
  AnnrtPerformance whilePerformance;
  AnnrtPerformance defaultPerformance; /* for operand types not listed */
  uint32_t operandPerformanceCount;
  const AnnrtOperandPerformance* operandPerformance;
} AnnrtCapabilities;

/* ---- Preparation ---- */

#define ANNRT_CACHE_TOKEN_SIZE 32

typedef struct AnnrtPrepareOptions {
  uint32_t size;      /* sizeof(AnnrtPrepareOptions) */
  int32_t preference; /* NNAPI PreferenceCode */
  int32_t priority;   /* NNAPI PriorityCode */
  int64_t deadlineNs; /* CLOCK_MONOTONIC; -1: none */
  /* Compilation caching: a directory the driver may write its own files in
   * (NULL: no caching), and the application's token for this model. */
  const char* cacheDir;
  uint8_t token[ANNRT_CACHE_TOKEN_SIZE];
  uint32_t numThreads; /* the ANNRT_COMPILATION_NUM_THREADS attribute; 0: the driver's choice */
} AnnrtPrepareOptions;

typedef struct AnnrtPreparedModel AnnrtPreparedModel; /* the driver's own */

/* ---- Execution ---- */

typedef struct AnnrtArgument {
  bool omitted;
  void* data;
  size_t length;
  uint32_t rank; /* 0: as the model declares */
  const uint32_t* dimensions;
} AnnrtArgument;

typedef struct AnnrtRequest {
  uint32_t inputCount;
  const AnnrtArgument* inputs;
  uint32_t outputCount;
  const AnnrtArgument* outputs;
} AnnrtRequest;

typedef struct AnnrtExecuteOptions {
  uint32_t size; /* sizeof(AnnrtExecuteOptions) */
  bool measureTiming;
  bool profileOperations;
  int64_t deadlineNs; /* CLOCK_MONOTONIC; -1: none */
  uint64_t loopTimeoutNs;
} AnnrtExecuteOptions;

/* Where a driver reports what an execution produced. The runtime owns it. */
typedef struct AnnrtExecuteResult AnnrtExecuteResult;

typedef struct AnnrtResultSink {
  AnnrtExecuteResult* result;
  /* Actual dims of an output; sufficient = false when its buffer was too
   * small (then return ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE). */
  void (*setOutputShape)(AnnrtExecuteResult* result, uint32_t output, uint32_t rank,
                         const uint32_t* dimensions, bool sufficient);
  void (*setTiming)(AnnrtExecuteResult* result, uint64_t onDeviceNs, uint64_t inDriverNs);
  /* Time of main-subgraph operation `operation` (profileOperations). */
  void (*setOperationTime)(AnnrtExecuteResult* result, uint32_t operation, uint64_t ns);
} AnnrtResultSink;

/* ---- Compilation caching (ABI 1.1) ---- */

/* Where serialize() writes a prepared model's bytes; the runtime owns it.
 * write() returns false when the runtime cannot take more (the driver then
 * returns an error). */
typedef struct AnnrtCacheWriter {
  void* context;
  bool (*write)(void* context, const void* data, size_t length);
} AnnrtCacheWriter;

/* Completion callback of execute_async; called exactly once, from any thread. */
typedef void (*AnnrtCompletion)(void* userData, int32_t status);

/* ---- Devices ---- */

typedef struct AnnrtDevice {
  uint32_t size;    /* sizeof(AnnrtDevice) */
  const char* name; /* unique among all devices; not "nnapi-reference" */
  const char* version;
  int32_t type;         /* NNAPI DeviceTypeCode */
  int64_t featureLevel; /* NNAPI FeatureLevelCode */
  void* context;        /* passed back to every device callback */

  /* Fills *capabilities; pointers inside must stay valid while loaded. */
  int32_t (*getCapabilities)(void* context, AnnrtCapabilities* capabilities);
  /* One flag per operation of model->main; a model that is not a valid NNAPI
   * model fails (ANEURALNETWORKS_BAD_DATA) with every flag false. */
  int32_t (*getSupportedOperations)(void* context, const AnnrtModel* model, bool* supported);
  bool (*supportsExtension)(void* context, const char* name);
  int32_t (*prepare)(void* context, const AnnrtModel* model, const AnnrtPrepareOptions* options,
                     AnnrtPreparedModel** prepared, AnnrtMessage* message);
  /* Runs synchronously; may be called from several threads at once. */
  int32_t (*execute)(AnnrtPreparedModel* prepared, const AnnrtRequest* request,
                     const AnnrtExecuteOptions* options, const AnnrtResultSink* sink,
                     AnnrtMessage* message);
  /* Optional (NULL: the runtime runs execute on a thread of its own).
   * Returns at once; `done` is called when the outputs are written, after
   * which `sink` and the request's buffers are no longer used. */
  int32_t (*executeAsync)(AnnrtPreparedModel* prepared, const AnnrtRequest* request,
                          const AnnrtExecuteOptions* options, const AnnrtResultSink* sink,
                          AnnrtMessage* message, AnnrtCompletion done, void* userData);
  void (*release)(AnnrtPreparedModel* prepared);
  /* Optional device memory (NULL: the runtime allocates host memory). */
  void* (*allocate)(void* context, size_t size);
  void (*free)(void* context, void* memory);

  /* ABI 1.1, optional (NULL: the device caches nothing). The runtime owns the
   * cache files (names, permissions, a header with a checksum, atomic
   * replacement); the driver only gives and takes bytes. */
  /* Writes what prepareFromCache needs to rebuild `prepared`. Offsets kept
   * inside the bytes are relative to their start, which prepareFromCache
   * sees 64-byte aligned. */
  int32_t (*serialize)(AnnrtPreparedModel* prepared, const AnnrtCacheWriter* writer,
                       AnnrtMessage* message);
  /* Rebuilds a prepared model of `model` (the same partition, prepared with
   * the same options) from bytes serialize wrote. The runtime has checked
   * them against the file's checksum; the driver checks their structure and
   * returns an error for bytes it cannot use (the runtime then calls
   * prepare). `data` is read-only and stays valid until release() of the
   * prepared model, so the driver may point into it instead of copying. */
  int32_t (*prepareFromCache)(void* context, const AnnrtModel* model,
                              const AnnrtPrepareOptions* options, const void* data, size_t length,
                              AnnrtPreparedModel** prepared, AnnrtMessage* message);

  /* ABI 1.2, optional (NULL: none). Writes, as text, the settings of this
   * process that change what prepare() makes of the same model and options
   * (environment variables the driver reads, the instruction set or firmware
   * it compiles for). The runtime puts them in every cache key of the
   * device, so that entries made under other settings are never found (the
   * driver still checks what prepareFromCache is given). Called at each
   * compilation that uses a cache; returns an NNAPI result code. */
  int32_t (*writeCacheSettings)(void* context, const AnnrtCacheWriter* writer);
} AnnrtDevice;

/* The size of AnnrtDevice in ABI 1.0, the least a driver may give. */
#define ANNRT_DEVICE_SIZE_1_0 offsetof(AnnrtDevice, serialize)
/* The size of AnnrtDevice in ABI 1.1. */
#define ANNRT_DEVICE_SIZE_1_1 offsetof(AnnrtDevice, writeCacheSettings)

typedef struct AnnrtDriver {
  uint32_t abiVersion; /* ANNRT_DRIVER_ABI_VERSION the driver was built with */
  uint32_t size;       /* sizeof(AnnrtDriver) */
  const char* name;
  uint32_t deviceCount;
  const AnnrtDevice* devices;
  /* Optional: called before the library is unloaded. */
  void (*shutdown)(void);
} AnnrtDriver;

typedef const AnnrtDriver* (*AnnrtDriverInitFunction)(uint32_t runtimeAbiVersion);

#ifdef __cplusplus
}
#endif

#endif /* ANNRT_DRIVER_H */
