// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// runBandPair and runBandPairOnPool (band_pair.h) on kernels that record
// what they do: every middle row written exactly once, before any output
// row that reads it, every output row written once, for windows of several
// spans, strides and paddings and pools of 1 to 5 threads (more threads
// than cores, so parts start late and in any order); and through windows of
// a few middle rows, one per thread, each row read holding that row.
#include "drivers/cpu/band_pair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "drivers/cpu/thread_pool.h"

namespace annrt::cpu {
namespace {

// The producer writes each middle row's number plus one into the middle
// image (or its window's image: `output[row]`) and counts the row's writes;
// the consumer checks that every row its window reads holds its own number
// there (so was written before it is read). Each output row is written once.
class RowRecorder final : public NativeKernel {
 public:
  RowRecorder(std::optional<RowReads> reads, std::vector<std::atomic<uint32_t>>* middleWrites,
              std::atomic<uint32_t>* wrongReads)
      : NativeKernel({0}, 1, NativeForm::BANDED_PAIR),
        reads_(reads),
        middleWrites_(middleWrites),
        wrongReads_(wrongReads) {}

  void run(const std::vector<const float*>& /*inputs*/, float* /*output*/,
           pthreadpool_t /*pool*/) const override {}
  bool writesRows() const override { return true; }
  std::optional<RowReads> rowReads() const override { return reads_; }

  void runRows(const std::vector<const float*>& inputs, float* output, size_t rowPixels,
               uint32_t first, uint32_t count) const override {
    EXPECT_EQ(rowPixels, 1u);
    for (uint32_t row = first; row < first + count; ++row) {
      if (!reads_) {  // the producer
        output[row] = static_cast<float>(row + 1);
        (*middleWrites_)[row].fetch_add(1);
        continue;
      }
      for (uint32_t in = reads_->begin(row); in < reads_->end(row); ++in) {
        if (inputs[0][in] != static_cast<float>(in + 1)) wrongReads_->fetch_add(1);
      }
      output[row] += 1.0f;
    }
  }

 private:
  void narrow(const OutputRange& /*range*/) override {}
  std::optional<RowReads> reads_;
  std::vector<std::atomic<uint32_t>>* middleWrites_;
  std::atomic<uint32_t>* wrongReads_;
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
        std::vector<std::atomic<uint32_t>> middleWrites(c.inHeight);
        std::atomic<uint32_t> wrongReads{0};
        const RowRecorder producer(std::nullopt, &middleWrites, &wrongReads);
        const RowRecorder consumer(reads, &middleWrites, &wrongReads);
        std::vector<float> middle(c.inHeight, 0.0f), output(reads.outHeight, 0.0f);
        const BandPair pair{&producer, &consumer, reads, 1, middle.data()};
        const ThreadPool pool = sharedThreadPool(threads);
        if (pool) {
          runBandPairOnPool(pair, {nullptr}, {middle.data()}, output.data(), pool.get());
        } else {
          std::vector<const float*> consumerInputs = {middle.data()};
          runBandPair(pair, {nullptr}, consumerInputs, output.data());
        }
        EXPECT_EQ(wrongReads.load(), 0u);
        for (uint32_t row = 0; row < c.inHeight; ++row) {
          EXPECT_EQ(middleWrites[row].load(), 1u) << "row " << row;
          EXPECT_EQ(middle[row], static_cast<float>(row + 1)) << "row " << row;
        }
        EXPECT_EQ(output, std::vector<float>(reads.outHeight, 1.0f));
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

// On one thread and on pools of 2, 3 and 5 (one window per thread), through
// windows of the least rows and up to three more.
TEST(BandPairTest, WindowsHoldTheRowsEachOutputRowReads) {
  const std::vector<WindowCase> cases = {
      {112, 3, 2, 0}, {84, 5, 2, 1}, {75, 3, 2, 0}, {64, 1, 1, 0},
      {56, 3, 1, 1},  {9, 5, 2, 2},  {40, 1, 2, 0}, {33, 7, 1, 3},
  };
  for (const WindowCase& c : cases) {
    const RowReads reads{c.inHeight, outHeight(c), c.stride, c.padTop, c.span};
    std::vector<bool> read(c.inHeight, false);
    for (uint32_t row = 0; row < reads.outHeight; ++row) {
      for (uint32_t in = reads.begin(row); in < reads.end(row); ++in) read[in] = true;
    }
    const uint32_t least = c.span + c.stride;
    for (uint32_t threads : {1u, 2u, 3u, 5u}) {
      for (uint32_t windowRows = least; windowRows < least + 4 && windowRows < c.inHeight;
           ++windowRows) {
        SCOPED_TRACE(std::to_string(c.inHeight) + " rows, window " + std::to_string(c.span) +
                     " stride " + std::to_string(c.stride) + ", " + std::to_string(windowRows) +
                     " rows kept, " + std::to_string(threads) + " threads");
        std::vector<std::atomic<uint32_t>> middleWrites(c.inHeight);
        std::atomic<uint32_t> wrongReads{0};
        const RowRecorder producer(std::nullopt, &middleWrites, &wrongReads);
        const RowRecorder consumer(reads, &middleWrites, &wrongReads);
        std::vector<float> windows(size_t{windowRows} * threads, 0.0f),
            output(reads.outHeight, 0.0f);
        const BandPair pair{&producer, &consumer, reads, 1, windows.data(), windowRows, 1};
        std::vector<const float*> consumerInputs = {windows.data()};
        const ThreadPool pool = sharedThreadPool(threads);
        if (pool) {
          runBandPairOnPool(pair, {nullptr}, consumerInputs, output.data(), pool.get());
        } else {
          runBandPair(pair, {nullptr}, consumerInputs, output.data());
        }
        EXPECT_EQ(wrongReads.load(), 0u);
        EXPECT_EQ(consumerInputs[0], windows.data());
        EXPECT_EQ(output, std::vector<float>(reads.outHeight, 1.0f));
        // Rows some output row reads are written once by each part that
        // reads them (on one thread: once); rows none reads, by no part or
        // by one making a band of consecutive rows.
        const uint32_t parts = std::min(threads, reads.outHeight);
        for (uint32_t row = 0; row < c.inHeight; ++row) {
          const uint32_t writes = middleWrites[row].load();
          EXPECT_LE(writes, parts) << "row " << row;
          if (read[row]) {
            EXPECT_GE(writes, 1u) << "row " << row;
            if (threads == 1) {
              EXPECT_EQ(writes, 1u) << "row " << row;
            }
          }
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(BandPairTest, WindowRowsCoverASlideAndAreNeverTheWholeImage) {
  const RowReads strided{112, 56, 2, 0, 3};
  // 112 pixels of 64 channels a row: 28 KB.
  const uint32_t rows = bandWindowRows(strided, size_t{112} * 64 * sizeof(float));
  EXPECT_GE(rows, strided.span + strided.stride);
  EXPECT_LT(rows, strided.inHeight);
  // However wide the rows, a slide keeps what the next output row reads and
  // copies at most an eighth of the rows the window then makes room for.
  for (const RowReads& reads : {strided, RowReads{200, 98, 2, 1, 5}, RowReads{200, 200, 1, 0, 1}}) {
    const uint32_t wide = bandWindowRows(reads, size_t{64} << 20);
    const uint32_t copied = reads.span - std::min(reads.span, reads.stride);
    EXPECT_GE(wide, reads.span + reads.stride);
    EXPECT_GE(wide - copied, 8 * copied);
  }
  // A window that would be the whole image is none.
  EXPECT_EQ(bandWindowRows(RowReads{6, 3, 2, 0, 3}, 16), 0u);
}

}  // namespace
}  // namespace annrt::cpu
