// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Two native kernels run band by band: a window kernel (a depthwise
// convolution or a 1x1 product, rowReads) right after the kernel writing
// its one input image (writesRows), each band of the first's rows read by
// the second
// while they are still in the L2 cache, instead of the whole image written
// out and read back (hand_landmark's 1x1 product to 112x112x64 then its
// stride-2 depthwise convolution: 3.2 MB, more than a core's L2). The
// image between them need not exist whole: a window of a few of its rows
// per thread (bandWindowRows) takes its place in the arena.
#pragma once

#include <pthreadpool.h>

#include <vector>

#include "drivers/cpu/native_kernel.h"

namespace annrt::cpu {

struct BandPair {
  const NativeKernel* producer = nullptr;
  const NativeKernel* consumer = nullptr;
  // The middle rows each output row of the consumer reads: its rowReads(),
  // kept when the plan pairs them.
  RowReads reads{};
  // The image between them: its rows' pixels, and its place.
  size_t rowPixels = 0;
  float* middle = nullptr;
  // 0: `middle` is the whole image. Else it holds windows of `windowRows`
  // rows of `rowFloats` floats, each the rows a consumer's next output row
  // reads: one for runBandPair, one per thread of the pool, one after the
  // other, for runBandPairOnPool.
  uint32_t windowRows = 0;
  size_t rowFloats = 0;
};

// Whether to run `producer` then `consumer` as a band pair, by the kernel
// table (NativeForm::BANDED_PAIR) and the size of the image between them
// (`middleBytes`, one image of `rowPixels`-pixel rows).
bool bandPairWorthIt(const NativeKernel& producer, const NativeKernel& consumer,
                     size_t middleBytes);

// Whether to band a pair whose middle image has `middleBytes` on a pool of
// `threads` (runBandPairOnPool) rather than run its two kernels one after
// the other there: where the kernel table uses POOLED_BANDS, and the image
// is `windowed` (bandWindowRows) or each thread's share of it outgrows what
// stays in a core's L2 cache anyway.
bool bandOnPoolWorthIt(size_t middleBytes, size_t threads, bool windowed);

// How many rows of a middle image of `rowBytes`-byte rows a pair run on one
// thread keeps (in each of its windows), for a consumer reading `reads`: 0
// where that would be the whole image.
uint32_t bandWindowRows(const RowReads& reads, size_t rowBytes);

// Runs the pair on the calling thread: the producer reads `producerInputs`
// and writes `middle`, the consumer reads it (`consumerInputs`: `middle`,
// then the addend of an ADD it took in, if any) and writes `output`, each
// consumer row right after the producer rows it reads. With a window,
// consumerInputs[0] moves with it while the pair runs and is `middle` again
// after; middle rows no output row reads are not written.
void runBandPair(const BandPair& pair, const std::vector<const float*>& producerInputs,
                 std::vector<const float*>& consumerInputs, float* output);

// The same on `pool`: the consumer's output rows in one part per thread,
// each part band by band. The middle rows that two neighbouring parts both
// read are written once, by the part that comes to them first, while the
// other waits for them: the later part needs them first thing, the earlier
// one only for its last output rows, so it seldom waits. Where the parts
// are too short for that (fewer output rows than threads), as
// runBandPair. With windows, each part makes all the middle rows its
// output rows read, in its own window.
void runBandPairOnPool(const BandPair& pair, const std::vector<const float*>& producerInputs,
                       const std::vector<const float*>& consumerInputs, float* output,
                       pthreadpool_t pool);

}  // namespace annrt::cpu
