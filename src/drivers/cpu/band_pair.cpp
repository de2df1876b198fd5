// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/band_pair.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>

#include "drivers/cpu/native_kernel_table.h"
#include "drivers/cpu/native_parallel.h"

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
// On a pool, a whole middle image where each thread's share of it is more
// than this: pose_landmark's 256x256x8 (2 MB, 1 MB a thread at 2 threads) ran
// slower banded, hand_landmark's 112x112x64 (3.2 MB) faster
// (docs/native-kernels.md, "Band pairs on the pool"). Through windows every
// pair ran level or faster banded ("Band pairs through a window").
constexpr size_t kMinMiddleBytesPerThread = size_t{1} << 20;
// A window of middle rows on one thread holds at least this many bytes, and
// at least kSlideRatio times the rows a slide copies (the rows the next
// output row still reads, copied to its start each time the producer
// reaches its end): with a window of the least rows, a 5x5 stride-2
// consumer ran 10% slower, copying three rows for every four it made
// (docs/native-kernels.md, "Band pairs through a window").
constexpr size_t kWindowBytes = size_t{128} << 10;
constexpr uint32_t kSlideRatio = 17;

// Middle rows [first, end) that the part before and the part after both
// read (empty where their windows do not overlap), written by the part
// that claims them first.
struct SharedRows {
  enum State : uint8_t { FREE, WRITING, WRITTEN };
  uint32_t first = 0, end = 0;
  std::atomic<uint8_t> state{FREE};
};

// Spins for the few microseconds another part takes to write shared rows,
// then yields: that part's thread may have been descheduled.
void waitWritten(const SharedRows& shared) {
  for (uint32_t spins = 0; shared.state.load(std::memory_order_acquire) != SharedRows::WRITTEN;
       ++spins) {
    if (spins < 4096) {
#if defined(__x86_64__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
}

// One part of a band pair on the pool: the consumer's output rows [first,
// end), after the middle rows they read; its own middle rows [ownFirst,
// ownEnd), `before` and `after` the rows it shares with its neighbours
// (null at the ends), `before` at ownFirst and `after` at ownEnd.
struct BandPart {
  uint32_t first, end, ownFirst, ownEnd;
  SharedRows *before, *after;
};

class PartRunner {
 public:
  PartRunner(const BandPair& pair, const std::vector<const float*>& producerInputs,
             const std::vector<const float*>& consumerInputs, float* output)
      : pair_(pair),
        producerInputs_(producerInputs),
        consumerInputs_(consumerInputs),
        output_(output) {}

  void run(const BandPart& part, const RowReads& reads) const {
    uint32_t written = part.ownFirst;
    for (uint32_t row = part.first; row < part.end; ++row) {
      written = produce(part, written, reads.end(row));
      // The consumer's rows are as wide as the middle image's where it
      // needs their width (a 1x1 product's); window kernels know theirs.
      pair_.consumer->runRows(consumerInputs_, output_, pair_.rowPixels, row, 1);
    }
    // Own rows no output row of the part reads (below its last window) are
    // still the producer's output.
    produce(part, written, part.ownEnd);
  }

 private:
  // Writes (or waits for) the middle rows [written, to); returns where it
  // got.
  uint32_t produce(const BandPart& part, uint32_t written, uint32_t to) const {
    while (written < to) {
      if (part.before != nullptr && written == part.ownFirst && part.before->end > written) {
        written = take(*part.before);
      } else if (written == part.ownEnd) {
        if (part.after == nullptr || part.after->end <= written) break;
        written = take(*part.after);
      } else {
        const uint32_t stop = std::min(to, part.ownEnd);
        pair_.producer->runRows(producerInputs_, pair_.middle, pair_.rowPixels, written,
                                stop - written);
        written = stop;
      }
    }
    return written;
  }

  uint32_t take(SharedRows& shared) const {
    uint8_t expected = SharedRows::FREE;
    if (shared.state.compare_exchange_strong(expected, SharedRows::WRITING,
                                             std::memory_order_acquire)) {
      pair_.producer->runRows(producerInputs_, pair_.middle, pair_.rowPixels, shared.first,
                              shared.end - shared.first);
      shared.state.store(SharedRows::WRITTEN, std::memory_order_release);
    } else {
      waitWritten(shared);
    }
    return shared.end;
  }

  const BandPair& pair_;
  const std::vector<const float*>& producerInputs_;
  const std::vector<const float*>& consumerInputs_;
  float* output_;
};

void runWholeImage(const BandPair& pair, const std::vector<const float*>& producerInputs,
                   const std::vector<const float*>& consumerInputs, float* output) {
  const RowReads& reads = pair.reads;
  // One part of every row, with no neighbours to share rows with.
  const BandPart whole{0, reads.outHeight, 0, reads.inHeight, nullptr, nullptr};
  PartRunner(pair, producerInputs, consumerInputs, output).run(whole, reads);
}

// The middle rows [first, ...) held in `window` from its start, as the
// kernels reach them: through an image's start `first` rows before the
// window (kernels address rows from the start of the image; they read and
// write only rows inside the window). Computed as an integer, since no such
// image exists.
float* windowImage(float* window, uint32_t first, size_t rowFloats) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): pointer arithmetic may not leave the window.
  return reinterpret_cast<float*>(reinterpret_cast<uintptr_t>(window) -
                                  size_t{first} * rowFloats * sizeof(float));
}

// The consumer's output rows [begin, end) through `window`, of
// pair.windowRows rows, making the middle rows they read.
void runWindowed(const BandPair& pair, float* window, uint32_t begin, uint32_t end,
                 const std::vector<const float*>& producerInputs,
                 std::vector<const float*>& consumerInputs, float* output) {
  const RowReads& reads = pair.reads;
  const size_t rowFloats = pair.rowFloats;
  uint32_t first = 0, written = 0;  // the window holds middle rows [first, written)
  for (uint32_t row = begin; row < end; ++row) {
    if (const uint32_t from = reads.begin(row); written <= from) {
      // No row read so far is read again, nor the rows up to `from`.
      first = written = from;
    }
    const uint32_t needed = reads.end(row);
    while (written < needed) {
      if (written == first + pair.windowRows) {
        // Full: keep the rows from the first that this output row reads.
        const uint32_t keep = reads.begin(row);
        std::memmove(window, window + size_t{keep - first} * rowFloats,
                     (written - keep) * rowFloats * sizeof(float));
        first = keep;
      }
      const uint32_t stop = std::min(needed, first + pair.windowRows);
      pair.producer->runRows(producerInputs, windowImage(window, first, rowFloats), pair.rowPixels,
                             written, stop - written);
      written = stop;
    }
    consumerInputs[0] = windowImage(window, first, rowFloats);
    pair.consumer->runRows(consumerInputs, output, pair.rowPixels, row, 1);
  }
}

// On the pool, through one window per part: each part makes every middle
// row its output rows read, the rows two parts both read (span - stride)
// twice, instead of waiting for each other.
void runWindowsOnPool(const BandPair& pair, const std::vector<const float*>& producerInputs,
                      const std::vector<const float*>& consumerInputs, float* output,
                      pthreadpool_t pool, uint32_t parts) {
  const uint32_t outHeight = pair.reads.outHeight;
  const size_t windowFloats = size_t{pair.windowRows} * pair.rowFloats;
  parallelizeTiles(pool, parts, 1, [&](size_t first, size_t count) {
    std::vector<const float*> inputs = consumerInputs;  // [0] moves with this part's window
    for (size_t p = first; p < first + count; ++p) {
      const auto begin = static_cast<uint32_t>(uint64_t{outHeight} * p / parts);
      const auto end = static_cast<uint32_t>(uint64_t{outHeight} * (p + 1) / parts);
      runWindowed(pair, pair.middle + p * windowFloats, begin, end, producerInputs, inputs, output);
    }
  });
}

}  // namespace

uint32_t bandWindowRows(const RowReads& reads, size_t rowBytes) {
  // A full window keeps fewer than `span` rows when it slides, so it makes
  // room for at least one more.
  const uint32_t least = reads.span + std::max<uint32_t>(reads.stride, 1);
  const uint32_t copied = reads.span > reads.stride ? reads.span - reads.stride : 0;
  const auto rows = static_cast<uint32_t>(std::max<size_t>(
      std::max(least, kSlideRatio * copied), kWindowBytes / std::max<size_t>(rowBytes, 1)));
  return rows >= reads.inHeight ? 0 : rows;
}

bool bandPairWorthIt(const NativeKernel& producer, const NativeKernel& consumer,
                     size_t middleBytes) {
  const std::optional<RowReads> reads = consumer.rowReads();
  return nativeFormUse(NativeForm::BANDED_PAIR) == NativeUse::PREFERRED &&
         middleBytes >= kMinMiddleBytes && producer.writesRows() && reads &&
         (reads->stride >= kMinConsumerStride || reads->span == 1);
}

bool bandOnPoolWorthIt(size_t middleBytes, size_t threads, bool windowed) {
  return nativeFormUse(NativeForm::POOLED_BANDS) == NativeUse::PREFERRED && threads > 1 &&
         (windowed || middleBytes > kMinMiddleBytesPerThread * threads);
}

void runBandPair(const BandPair& pair, const std::vector<const float*>& producerInputs,
                 std::vector<const float*>& consumerInputs, float* output) {
  if (pair.windowRows == 0) {
    runWholeImage(pair, producerInputs, consumerInputs, output);
    return;
  }
  runWindowed(pair, pair.middle, 0, pair.reads.outHeight, producerInputs, consumerInputs, output);
  consumerInputs[0] = pair.middle;
}

void runBandPairOnPool(const BandPair& pair, const std::vector<const float*>& producerInputs,
                       const std::vector<const float*>& consumerInputs, float* output,
                       pthreadpool_t pool) {
  const RowReads& reads = pair.reads;
  const uint32_t parts = std::min<uint32_t>(
      static_cast<uint32_t>(pthreadpool_get_threads_count(pool)), reads.outHeight);
  if (pair.windowRows != 0) {
    runWindowsOnPool(pair, producerInputs, consumerInputs, output, pool, parts);
    return;
  }
  if (parts < 2) {
    runWholeImage(pair, producerInputs, consumerInputs, output);
    return;
  }
  // Part p's output rows start at starts[p]; its own middle rows at the
  // first row that output row reads, and those it shares with part p - 1
  // (shared[p]) run from there to the last row part p - 1 reads.
  std::vector<uint32_t> starts(parts + 1), ownStarts(parts + 1);
  std::vector<SharedRows> shared(parts);
  for (uint32_t p = 0; p <= parts; ++p) {
    starts[p] = static_cast<uint32_t>(uint64_t{reads.outHeight} * p / parts);
    ownStarts[p] = p == 0 ? 0 : p == parts ? reads.inHeight : reads.begin(starts[p]);
  }
  for (uint32_t p = 1; p < parts; ++p) {
    shared[p].first = ownStarts[p];
    shared[p].end = std::max(ownStarts[p], reads.end(starts[p] - 1));
    if (shared[p].end > ownStarts[p + 1]) {  // parts too short to hold what they share
      runWholeImage(pair, producerInputs, consumerInputs, output);
      return;
    }
  }
  const PartRunner runner(pair, producerInputs, consumerInputs, output);
  parallelizeTiles(pool, parts, 1, [&](size_t first, size_t count) {
    for (size_t p = first; p < first + count; ++p) {
      const BandPart part{starts[p],
                          starts[p + 1],
                          ownStarts[p],
                          ownStarts[p + 1],
                          p == 0 ? nullptr : &shared[p],
                          p + 1 == parts ? nullptr : &shared[p + 1]};
      runner.run(part, reads);
    }
  });
}

}  // namespace annrt::cpu
