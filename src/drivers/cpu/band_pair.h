// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Two native kernels run band by band: a window kernel (a depthwise
// convolution or a 1x1 product, rowReads) right after the kernel writing
// its one input image (writesRows), each band of the first's rows read by
// the second
// while they are still in the L2 cache, instead of the whole image written
// out and read back (hand_landmark's 1x1 product to 112x112x64 then its
// stride-2 depthwise convolution: 3.2 MB, more than a core's L2). The image
// keeps its place in the arena; only the order of the work changes.
#pragma once

#include <vector>

#include "drivers/cpu/native_kernel.h"

namespace annrt::cpu {

struct BandPair {
  const NativeKernel* producer = nullptr;
  const NativeKernel* consumer = nullptr;
  // The image between them: its rows' pixels, and its place.
  size_t rowPixels = 0;
  float* middle = nullptr;
};

// Whether to run `producer` then `consumer` as a band pair, by the kernel
// table (NativeForm::BANDED_PAIR) and the size of the image between them
// (`middleBytes`, one image of `rowPixels`-pixel rows).
bool bandPairWorthIt(const NativeKernel& producer, const NativeKernel& consumer,
                     size_t middleBytes);

// Runs the pair on the calling thread: the producer reads `producerInputs`
// and writes `middle`, the consumer reads it (`consumerInputs`: `middle`,
// then the addend of an ADD it took in, if any) and writes `output`, each
// consumer row right after the producer rows it reads. On a pool the two
// run one after the other instead: each core's L2 then holds its share of
// the image, and the work stays in small tasks that balance across cores.
void runBandPair(const BandPair& pair, const std::vector<const float*>& producerInputs,
                 const std::vector<const float*>& consumerInputs, float* output);

}  // namespace annrt::cpu
