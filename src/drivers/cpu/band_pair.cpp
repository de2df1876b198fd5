// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/band_pair.h"

#include "drivers/cpu/native_kernel_table.h"

namespace annrt::cpu {
namespace {

// Where banding was measured faster (docs/native-kernels.md, "Band
// pairs"): consumers of stride 2 or more, which read each middle row about
// once for little work, and 1x1 products (a depthwise convolution's 112x112x64
// output to 16 channels 0.81x the time), over a middle image of at least
// 1 MB. Stride 1 window consumers of middle images that fit a 2 MB L2 ran
// level.
constexpr size_t kMinMiddleBytes = size_t{1} << 20;
constexpr uint32_t kMinConsumerStride = 2;

}  // namespace

bool bandPairWorthIt(const NativeKernel& producer, const NativeKernel& consumer,
                     size_t middleBytes) {
  const std::optional<RowReads> reads = consumer.rowReads();
  return nativeFormUse(NativeForm::BANDED_PAIR) == NativeUse::PREFERRED &&
         middleBytes >= kMinMiddleBytes && producer.writesRows() && reads &&
         (reads->stride >= kMinConsumerStride || reads->span == 1);
}

void runBandPair(const BandPair& pair, const std::vector<const float*>& producerInputs,
                 const std::vector<const float*>& consumerInputs, float* output) {
  const RowReads reads = *pair.consumer->rowReads();
  uint32_t written = 0;
  for (uint32_t row = 0; row < reads.outHeight; ++row) {
    const uint32_t needed = reads.end(row);
    if (needed > written) {
      pair.producer->runRows(producerInputs, pair.middle, pair.rowPixels, written,
                             needed - written);
      written = needed;
    }
    // The consumer's rows are as wide as the middle image's where it needs
    // their width (a 1x1 product's); window kernels know theirs.
    pair.consumer->runRows(consumerInputs, output, pair.rowPixels, row, 1);
  }
  // Rows no output row reads (below the last window) are still the
  // producer's output.
  if (written < reads.inHeight) {
    pair.producer->runRows(producerInputs, pair.middle, pair.rowPixels, written,
                           reads.inHeight - written);
  }
}

}  // namespace annrt::cpu
