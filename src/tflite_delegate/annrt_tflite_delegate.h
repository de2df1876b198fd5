/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * libannrt_tflite_delegate.so: annrt as a TensorFlow Lite external delegate.
 * TFLite's external-delegate loader (benchmark_model
 * --external_delegate_path, Python's tf.lite.experimental.load_delegate,
 * libexternal_delegate_obj.so) calls the two tflite_plugin_* functions; the
 * statistics are annrt's own, for tests and tools.
 */
#ifndef ANNRT_TFLITE_DELEGATE_H
#define ANNRT_TFLITE_DELEGATE_H

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options as key/value strings (docs/tflite-delegate.md). A wrong key or
 * value is reported through report_error (when not null) and returns null. */
TfLiteDelegate* tflite_plugin_create_delegate(char** options_keys, char** options_values,
                                              size_t num_options,
                                              void (*report_error)(const char*));
void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate);

typedef struct AnnrtTfliteDelegateStats {
  int32_t nodes;          /* nodes of the graphs the delegate was applied to */
  int32_t delegatedNodes; /* nodes replaced by annrt partitions */
  int32_t weightNodes;    /* nodes computing constant weights, which TFLite keeps */
  int32_t partitions;     /* annrt partitions */
  int32_t builds;         /* partition compilations (first and after resizes) */
  int64_t invocations;    /* partition executions */
} AnnrtTfliteDelegateStats;

/* Totals over every delegate this library created in the process. */
void annrt_tflite_delegate_stats(AnnrtTfliteDelegateStats* stats);

#ifdef __cplusplus
}
#endif

#endif /* ANNRT_TFLITE_DELEGATE_H */
