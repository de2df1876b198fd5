// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// runBandPair and runBandPairOnPool (band_pair.h) on kernels that record
// what they do: every middle row written exactly once, before any output
// row that reads it, every output row written once, for windows of several
// spans, strides and paddings and pools of 1 to 5 threads (more threads
// than cores, so parts start late and in any order).
#include "drivers/cpu/band_pair.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "drivers/cpu/thread_pool.h"

namespace annrt::cpu {
namespace {

// Counts, per row, how often each was written: the producer the middle
// rows (counts kept in the middle image itself: one float per row), the
// consumer its output rows, checking as it goes that the middle rows its
// window reads are written.
class RowRecorder final : public NativeKernel {
 public:
  RowRecorder(std::optional<RowReads> reads, std::atomic<uint32_t>* unwrittenReads)
      : NativeKernel({0}, 1, NativeForm::BANDED_PAIR),
        reads_(reads),
        unwrittenReads_(unwrittenReads) {}

  void run(const std::vector<const float*>& /*inputs*/, float* /*output*/,
           pthreadpool_t /*pool*/) const override {}
  bool writesRows() const override { return true; }
  std::optional<RowReads> rowReads() const override { return reads_; }

  void runRows(const std::vector<const float*>& inputs, float* output, size_t rowPixels,
               uint32_t first, uint32_t count) const override {
    EXPECT_EQ(rowPixels, 1u);
    for (uint32_t row = first; row < first + count; ++row) {
      if (reads_) {  // the consumer: its window's middle rows are written
        for (uint32_t in = reads_->begin(row); in < reads_->end(row); ++in) {
          if (inputs[0][in] != 1.0f) unwrittenReads_->fetch_add(1);
        }
      }
      output[row] += 1.0f;
    }
  }

 private:
  void narrow(const OutputRange& /*range*/) override {}
  std::optional<RowReads> reads_;
  std::atomic<uint32_t>* unwrittenReads_;
};

struct WindowCase {
  uint32_t inHeight, span, stride, padTop;
};

uint32_t outHeight(const WindowCase& c) {
  // SAME-like: every output row's window starts inside the image.
  return (c.inHeight + c.padTop + c.stride - 1) / c.stride;
}

TEST(BandPairTest, WritesEveryRowOnceBeforeItIsRead) {
  const std::vector<WindowCase> cases = {
      {112, 3, 2, 0},  // 3x3 stride 2, SAME on an even height
      {84, 5, 2, 1},   // 5x5 stride 2, padding above
      {75, 3, 2, 0},   // an odd height
      {64, 1, 1, 0},   // a 1x1 product
      {56, 3, 1, 1},   // stride 1
      {9, 5, 2, 2},    // parts of one output row, whose windows overlap the next part's
      {40, 1, 2, 0},   // rows no output row reads
  };
  for (const WindowCase& c : cases) {
    const RowReads reads{c.inHeight, outHeight(c), c.stride, c.padTop, c.span};
    for (uint32_t threads : {1u, 2u, 3u, 5u}) {
      SCOPED_TRACE(std::to_string(c.inHeight) + " rows, window " + std::to_string(c.span) +
                   " stride " + std::to_string(c.stride) + ", " + std::to_string(threads) +
                   " threads");
      for (int repeat = 0; repeat < 3; ++repeat) {
        std::atomic<uint32_t> unwrittenReads{0};
        const RowRecorder producer(std::nullopt, &unwrittenReads);
        const RowRecorder consumer(reads, &unwrittenReads);
        std::vector<float> middle(c.inHeight, 0.0f), output(reads.outHeight, 0.0f);
        const BandPair pair{&producer, &consumer, 1, middle.data()};
        const ThreadPool pool = sharedThreadPool(threads);
        if (pool) {
          runBandPairOnPool(pair, {nullptr}, {middle.data()}, output.data(), pool.get());
        } else {
          runBandPair(pair, {nullptr}, {middle.data()}, output.data());
        }
        EXPECT_EQ(unwrittenReads.load(), 0u);
        EXPECT_EQ(middle, std::vector<float>(c.inHeight, 1.0f));
        EXPECT_EQ(output, std::vector<float>(reads.outHeight, 1.0f));
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

}  // namespace
}  // namespace annrt::cpu
