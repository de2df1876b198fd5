/*
 * Copyright 2026 The annrt Authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * annrt's compilation attributes: hints an application gives a compilation
 * with ANeuralNetworksCompilation_addExtensionAttribute (NNAPI feature level 8,
 * <android/NeuralNetworksExtensions.h>) before ANeuralNetworksCompilation_finish.
 * The runtime reads them itself and passes them to every device the compilation
 * runs on, so they apply to compilations made by ANeuralNetworksCompilation_create
 * as well as by createForDevices. Each attribute may be given once.
 *
 *   uint32_t threads = 2;
 *   ANeuralNetworksCompilation_addExtensionAttribute(compilation, ANNRT_COMPILATION_EXTENSION,
 *                                                    ANNRT_COMPILATION_NUM_THREADS,
 *                                                    &threads, sizeof(threads));
 */
#ifndef ANNRT_COMPILATION_ATTRIBUTES_H
#define ANNRT_COMPILATION_ATTRIBUTES_H

#define ANNRT_COMPILATION_EXTENSION "com.annrt.compilation"

enum {
  /*
   * A uint32_t in 1..256: how many threads a CPU device (annrt-cpu, or a plug-in
   * reading AnnrtPrepareOptions.numThreads) may use to run this compilation,
   * the calling thread included. Without it: ANNRT_NUM_THREADS, else the number
   * of cores. Any other length or value is refused with ANEURALNETWORKS_BAD_DATA.
   */
  ANNRT_COMPILATION_NUM_THREADS = 0,
};

#endif /* ANNRT_COMPILATION_ATTRIBUTES_H */
