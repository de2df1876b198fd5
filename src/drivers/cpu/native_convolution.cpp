// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D in float32, computed directly on the NHWC
// image (no indirection buffer, no im2col). Five forms, by which channels
// fill the vectors:
// - depthwise, any multiple of 8 channels (multiplier 1; in the column
//   form any 8 or more, the last group overlapping): 16 or 8 of a
//   pixel's channels are one vector, each tap one multiply-add per vector
//   for 4 pixels at once (8 with AVX-512); filters of 3x3 and 5x5 unrolled;
//   3x3 and 5x5 filters of stride 1 or 2 load each input column of a block
//   once per filter row for all the taps reading it (depthwiseColumnsBlock;
//   1.3-2.6x faster than loading per tap on AVX-512, 2-3x on AVX2; 8
//   channels of stride 1 on AVX-512 a pair of pixels a vector,
//   pairedColumnsBlock);
// - by output, 8 or 16 output channels and up to 16 input ones: each input
//   channel broadcast and multiplied by the taps' output-channel vectors;
// - by input, 8 or 16 input channels and up to 8 output ones: each output
//   channel a dot product of input vectors, summed across at the end for
//   8 pixels at once (4 per sum8x4); on AVX-512 in vectors of 16 (a pair
//   of neighbouring pixels' 8 channels, or a pixel's 16);
// - image stems, 3 channels to 16, 24 or 32, 3x3 or 5x5: as by output, the
//   3 channels and the taps unrolled (the first layer of every default
//   model; XNNPACK's generic path ran it at a third of the core's peak), in
//   16-float vectors at stride 2 where the code is AVX-512's;
// - transposed, whose filter is its stride (each input pixel makes a block of
//   outputs of its own) and no padding, from 8 or 16 channels to at most 8:
//   each output a dot product, as by input (selfie_segmentation's last layer).
// Rows outside the image are skipped (zero padding). Results differ from
// the reference only by float rounding (the sums are taken in another order).
#include <algorithm>
#include <cstring>

#include "drivers/cpu/convolution_params.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;

struct ConvShape {
  uint32_t batches = 0, inHeight = 0, inWidth = 0, inChannels = 0;
  uint32_t outHeight = 0, outWidth = 0, outChannels = 0;
  Window window;
  OutputRange range;
  // Output columns [interiorBegin, interiorEnd) read no column of padding.
  uint32_t interiorBegin = 0, interiorEnd = 0;
  // Depthwise: a block of output pixels goes through all its channels before
  // the next block (depthwiseRow).
  bool channelsInner = false;
};

// Output pixels computed together: independent sums keep the multiply-add
// units busy (one sum alone waits on each multiply-add's latency).
constexpr int kBlock = 4;
// Depthwise output pixels summed together where the kernels run on AVX-512
// (nativeWideVectors): 8 sums of 16 floats fill half its 32 registers;
// elsewhere kBlock (8 would spill).
constexpr int kWideBlock = 8;
// Image stems (stemRows): 3 input channels, each broadcast; 24 and 32
// output channels sum 3 pixels at once, 16 sum kBlock. At 4 pixels GCC
// keeps the weight vectors and the pixels' broadcasts in registers beside
// the sums (24 channels: 12 sums, 3 weights and a broadcast, all 16 of AVX2's
// registers) and spills: 3 -> 24 then ran 1.5x slower (docs/native-kernels.md).
constexpr uint32_t kStemChannels = 3;
constexpr int kStemBlockManyChannels = 3;
// The stride the AVX-512 stems are built for (wideStemRow); others take the
// 8-float rows.
constexpr uint32_t kWideStemStride = 2;
// Depthwise output pixels of the column form (depthwiseColumnsBlock)
// summed together, on AVX-512 and AVX2 alike.
constexpr int kColumnsBlock = 8;
// The L1 data cache the depthwise loop order is chosen for (32 KB on most
// x86 and Arm cores, 48 KB on recent ones).
constexpr size_t kL1Bytes = size_t{32} << 10;

// Where output pixel `o` along one axis reads tap 0, and whether tap `k` is
// inside the image (taps outside read the zero padding, which adds nothing).
struct Taps {
  int64_t first;
  uint32_t dilation;
  uint32_t size;
  int64_t at(uint32_t k) const { return first + int64_t{k} * dilation; }
  bool inside(uint32_t k) const { return at(k) >= 0 && at(k) < size; }
};

Taps rowTaps(const ConvShape& s, uint32_t oy) {
  return {int64_t{oy} * s.window.strideHeight - s.window.padTop, s.window.dilationHeight,
          s.inHeight};
}

Taps columnTaps(const ConvShape& s, uint32_t ox) {
  return {int64_t{ox} * s.window.strideWidth - s.window.padLeft, s.window.dilationWidth, s.inWidth};
}

// Calls pixels<1, true>(ox) one output pixel at a time where column taps may
// fall in the padding, pixels<kBlock, false>(ox) for blocks where none does.
template <int BLOCK = kBlock, class Pixels>
[[gnu::always_inline]] inline void forEachBlock(const ConvShape& s, Pixels&& pixels) {
  uint32_t ox = 0;
  for (; ox < s.interiorBegin && ox < s.outWidth; ++ox) pixels.template operator()<1, true>(ox);
  for (; ox + BLOCK <= s.interiorEnd; ox += BLOCK) {
    pixels.template operator()<BLOCK, false>(ox);
  }
  for (; ox < s.outWidth; ++ox) pixels.template operator()<1, true>(ox);
}

// P pixels of V vectors of channels, each starting from the bias.
template <class Vec, int P, int V>
[[gnu::always_inline]] inline void startFromBias(Vec (&acc)[P][V], const float* bias) {
  for (int p = 0; p < P; ++p) {
    for (int v = 0; v < V; ++v) acc[p][v] = loadVector<Vec>(bias + size_t{kLanes<Vec>} * v);
  }
}

// Stores P pixels of V vectors of channels clamped, the first at `out`, the
// next `pixelStride` floats on.
template <class Vec, int P, int V>
[[gnu::always_inline]] inline void storeClamped(const Vec (&acc)[P][V], float* out,
                                                size_t pixelStride, Vec lo, Vec hi) {
  for (int p = 0; p < P; ++p) {
    for (int v = 0; v < V; ++v) {
      storeVector(out + pixelStride * p + size_t{kLanes<Vec>} * v, clampVector(acc[p][v], lo, hi));
    }
  }
}

// Calls tap(t, pixel) for each filter tap t (row-major) of one output pixel
// that falls inside the image, pixel being the input pixel it reads.
// `columns` are the pixel's column taps; CHECKED: some may be outside.
// K: the filter is K x K (unrolled), or 0: any size.
template <bool CHECKED, int K = 0, class Tap>
[[gnu::always_inline]] inline void forEachTap(const ConvShape& s, const Taps& rows,
                                              const Taps& columns, const float* image,
                                              uint32_t channels, Tap&& tap) {
  const uint32_t height = K != 0 ? K : s.window.filterHeight;
  const uint32_t width = K != 0 ? K : s.window.filterWidth;
  for (uint32_t ky = 0; ky < height; ++ky) {
    if (!rows.inside(ky)) continue;
    const float* line = image + rows.at(ky) * s.inWidth * channels;
    for (uint32_t kx = 0; kx < width; ++kx) {
      if (CHECKED && !columns.inside(kx)) continue;
      tap(ky * width + kx, line + columns.at(kx) * channels);
    }
  }
}

// One output row of 8 * V channels from `inChannels`-channel pixels: each
// pixel's sums start from the bias, accumulate<P>(acc, t, pixel, step) adds
// filter tap t for P pixels (the first at `pixel`, the next `step` floats on),
// and they are stored clamped.
// K as forEachTap; BLOCK pixels a block where no column tap is padding.
template <int V, int K = 0, int BLOCK = kBlock, class Accumulate>
[[gnu::always_inline]] inline void vectorRow(const ConvShape& s, const float* image,
                                             const float* bias, float* out, uint32_t oy,
                                             uint32_t inChannels, Accumulate&& accumulate) {
  const Float8 lo = splat8(s.range.min), hi = splat8(s.range.max);
  const Taps rows = rowTaps(s, oy);
  const int64_t step = int64_t{s.window.strideWidth} * inChannels;
  forEachBlock<BLOCK>(s, [&]<int P, bool CHECKED>(uint32_t ox) {
    Float8 acc[P][V];
    startFromBias(acc, bias);
    forEachTap<CHECKED, K>(s, rows, columnTaps(s, ox), image, inChannels,
                           [&](uint32_t t, const float* pixel) {
                             accumulate.template operator()<P>(acc, t, pixel, step);
                           });
    storeClamped(acc, out + size_t{ox} * 8 * V, size_t{8} * V, lo, hi);
  });
}

// Channels [c, c + V * kLanes<Vec>) of P depthwise output pixels from column
// ox on, C channels each (multiplier 1); weights [kh][kw][C]; K as forEachTap.
template <class Vec, int P, int V, int K, bool CHECKED>
[[gnu::always_inline]] inline void depthwiseChannels(const ConvShape& s, const Taps& rows,
                                                     uint32_t ox, const float* image,
                                                     const float* weights, const float* bias,
                                                     float* out, uint32_t c) {
  constexpr int L = kLanes<Vec>;
  const uint32_t C = s.inChannels;
  const int64_t step = int64_t{s.window.strideWidth} * C;
  Vec acc[P][V];
  startFromBias(acc, bias + c);
  forEachTap<CHECKED, K>(
      s, rows, columnTaps(s, ox), image + c, C, [&](uint32_t t, const float* pixel) {
        for (int v = 0; v < V; ++v) {
          const Vec w = loadVector<Vec>(weights + size_t{t} * C + c + size_t{L} * v);
          for (int p = 0; p < P; ++p) {
            acc[p][v] += loadVector<Vec>(pixel + p * step + ptrdiff_t{L} * v) * w;
          }
        }
      });
  const Vec lo = splatVector<Vec>(s.range.min), hi = splatVector<Vec>(s.range.max);
  storeClamped(acc, out + size_t{ox} * C + c, C, lo, hi);
}

// Every channel of output pixel ox (taps CHECKED), several vectors at once:
// one pixel's sums alone would each wait on the previous multiply-add.
template <int K, bool CHECKED>
[[gnu::always_inline]] inline void depthwisePixel(const ConvShape& s, const Taps& rows, uint32_t ox,
                                                  const float* image, const float* weights,
                                                  const float* bias, float* out) {
  const uint32_t C = s.inChannels;
  uint32_t c = 0;
  for (; c + 64 <= C; c += 64) {
    depthwiseChannels<Float16, 1, 4, K, CHECKED>(s, rows, ox, image, weights, bias, out, c);
  }
  for (; c + 16 <= C; c += 16) {
    depthwiseChannels<Float16, 1, 1, K, CHECKED>(s, rows, ox, image, weights, bias, out, c);
  }
  if (c < C) depthwiseChannels<Float8, 1, 1, K, CHECKED>(s, rows, ox, image, weights, bias, out, c);
}

// The blocks of B pixels of [begin, end) across channels [first, last), 16
// at a time (then the last 8 if any).
template <int K, int B>
[[gnu::always_inline]] inline void depthwiseBlocks(const ConvShape& s, const Taps& rows,
                                                   uint32_t begin, uint32_t end, const float* image,
                                                   const float* weights, const float* bias,
                                                   float* out, uint32_t first, uint32_t last) {
  uint32_t c = first;
  for (; c + 16 <= last; c += 16) {
    for (uint32_t ox = begin; ox < end; ox += B) {
      depthwiseChannels<Float16, B, 1, K, false>(s, rows, ox, image, weights, bias, out, c);
    }
  }
  if (c < last) {
    for (uint32_t ox = begin; ox < end; ox += B) {
      depthwiseChannels<Float8, B, 1, K, false>(s, rows, ox, image, weights, bias, out, c);
    }
  }
}

// One output row of a depthwise convolution of any multiple of 8 channels.
// Inside the image, in blocks of B pixels 16 channels at a time: block by
// block across all channels where the input a block reads fits the L1
// cache (ConvShape::channelsInner; streamed from memory once), else channel
// block by channel block across the whole row, so that the few input rows'
// 16 channels stay in the L1 cache. The columns left, at the edges and
// between, one pixel at a time.
template <int K, int B>
[[gnu::always_inline]] inline void depthwiseRow(const ConvShape& s, const float* image,
                                                const float* weights, const float* bias, float* out,
                                                uint32_t oy) {
  const Taps rows = rowTaps(s, oy);
  const uint32_t C = s.inChannels;
  const uint32_t begin = std::min(s.interiorBegin, s.outWidth);
  const uint32_t blocks = s.interiorEnd > begin ? (s.interiorEnd - begin) / B : 0;
  const uint32_t end = begin + blocks * B;
  if (s.channelsInner) {
    for (uint32_t ox = begin; ox < end; ox += B) {
      depthwiseBlocks<K, B>(s, rows, ox, ox + B, image, weights, bias, out, 0, C);
    }
  } else {
    depthwiseBlocks<K, B>(s, rows, begin, end, image, weights, bias, out, 0, C);
  }
  for (uint32_t ox = 0; ox < begin; ++ox) {
    depthwisePixel<K, true>(s, rows, ox, image, weights, bias, out);
  }
  for (uint32_t ox = end; ox < s.interiorEnd; ++ox) {
    depthwisePixel<K, false>(s, rows, ox, image, weights, bias, out);
  }
  for (uint32_t ox = std::max(end, s.interiorEnd); ox < s.outWidth; ++ox) {
    depthwisePixel<K, true>(s, rows, ox, image, weights, bias, out);
  }
}

// Channels [c, c + kLanes<Vec>) of the depthwise output pixels [ox, ox + P)
// of one row (dilation 1, multiplier 1, a K x K filter, stride S): each input
// column the block reads is loaded once per filter row and multiplied by
// every tap that reads it ((P - 1) * S + K loads for P * K multiply-adds,
// against P * K loads when each pixel loads its own taps: those kernels wait
// on the loads, not on the multiply-adds). CHECKED: columns outside the
// image read zeros and only the first `count` pixels are stored. STREAM:
// each column is loaded as its taps use it, with the filter row's K weights
// held in registers: P + K + 1 registers where holding all the row's columns
// takes (P - 1) * S + K + P + 1 (up to 28, more than AVX2's 16).
template <class Vec, int K, int S, int P, bool CHECKED, bool STREAM>
[[gnu::always_inline]] inline void depthwiseColumnsBlock(const ConvShape& s, const Taps& rows,
                                                         uint32_t ox, uint32_t count,
                                                         const float* image, const float* weights,
                                                         const float* bias, float* out, uint32_t c,
                                                         Vec lo, Vec hi) {
  constexpr int kColumns = (P - 1) * S + K;
  const uint32_t C = s.inChannels;
  const Taps columns{int64_t{ox} * S - s.window.padLeft, 1, s.inWidth};
  Vec acc[P];
  const Vec start = loadVector<Vec>(bias + c);
#pragma GCC unroll 8
  for (int p = 0; p < P; ++p) acc[p] = start;
#pragma GCC unroll 5
  for (int ky = 0; ky < K; ++ky) {
    if (!rows.inside(ky)) continue;
    const float* line = image + rows.at(ky) * s.inWidth * C + c;
    if constexpr (STREAM) {
      Vec w[K];
#pragma GCC unroll 5
      for (int kx = 0; kx < K; ++kx) {
        w[kx] = loadVector<Vec>(weights + static_cast<size_t>(ky * K + kx) * C + c);
      }
#pragma GCC unroll 20
      for (int j = 0; j < kColumns; ++j) {
        const auto k = static_cast<uint32_t>(j);
        if (CHECKED && !columns.inside(k)) continue;
        const Vec in = loadVector<Vec>(line + columns.at(k) * C);
#pragma GCC unroll 8
        for (int p = 0; p < P; ++p) {
          const int kx = j - p * S;
          if (kx >= 0 && kx < K) acc[p] += in * w[kx];
        }
      }
      continue;
    }
    Vec in[kColumns];
#pragma GCC unroll 20
    for (int j = 0; j < kColumns; ++j) {
      const auto k = static_cast<uint32_t>(j);
      in[j] = !CHECKED || columns.inside(k) ? loadVector<Vec>(line + columns.at(k) * C) : Vec{};
    }
#pragma GCC unroll 5
    for (int kx = 0; kx < K; ++kx) {
      const Vec w = loadVector<Vec>(weights + static_cast<size_t>(ky * K + kx) * C + c);
#pragma GCC unroll 8
      for (int p = 0; p < P; ++p) acc[p] += in[p * S + kx] * w;
    }
  }
  float* pixel = out + size_t{ox} * C + c;
#pragma GCC unroll 8
  for (int p = 0; p < P; ++p) {
    if (CHECKED && static_cast<uint32_t>(p) >= count) break;
    storeVector(pixel + static_cast<size_t>(p) * C, clampVector(acc[p], lo, hi));
  }
}

// depthwiseColumnsBlock for 8 channels, stride 1, P pixels from ox, none
// reading padding, in vectors of 16 (AVX-512's code): two neighbouring
// pixels' channels are one vector, so a tap is one multiply-add for a pair
// of output pixels, by its weights repeated in both halves, and a loaded
// vector is the input columns j and j + 1 that the pair starting at j - kx
// reads through tap kx (in vectors of 8, one multiply-add per pixel).
template <int K, int P>
[[gnu::always_inline]] inline void pairedColumnsBlock(const ConvShape& s, const Taps& rows,
                                                      uint32_t ox, const float* image,
                                                      const float* weights, const float* bias,
                                                      float* out, Float16 lo, Float16 hi) {
  constexpr uint32_t C = 8;
  constexpr int kPairs = P / 2;
  constexpr int kStarts = P + K - 2;  // vectors loaded per filter row
  const Taps columns{int64_t{ox} - s.window.padLeft, 1, s.inWidth};
  Float16 acc[kPairs];
  const Float16 start = twice(load8(bias));
#pragma GCC unroll 4
  for (int q = 0; q < kPairs; ++q) acc[q] = start;
#pragma GCC unroll 5
  for (int ky = 0; ky < K; ++ky) {
    if (!rows.inside(ky)) continue;
    const float* line = image + rows.at(ky) * s.inWidth * C;
    Float16 w[K];
#pragma GCC unroll 5
    for (int kx = 0; kx < K; ++kx) w[kx] = twice(load8(weights + size_t{C} * (ky * K + kx)));
#pragma GCC unroll 12
    for (int j = 0; j < kStarts; ++j) {
      const auto in = loadVector<Float16>(line + columns.at(static_cast<uint32_t>(j)) * C);
#pragma GCC unroll 4
      for (int q = 0; q < kPairs; ++q) {
        const int kx = j - 2 * q;
        if (kx >= 0 && kx < K) acc[q] += in * w[kx];
      }
    }
  }
#pragma GCC unroll 4
  for (int q = 0; q < kPairs; ++q) {
    storeVector(out + (size_t{ox} + 2 * static_cast<size_t>(q)) * C, clampVector(acc[q], lo, hi));
  }
}

// One output row of a depthwise convolution as depthwiseColumnsBlock computes
// it, in blocks of P pixels; blocks reading no padding column unchecked.
// Wide (AVX-512): channel block by channel block (16, then the last 8), each
// across the row. NARROW (AVX2's 16 registers): 8 channels a block, the
// columns streamed, block by block across all channels (faster on AVX2
// than across the row whatever a block reads: docs/native-kernels.md).
template <int K, int S, int P, bool NARROW = false>
[[gnu::always_inline]] inline void depthwiseColumnsRow(const ConvShape& s, const float* image,
                                                       const float* weights, const float* bias,
                                                       float* out, uint32_t oy) {
  const Taps rows = rowTaps(s, oy);
  // The output range's vectors, made once a row: made in each block, GCC
  // loaded the two floats as one, spread them through the stack and read a
  // vector back, a store-forwarding stall per block (12% of AVX2's 3x3 of
  // 144 channels).
  const Float8 lo8 = splat8(s.range.min), hi8 = splat8(s.range.max);
  const Float16 lo16 = splatVector<Float16>(s.range.min), hi16 = splatVector<Float16>(s.range.max);
  auto block = [&]<class Vec>(uint32_t ox, uint32_t c) {
    const uint32_t count = std::min<uint32_t>(P, s.outWidth - ox);
    Vec lo, hi;
    if constexpr (kLanes<Vec> == 8) {
      lo = lo8, hi = hi8;
    } else {
      lo = lo16, hi = hi16;
    }
    if (ox >= s.interiorBegin && ox + P <= s.interiorEnd) {
      depthwiseColumnsBlock<Vec, K, S, P, false, NARROW>(s, rows, ox, P, image, weights, bias, out,
                                                         c, lo, hi);
    } else {
      depthwiseColumnsBlock<Vec, K, S, P, true, NARROW>(s, rows, ox, count, image, weights, bias,
                                                        out, c, lo, hi);
    }
  };
  auto across = [&]<class Vec>(uint32_t c) {
    for (uint32_t ox = 0; ox < s.outWidth; ox += P) block.template operator()<Vec>(ox, c);
  };
  // 3x3 on AVX-512: a block through all its channels before the next, which
  // reads each input pixel's channels together; 5x5 (more reuse per loaded
  // column) a channel group along the whole row, which measured no worse
  // (docs/native-kernels.md).
  // Wide: 16 channels at a time, then the rest as the last 16 or 8 (below
  // 16 channels, 8 and the last 8), the last group overlapping the one
  // before it where the channels are not a multiple of 8. An overlapped
  // channel is computed twice, from the same inputs in the same order, so
  // its second store writes what the first wrote (face detection's depthwise
  // convolutions of 12, 28, 36 and 42 channels). Written out in both loops:
  // through one more generic lambda GCC stopped inlining the row into its
  // AVX-512 function, which then ran 3x slower.
  const uint32_t C = s.inChannels;
  const uint32_t full = C / 16 * 16;
  const bool lastSixteen = C - full > 8 && C >= 16;
  if constexpr (!NARROW && S == 1) {
    if (C == 8) {
      for (uint32_t ox = 0; ox < s.outWidth; ox += P) {
        if (ox >= s.interiorBegin && ox + P <= s.interiorEnd) {
          pairedColumnsBlock<K, P>(s, rows, ox, image, weights, bias, out, lo16, hi16);
        } else {
          block.template operator()<Float8>(ox, 0);
        }
      }
      return;
    }
  }
  if constexpr (!NARROW && K == 3) {
    for (uint32_t ox = 0; ox < s.outWidth; ox += P) {
      for (uint32_t c = 0; c < full; c += 16) block.template operator()<Float16>(ox, c);
      if (lastSixteen) {
        block.template operator()<Float16>(ox, C - 16);
      } else if (full < C) {
        if (C - full > 8) block.template operator()<Float8>(ox, full);
        block.template operator()<Float8>(ox, C - 8);
      }
    }
  } else if constexpr (!NARROW) {
    for (uint32_t c = 0; c < full; c += 16) across.template operator()<Float16>(c);
    if (lastSixteen) {
      across.template operator()<Float16>(C - 16);
    } else if (full < C) {
      if (C - full > 8) across.template operator()<Float8>(full);
      across.template operator()<Float8>(C - 8);
    }
  } else {
    // Narrow: 8 channels at a time, the last 8 overlapping the group before
    // them as above.
    const uint32_t eights = C / 8 * 8;
    for (uint32_t ox = 0; ox < s.outWidth; ox += P) {
      for (uint32_t c = 0; c < eights; c += 8) block.template operator()<Float8>(ox, c);
      if (eights < C) block.template operator()<Float8>(ox, C - 8);
    }
  }
}

// The taps of a convolution to 8 * V channels, each input channel broadcast;
// weights [kh][kw][inChannels][8 * V]. CI: inChannels, unrolled, or 0: any.
template <int V, int CI = 0>
struct ByOutputTaps {
  const float* weights;
  uint32_t inChannels;
  template <int P>
  [[gnu::always_inline]] void operator()(Float8 (&acc)[P][V], uint32_t t, const float* pixel,
                                         int64_t step) const {
    const uint32_t channels = CI != 0 ? CI : inChannels;
    const float* tap = weights + size_t{t} * channels * 8 * V;
#pragma GCC unroll 4
    for (uint32_t c = 0; c < channels; ++c, tap += size_t{8} * V) {
      for (int v = 0; v < V; ++v) {
        const Float8 w = load8(tap + size_t{8} * v);
        // A scalar times a vector: GCC broadcasts it within the multiply-add
        // (with three vectors, 3 -> 24 channels, 1.8x faster than splat8).
        for (int p = 0; p < P; ++p) acc[p][v] += pixel[p * step + c] * w;
      }
    }
  }
};

// One output row of an image stem, 3 channels to N = 16, 24 or 32, in the
// code built for AVX-512: a pixel's N sums are N / 16 vectors of 16 and, for
// 24, one of 8, so that each channel of a tap costs one or two multiply-adds
// per pixel where vectors of 8 take two to four. Weights as ByOutputTaps:
// [kh][kw][3][N]. Stride 2 (every default model's stem), known to the
// compiler: the block's pixels are then offsets from one address (with the
// stride in a variable their 8 addresses spilled).
template <int K, int N>
[[gnu::always_inline]] inline void wideStemRow(const ConvShape& s, const float* image,
                                               const float* weights, const float* bias, float* out,
                                               uint32_t oy) {
  constexpr int W = N / 16;
  constexpr bool HALF = N % 16 != 0;
  const Float16 lo = splatVector<Float16>(s.range.min), hi = splatVector<Float16>(s.range.max);
  const Float8 lo8 = splat8(s.range.min), hi8 = splat8(s.range.max);
  const Taps rows = rowTaps(s, oy);
  constexpr int64_t step = int64_t{kWideStemStride} * kStemChannels;
  // Pixels summed together: 20-24 of the 32 registers hold sums (12 pixels
  // of one vector, 10 of a vector and a half, 8 of two; the best of 8, 10,
  // 12 and 16 on Zen 5 for each).
  constexpr int kPixels = N == 16 ? 12 : N == 24 ? 10 : 8;
  forEachBlock<kPixels>(s, [&]<int P, bool CHECKED>(uint32_t ox) {
    Float16 wide[P][W];
    Float8 half[P];
    startFromBias(wide, bias);
    for (int p = 0; p < P; ++p) half[p] = HALF ? load8(bias + ptrdiff_t{16} * W) : Float8{};
    forEachTap<CHECKED, K>(s, rows, columnTaps(s, ox), image, kStemChannels,
                           [&](uint32_t t, const float* pixel) {
                             const float* tap = weights + size_t{t} * kStemChannels * N;
#pragma GCC unroll 3
                             for (uint32_t c = 0; c < kStemChannels; ++c, tap += N) {
                               for (int v = 0; v < W; ++v) {
                                 const Float16 w = loadVector<Float16>(tap + ptrdiff_t{16} * v);
                                 for (int p = 0; p < P; ++p) wide[p][v] += pixel[p * step + c] * w;
                               }
                               if constexpr (HALF) {
                                 const Float8 w = load8(tap + ptrdiff_t{16} * W);
                                 for (int p = 0; p < P; ++p) half[p] += pixel[p * step + c] * w;
                               }
                             }
                           });
    float* first = out + size_t{ox} * N;
    storeClamped(wide, first, N, lo, hi);
    if constexpr (HALF) {
      for (int p = 0; p < P; ++p)
        store8(first + size_t{N} * p + size_t{16} * W, clamp8(half[p], lo8, hi8));
    }
  });
}

// Output pixels of the by-input form summed together: 8 independent dot
// products keep both multiply-add units busy, and their sums across are
// taken four at a time (sum8x4).
constexpr int kByInputBlock = 8;

// The dot products of P pixels (the lanes of each of `dots` summed across),
// plus `bias`, clamped to `range`, the first at `out`, the next `stride`
// floats on (1: a single output channel, stored as vectors).
template <int P>
[[gnu::always_inline]] inline void storeDots(const Float8 (&dots)[P], float bias,
                                             const OutputRange& range, float* out, size_t stride) {
  if constexpr (P % 4 == 0) {
    const Float4 lo = {range.min, range.min, range.min, range.min};
    const Float4 hi = {range.max, range.max, range.max, range.max};
    const Float4 offset = {bias, bias, bias, bias};
    for (int q = 0; q < P; q += 4) {
      const Float4 sums =
          clampVector(sum8x4(dots[q], dots[q + 1], dots[q + 2], dots[q + 3]) + offset, lo, hi);
      if (stride == 1) {
        storeVector(out + q, sums);
      } else {
        for (int p = 0; p < 4; ++p) out[stride * (q + p)] = sums[p];
      }
    }
  } else {
    for (int p = 0; p < P; ++p) {
      out[stride * p] = clamp1(sum8(dots[p]) + bias, range.min, range.max);
    }
  }
}

// weights: [outChannels][kh][kw][8 * U]; one output row. K as forEachTap.
template <int U, int K = 0>
[[gnu::always_inline]] inline void byInputRow(const ConvShape& s, const float* image,
                                              const float* weights, const float* bias, float* out,
                                              uint32_t oy) {
  constexpr uint32_t CI = 8 * U;
  const uint32_t co = s.outChannels;
  const uint32_t taps = s.window.filterHeight * s.window.filterWidth;
  const Taps rows = rowTaps(s, oy);
  const int64_t step = int64_t{s.window.strideWidth} * CI;
  forEachBlock<kByInputBlock>(s, [&]<int P, bool CHECKED>(uint32_t ox) {
    const Taps columns = columnTaps(s, ox);
    for (uint32_t o = 0; o < co; ++o) {
      Float8 acc[P] = {};
      const float* filter = weights + size_t{o} * taps * CI;
      forEachTap<CHECKED, K>(s, rows, columns, image, CI, [&](uint32_t t, const float* pixel) {
        for (int u = 0; u < U; ++u) {
          const Float8 w = load8(filter + size_t{t} * CI + size_t{8} * u);
          for (int p = 0; p < P; ++p) acc[p] += load8(pixel + p * step + ptrdiff_t{8} * u) * w;
        }
      });
      storeDots(acc, bias[o], s.range, out + size_t{ox} * co + o, co);
    }
  });
}

// byInputRow<2, K> in vectors of 16 floats (AVX-512's code): a tap of a
// pixel's 16 channels is one multiply-add, not two; the halves of each
// pixel's sums are added before summing across.
template <int K>
[[gnu::always_inline]] inline void wideByInputRow(const ConvShape& s, const float* image,
                                                  const float* weights, const float* bias,
                                                  float* out, uint32_t oy) {
  constexpr uint32_t CI = 16;
  const uint32_t co = s.outChannels;
  const uint32_t taps = s.window.filterHeight * s.window.filterWidth;
  const Taps rows = rowTaps(s, oy);
  const int64_t step = int64_t{s.window.strideWidth} * CI;
  forEachBlock<kByInputBlock>(s, [&]<int P, bool CHECKED>(uint32_t ox) {
    const Taps columns = columnTaps(s, ox);
    for (uint32_t o = 0; o < co; ++o) {
      const float* filter = weights + size_t{o} * taps * CI;
      Float16 acc[P] = {};
      forEachTap<CHECKED, K>(s, rows, columns, image, CI, [&](uint32_t t, const float* pixel) {
        const Float16 w = loadVector<Float16>(filter + size_t{t} * CI);
        for (int p = 0; p < P; ++p) acc[p] += loadVector<Float16>(pixel + p * step) * w;
      });
      Float8 dots[P];
      for (int p = 0; p < P; ++p) {
        dots[p] = __builtin_shufflevector(acc[p], acc[p], 0, 1, 2, 3, 4, 5, 6, 7) +
                  __builtin_shufflevector(acc[p], acc[p], 8, 9, 10, 11, 12, 13, 14, 15);
      }
      storeDots(dots, bias[o], s.range, out + size_t{ox} * co + o, co);
    }
  });
}

// byInputRow<1, K> in vectors of 16 floats (AVX-512's code, stride 1):
// the 8 channels of two neighbouring pixels are one vector, so each tap is
// one multiply-add for a pair of pixels, by the tap's 8 weights repeated
// in both halves (a broadcast load), where in vectors of 8 it took one per
// pixel. The halves are split before summing across.
template <int K>
[[gnu::always_inline]] inline void pairedByInputRow(const ConvShape& s, const float* image,
                                                    const float* weights, const float* bias,
                                                    float* out, uint32_t oy) {
  constexpr uint32_t CI = 8;
  const uint32_t co = s.outChannels;
  const uint32_t taps = s.window.filterHeight * s.window.filterWidth;
  const Taps rows = rowTaps(s, oy);
  forEachBlock<kByInputBlock>(s, [&]<int P, bool CHECKED>(uint32_t ox) {
    const Taps columns = columnTaps(s, ox);
    for (uint32_t o = 0; o < co; ++o) {
      const float* filter = weights + size_t{o} * taps * CI;
      Float8 dots[P] = {};
      if constexpr (P % 2 == 0) {
        Float16 pairs[P / 2] = {};
        forEachTap<CHECKED, K>(s, rows, columns, image, CI, [&](uint32_t t, const float* pixel) {
          const Float16 w = twice(load8(filter + size_t{t} * CI));
          for (int q = 0; q < P / 2; ++q) {
            pairs[q] += loadVector<Float16>(pixel + ptrdiff_t{16} * q) * w;
          }
        });
        for (int q = 0; q < P / 2; ++q) {
          dots[2 * q] = __builtin_shufflevector(pairs[q], pairs[q], 0, 1, 2, 3, 4, 5, 6, 7);
          dots[2 * q + 1] =
              __builtin_shufflevector(pairs[q], pairs[q], 8, 9, 10, 11, 12, 13, 14, 15);
        }
      } else {
        forEachTap<CHECKED, K>(s, rows, columns, image, CI, [&](uint32_t t, const float* pixel) {
          const Float8 w = load8(filter + size_t{t} * CI);
          for (int p = 0; p < P; ++p) dots[p] += load8(pixel + ptrdiff_t{CI} * p) * w;
        });
      }
      storeDots(dots, bias[o], s.range, out + size_t{ox} * co + o, co);
    }
  });
}

// Input row iy of a transposed convolution of 8 * U input channels making a
// kh x kw block of outputs per input pixel (output rows iy * kh to
// iy * kh + kh - 1); weights [outChannels][kh][kw][8 * U]. FOUR: the block
// holds four outputs (kh * kw * outChannels == 4: a 2x2 filter to one
// channel, as in selfie_segmentation's last layer), whose four dot products
// per pixel are summed across together (sum8x4) rather than one by one.
template <int U, bool FOUR>
[[gnu::always_inline]] inline void transposedRow(const ConvShape& s, const float* image,
                                                 const float* weights, const float* bias,
                                                 float* out, uint32_t iy) {
  constexpr uint32_t CI = 8 * U;
  const uint32_t co = s.outChannels, kh = s.window.filterHeight, kw = s.window.filterWidth;
  const float* line = image + size_t{iy} * s.inWidth * CI;
  if constexpr (FOUR) {
    Float8 w[4][U];
    size_t at[4];  // where each dot product goes, from the pixel's block corner
    float offset[4];
    for (uint32_t d = 0; d < 4; ++d) {  // d = (o * kh + ky) * kw + kx
      for (int u = 0; u < U; ++u) w[d][u] = load8(weights + size_t{d} * CI + size_t{8} * u);
      const uint32_t o = d / (kh * kw), ky = d / kw % kh, kx = d % kw;
      at[d] = (size_t{ky} * s.outWidth + kx) * co + o;
      offset[d] = bias[o];
    }
    float* corner = out + size_t{iy} * kh * s.outWidth * co;
    for (uint32_t ix = 0; ix < s.inWidth; ++ix, corner += size_t{kw} * co) {
      const float* pixel = line + size_t{ix} * CI;
      Float8 acc[4];
      for (int d = 0; d < 4; ++d) {
        acc[d] = load8(pixel) * w[d][0];
        for (int u = 1; u < U; ++u) acc[d] += load8(pixel + size_t{8} * u) * w[d][u];
      }
      const Float4 sums = sum8x4(acc[0], acc[1], acc[2], acc[3]);
      for (int d = 0; d < 4; ++d) {
        corner[at[d]] = clamp1(sums[d] + offset[d], s.range.min, s.range.max);
      }
    }
    return;
  }
  for (uint32_t ky = 0; ky < kh; ++ky) {
    float* outLine = out + (size_t{iy} * kh + ky) * s.outWidth * co;
    for (uint32_t ix = 0; ix < s.inWidth; ++ix) {
      const float* pixel = line + size_t{ix} * CI;
      for (uint32_t kx = 0; kx < kw; ++kx) {
        float* outPixel = outLine + (size_t{ix} * kw + kx) * co;
        for (uint32_t o = 0; o < co; ++o) {
          const float* tap = weights + ((size_t{o} * kh + ky) * kw + kx) * CI;
          Float8 acc{};
          for (int u = 0; u < U; ++u)
            acc += load8(pixel + size_t{8} * u) * load8(tap + size_t{8} * u);
          outPixel[o] = clamp1(sum8(acc) + bias[o], s.range.min, s.range.max);
        }
      }
    }
  }
}

// Where output row `row` of a batch's output starts.
[[gnu::always_inline]] inline float* outputRow(const ConvShape& s, float* out, uint32_t row) {
  return out + size_t{row} * s.outWidth * s.outChannels;
}

// `out` is the batch's output; `row` an output row, or for the transposed
// form an input row.
using RowFunction = void (*)(const ConvShape&, const float*, const float*, const float*, float*,
                             uint32_t);

// The row functions the kernels call, one per form and vector count, each
// built per instruction set with the whole row inlined into it.
#define ANNRT_NATIVE_ROW(name, body)                                                             \
  ANNRT_NATIVE_VARIANTS(name,                                                                    \
                        (const ConvShape& s, const float* image, const float* w, const float* b, \
                         float* out, uint32_t row),                                              \
                        { body; })
// Rows blocked for AVX-512's registers, which only its code runs (picked
// where nativeWideVectors).
#define ANNRT_WIDE_ROW(name, body)                                                  \
  ANNRT_NATIVE_AVX512_ONLY(name,                                                    \
                           (const ConvShape& s, const float* image, const float* w, \
                            const float* b, float* out, uint32_t row),              \
                           { body; })
using RowVariants = NativeVariants<RowFunction>;
#define ANNRT_DEPTHWISE_ROWS(name, K, B) \
  ANNRT_NATIVE_ROW(name, (depthwiseRow<K, B>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_DEPTHWISE_ROWS(depthwiseRows3, 3, kBlock)
ANNRT_DEPTHWISE_ROWS(depthwiseRows5, 5, kBlock)
ANNRT_DEPTHWISE_ROWS(depthwiseRowsAny, 0, kBlock)
#undef ANNRT_DEPTHWISE_ROWS
#define ANNRT_WIDE_DEPTHWISE_ROWS(name, K) \
  ANNRT_WIDE_ROW(name, (depthwiseRow<K, kWideBlock>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_WIDE_DEPTHWISE_ROWS(wideDepthwiseRows3, 3)
ANNRT_WIDE_DEPTHWISE_ROWS(wideDepthwiseRows5, 5)
ANNRT_WIDE_DEPTHWISE_ROWS(wideDepthwiseRowsAny, 0)
#undef ANNRT_WIDE_DEPTHWISE_ROWS
#define ANNRT_DEPTHWISE_COLUMNS_ROWS(name, K, S)                                 \
  ANNRT_WIDE_ROW(name, (depthwiseColumnsRow<K, S, kColumnsBlock>(s, image, w, b, \
                                                                 outputRow(s, out, row), row)))
ANNRT_DEPTHWISE_COLUMNS_ROWS(columnsDepthwiseRows3, 3, 1)
ANNRT_DEPTHWISE_COLUMNS_ROWS(columnsDepthwiseRows5, 5, 1)
ANNRT_DEPTHWISE_COLUMNS_ROWS(columnsDepthwiseRows3s2, 3, 2)
ANNRT_DEPTHWISE_COLUMNS_ROWS(columnsDepthwiseRows5s2, 5, 2)
#undef ANNRT_DEPTHWISE_COLUMNS_ROWS
#define ANNRT_DEPTHWISE_NARROW_COLUMNS_ROWS(name, K, S)                   \
  ANNRT_NATIVE_ROW(name, (depthwiseColumnsRow<K, S, kColumnsBlock, true>( \
                             s, image, w, b, outputRow(s, out, row), row)))
ANNRT_DEPTHWISE_NARROW_COLUMNS_ROWS(narrowColumnsDepthwiseRows3, 3, 1)
ANNRT_DEPTHWISE_NARROW_COLUMNS_ROWS(narrowColumnsDepthwiseRows5, 5, 1)
ANNRT_DEPTHWISE_NARROW_COLUMNS_ROWS(narrowColumnsDepthwiseRows3s2, 3, 2)
ANNRT_DEPTHWISE_NARROW_COLUMNS_ROWS(narrowColumnsDepthwiseRows5s2, 5, 2)
#undef ANNRT_DEPTHWISE_NARROW_COLUMNS_ROWS
ANNRT_NATIVE_ROW(byOutputRow8, vectorRow<1>(s, image, b, outputRow(s, out, row), row, s.inChannels,
                                            ByOutputTaps<1>{w, s.inChannels}))
ANNRT_NATIVE_ROW(byOutputRow16, vectorRow<2>(s, image, b, outputRow(s, out, row), row, s.inChannels,
                                             ByOutputTaps<2>{w, s.inChannels}))
// Image stems: 3 channels in, 3x3 or 5x5 taps, 16, 24 or 32 channels out.
#define ANNRT_STEM_ROWS(name, K, V, P)                                                          \
  ANNRT_NATIVE_ROW(name,                                                                        \
                   (vectorRow<V, K, P>(s, image, b, outputRow(s, out, row), row, kStemChannels, \
                                       ByOutputTaps<V, kStemChannels>{w, 0})))
ANNRT_STEM_ROWS(stemRow3x16, 3, 2, kBlock)
ANNRT_STEM_ROWS(stemRow3x24, 3, 3, kStemBlockManyChannels)
ANNRT_STEM_ROWS(stemRow3x32, 3, 4, kStemBlockManyChannels)
ANNRT_STEM_ROWS(stemRow5x16, 5, 2, kBlock)
ANNRT_STEM_ROWS(stemRow5x24, 5, 3, kStemBlockManyChannels)
ANNRT_STEM_ROWS(stemRow5x32, 5, 4, kStemBlockManyChannels)
#undef ANNRT_STEM_ROWS
#define ANNRT_WIDE_STEM_ROWS(name, K, N) \
  ANNRT_WIDE_ROW(name, (wideStemRow<K, N>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_WIDE_STEM_ROWS(wideStemRow3x16, 3, 16)
ANNRT_WIDE_STEM_ROWS(wideStemRow3x24, 3, 24)
ANNRT_WIDE_STEM_ROWS(wideStemRow3x32, 3, 32)
ANNRT_WIDE_STEM_ROWS(wideStemRow5x16, 5, 16)
ANNRT_WIDE_STEM_ROWS(wideStemRow5x24, 5, 24)
ANNRT_WIDE_STEM_ROWS(wideStemRow5x32, 5, 32)
#undef ANNRT_WIDE_STEM_ROWS
ANNRT_NATIVE_ROW(byInputRow8, byInputRow<1>(s, image, w, b, outputRow(s, out, row), row))
ANNRT_NATIVE_ROW(byInputRow16, byInputRow<2>(s, image, w, b, outputRow(s, out, row), row))
ANNRT_NATIVE_ROW(byInputRow8x3, (byInputRow<1, 3>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_NATIVE_ROW(byInputRow16x3, (byInputRow<2, 3>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_WIDE_ROW(pairedByInputRow8,
               (pairedByInputRow<0>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_WIDE_ROW(pairedByInputRow8x3,
               (pairedByInputRow<3>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_WIDE_ROW(wideByInputRow16, (wideByInputRow<0>(s, image, w, b, outputRow(s, out, row), row)))
ANNRT_WIDE_ROW(wideByInputRow16x3, (wideByInputRow<3>(s, image, w, b, outputRow(s, out, row), row)))
// For the transposed form `row` is an input row, making several output rows.
ANNRT_NATIVE_ROW(transposedRow8, (transposedRow<1, false>(s, image, w, b, out, row)))
ANNRT_NATIVE_ROW(transposedRow16, (transposedRow<2, false>(s, image, w, b, out, row)))
ANNRT_NATIVE_ROW(transposedFourRow8, (transposedRow<1, true>(s, image, w, b, out, row)))
ANNRT_NATIVE_ROW(transposedFourRow16, (transposedRow<2, true>(s, image, w, b, out, row)))
#undef ANNRT_NATIVE_ROW
#undef ANNRT_WIDE_ROW

struct Form {
  const RowVariants* rows = nullptr;  // null: no native kernel
  NativeForm form = NativeForm::DEPTHWISE_8;
  bool byOutput = false;    // the filter is repacked output channels last
  bool transposed = false;  // rows are input rows
};

class ConvolutionKernel final : public NativeKernel {
 public:
  // Reads `input`: the op's, or that of a PAD folded into it.
  ConvolutionKernel(const Operation& op, uint32_t input, const ConvShape& shape, const Form& form,
                    WeightBuffer weights, WeightBuffer bias)
      : NativeKernel({input}, op.outputs[0], form.form),
        shape_(shape),
        row_((*form.rows)[nativeCodeIsa()]),
        transposed_(form.transposed),
        weights_(std::move(weights)),
        bias_(std::move(bias)) {}

  bool writesRows() const override { return !transposed_ && shape_.batches == 1; }

  void runRows(const std::vector<const float*>& inputs, float* output, size_t /*rowPixels*/,
               uint32_t first, uint32_t count) const override {
    const ConvShape& s = shape_;
    const size_t rowFloats = size_t{s.outWidth} * s.outChannels;
    for (uint32_t row = first; row < first + count; ++row) {
      row_(s, inputs[0], weights_.data, bias_.data, output, row);
      finishPart(inputs, output, row * rowFloats, rowFloats);
    }
  }

  std::optional<RowReads> rowReads() const override {
    if (!writesRows()) return std::nullopt;
    const Window& w = shape_.window;
    return RowReads{shape_.inHeight, shape_.outHeight, w.strideHeight, w.padTop,
                    (w.filterHeight - 1) * w.dilationHeight + 1};
  }

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    const ConvShape& s = shape_;
    const size_t rowsPerBatch = transposed_ ? s.inHeight : s.outHeight;
    // What a task writes: an output row, or for the transposed form the
    // filterHeight output rows of an input row; task k's follow task k - 1's.
    const size_t taskFloats =
        size_t{transposed_ ? s.window.filterHeight : 1} * s.outWidth * s.outChannels;
    parallelizeTiles(pool, s.batches * rowsPerBatch, 1, [&](size_t first, size_t rows) {
      for (size_t task = first; task < first + rows; ++task) {
        const size_t batch = task / rowsPerBatch;
        const auto row = static_cast<uint32_t>(task % rowsPerBatch);
        const float* image = inputs[0] + batch * s.inHeight * s.inWidth * s.inChannels;
        float* out = output + batch * s.outHeight * s.outWidth * s.outChannels;
        row_(s, image, weights_.data, bias_.data, out, row);
        finishPart(inputs, output, task * taskFloats, taskFloats);
      }
    });
  }

 private:
  void narrow(const OutputRange& range) override { shape_.range = intersect(shape_.range, range); }
  bool finishesParts() const override { return true; }

  ConvShape shape_;
  RowFunction row_;
  bool transposed_;
  WeightBuffer weights_;
  WeightBuffer bias_;
};

// The output columns whose every column tap is inside the image: from the
// first whose tap 0 is past the left padding to the last whose last tap is
// before the right padding.
void interiorColumns(ConvShape& s) {
  const Window& w = s.window;
  const int64_t reach = int64_t{w.filterWidth - 1} * w.dilationWidth;
  const int64_t lastStart = int64_t{s.inWidth} - 1 - reach + w.padLeft;  // ox * stride <= this
  s.interiorBegin = (w.padLeft + w.strideWidth - 1) / w.strideWidth;
  s.interiorEnd =
      lastStart < 0
          ? 0
          : static_cast<uint32_t>(std::min<int64_t>(lastStart / w.strideWidth + 1, s.outWidth));
  s.interiorBegin = std::min(s.interiorBegin, s.interiorEnd);
}

// Bytes of input a block of `block` output pixels reads, all channels.
size_t depthwiseBlockBytes(const ConvShape& s, uint32_t block) {
  const Window& w = s.window;
  const size_t columns =
      size_t{block - 1} * w.strideWidth + size_t{w.filterWidth - 1} * w.dilationWidth + 1;
  return w.filterHeight * columns * s.inChannels * sizeof(float);
}

// Copies the values of a float32 constant (the model's bytes need not be
// aligned) to `out`.
void copyFloats(LoweringContext& context, uint32_t operand, float* out) {
  const size_t count = elementCount(context.operand(operand).shape);
  std::memcpy(out, context.tensorData(operand), count * sizeof(float));
}

// Buffer `slot` of the kernel of `op`: the constant `operand`, copied.
Result<WeightBuffer> constantWeights(LoweringContext& context, const Operation& op, uint32_t slot,
                                     uint32_t operand) {
  return context.packedWeights(op, slot, elementCount(context.operand(operand).shape),
                               [&](float* out) { copyFloats(context, operand, out); });
}

// NNAPI's [outChannels][kh][kw][inChannels] filter as [kh][kw][inChannels][outChannels].
void byOutputWeights(const std::vector<float>& filter, uint32_t outChannels, uint32_t taps,
                     uint32_t inChannels, float* packed) {
  for (uint32_t o = 0; o < outChannels; ++o) {
    for (uint32_t t = 0; t < taps; ++t) {
      for (uint32_t c = 0; c < inChannels; ++c) {
        packed[(t * inChannels + c) * outChannels + o] = filter[(o * taps + t) * inChannels + c];
      }
    }
  }
}

// The depthwise rows reusing input columns (depthwiseColumnsRow) for the
// window `w`, or null: square 3x3 and 5x5 filters of stride 1 or 2 and
// dilation 1 (a block's columns and sums fill 19-28 of AVX-512's 32
// registers).
const RowVariants* columnsDepthwiseRows(const Window& w) {
  const bool square = w.filterHeight == w.filterWidth && w.strideHeight == w.strideWidth;
  if (!square || w.dilationHeight != 1 || w.dilationWidth != 1) return nullptr;
  const bool three = w.filterWidth == 3, five = w.filterWidth == 5;
  if (!three && !five) return nullptr;
  const bool wide = nativeWideVectors();
  if (w.strideWidth == 1) {
    if (wide) return three ? &columnsDepthwiseRows3 : &columnsDepthwiseRows5;
    return three ? &narrowColumnsDepthwiseRows3 : &narrowColumnsDepthwiseRows5;
  }
  if (w.strideWidth == 2) {
    if (wide) return three ? &columnsDepthwiseRows3s2 : &columnsDepthwiseRows5s2;
    return three ? &narrowColumnsDepthwiseRows3s2 : &narrowColumnsDepthwiseRows5s2;
  }
  return nullptr;
}

// The depthwise form for `conv` (multiplier 1, 8 channels or more): the
// column form where the table uses it, else loading per tap. Channels that
// are not a multiple of 8 only in the column form (its last channel group
// overlaps the one before: depthwiseColumnsRow).
Form depthwiseForm(const ConvParams& conv) {
  const Window& w = conv.window;
  const RowVariants* columns = columnsDepthwiseRows(w);
  const bool columnsUsed =
      columns != nullptr && nativeFormUse(NativeForm::DEPTHWISE_COLUMNS) != NativeUse::NO;
  if (columnsUsed) return {columns, NativeForm::DEPTHWISE_COLUMNS};
  if (conv.inChannels % 8 != 0) return {};
  const NativeForm form =
      conv.inChannels == 8 ? NativeForm::DEPTHWISE_8 : NativeForm::DEPTHWISE_WIDE;
  const bool wide = nativeWideVectors();
  const bool square = w.filterHeight == w.filterWidth;
  if (square && w.filterWidth == 3) return {wide ? &wideDepthwiseRows3 : &depthwiseRows3, form};
  if (square && w.filterWidth == 5) return {wide ? &wideDepthwiseRows5 : &depthwiseRows5, form};
  return {wide ? &wideDepthwiseRowsAny : &depthwiseRowsAny, form};
}

// The stem rows for `conv`, or null: 3 channels in, 16, 24 or 32 out, a
// square 3x3 or 5x5 filter of dilation 1.
const RowVariants* stemRows(const ConvParams& conv) {
  const Window& w = conv.window;
  const bool square = w.filterHeight == w.filterWidth;
  if (conv.inChannels != kStemChannels || !square || w.dilationHeight != 1 ||
      w.dilationWidth != 1) {
    return nullptr;
  }
  // [wide][filter 3 or 5][16, 24 or 32 outputs]
  static constexpr const RowVariants* kRows[2][2][3] = {
      {{&stemRow3x16, &stemRow3x24, &stemRow3x32}, {&stemRow5x16, &stemRow5x24, &stemRow5x32}},
      {{&wideStemRow3x16, &wideStemRow3x24, &wideStemRow3x32},
       {&wideStemRow5x16, &wideStemRow5x24, &wideStemRow5x32}}};
  const uint32_t out = conv.outChannels;
  if ((w.filterWidth != 3 && w.filterWidth != 5) || out % 8 != 0 || out < 16 || out > 32) {
    return nullptr;
  }
  const bool wide = nativeWideVectors() && w.strideWidth == kWideStemStride;
  return kRows[wide ? 1 : 0][w.filterWidth == 5 ? 1 : 0][out / 8 - 2];
}

// The form for the op's channel counts.
Form formFor(const ConvParams& conv) {
  auto eightOrSixteen = [](uint32_t channels) { return channels == 8 || channels == 16; };
  if (conv.depthwise) {
    if (conv.depthMultiplier != 1 || conv.inChannels < 8) return {};
    return depthwiseForm(conv);
  }
  if (const RowVariants* stem = stemRows(conv);
      stem != nullptr && nativeFormUse(NativeForm::IMAGE_STEM) != NativeUse::NO) {
    return {stem, NativeForm::IMAGE_STEM, true};
  }
  if (eightOrSixteen(conv.outChannels) && conv.inChannels <= kNativeMaxChannels) {
    return {conv.outChannels == 8 ? &byOutputRow8 : &byOutputRow16, NativeForm::CONV_BY_OUTPUT,
            true};
  }
  if (eightOrSixteen(conv.inChannels) && conv.outChannels <= 8) {
    const Window& w = conv.window;
    const bool three = w.filterHeight == 3 && w.filterWidth == 3;
    if (conv.inChannels == 8 && w.strideWidth == 1 && nativeWideVectors()) {
      return {three ? &pairedByInputRow8x3 : &pairedByInputRow8, NativeForm::CONV_BY_INPUT};
    }
    if (conv.inChannels == 16 && nativeWideVectors()) {
      return {three ? &wideByInputRow16x3 : &wideByInputRow16, NativeForm::CONV_BY_INPUT};
    }
    if (three) {
      return {conv.inChannels == 8 ? &byInputRow8x3 : &byInputRow16x3, NativeForm::CONV_BY_INPUT};
    }
    return {conv.inChannels == 8 ? &byInputRow8 : &byInputRow16, NativeForm::CONV_BY_INPUT};
  }
  return {};
}

// Buffers of the kernel: 0 the filter (`filter`), 1 the bias.
Result<std::unique_ptr<NativeKernel>> makeKernel(LoweringContext& context, const Operation& op,
                                                 uint32_t input, const ConvShape& shape,
                                                 const Form& form, WeightBuffer filter) {
  ANNRT_ASSIGN_OR_RETURN(WeightBuffer bias, constantWeights(context, op, 1, op.inputs[kBias]));
  return std::unique_ptr<NativeKernel>(
      new ConvolutionKernel(op, input, shape, form, std::move(filter), std::move(bias)));
}

// Folds `pad`, a zero PAD of height and width only, into the convolution
// reading its output: the image is the PAD's input and the PAD's rows and
// columns add to the convolution's padding (which reads zeros the same way).
// Returns the operand the convolution then reads.
Result<uint32_t> foldPad(const LoweringContext& context, const Operation& pad,
                         const Operation& conv, ConvShape& shape) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> paddings,
                         foldablePaddings(context, pad, conv, kInput));
  ANNRT_CPU_REQUIRE(paddings[0] == 0 && paddings[1] == 0 && paddings[6] == 0 && paddings[7] == 0,
                    "a PAD {} folds only into height and width", toString(paddings));
  const Shape& input = context.input(pad, 0).shape;
  shape.inHeight = input.dims[1];
  shape.inWidth = input.dims[2];
  shape.window.padTop += paddings[2];
  shape.window.padBottom += paddings[3];
  shape.window.padLeft += paddings[4];
  shape.window.padRight += paddings[5];
  return pad.inputs[0];
}

Result<void> checkFloatInput(const LoweringContext& context, const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {kInput}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[kInput]), "the input is a constant");
  return {};
}

// Transposed convolutions of the transposed form only.
Result<std::unique_ptr<NativeKernel>> makeTransposed(LoweringContext& context,
                                                     const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(DeconvParams deconv, readTransposedConvolution(context, op));
  ANNRT_RETURN_IF_ERROR(checkFloatInput(context, op));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& filter = context.input(op, kFilter).shape;
  const Shape& output = context.output(op, 0).shape;
  const bool blocks = deconv.strideHeight == filter.dims[1] &&
                      deconv.strideWidth == filter.dims[2] &&
                      output.dims[1] == input.dims[1] * deconv.strideHeight &&
                      output.dims[2] == input.dims[2] * deconv.strideWidth;
  ANNRT_CPU_REQUIRE(blocks,
                    "native transposed convolutions need the filter {} as the stride and "
                    "no padding",
                    toString(filter.dims));
  const uint32_t inChannels = input.dims[3], outChannels = output.dims[3];
  ANNRT_CPU_REQUIRE((inChannels == 8 || inChannels == 16) && outChannels <= 8,
                    "no native kernel for {} input and {} output channels (transposed)", inChannels,
                    outChannels);
  Window window;
  window.filterHeight = window.strideHeight = deconv.strideHeight;
  window.filterWidth = window.strideWidth = deconv.strideWidth;
  const ConvShape shape{input.dims[0],  input.dims[1],  input.dims[2],
                        input.dims[3],  output.dims[1], output.dims[2],
                        output.dims[3], window,         deconv.range};
  const bool four = window.filterHeight * window.filterWidth * outChannels == 4;
  const RowVariants* rows = four ? (inChannels == 8 ? &transposedFourRow8 : &transposedFourRow16)
                                 : (inChannels == 8 ? &transposedRow8 : &transposedRow16);
  const Form form{rows, NativeForm::TRANSPOSED_BLOCKS, false, true};
  ANNRT_ASSIGN_OR_RETURN(WeightBuffer weights, constantWeights(context, op, 0, op.inputs[kFilter]));
  return makeKernel(context, op, op.inputs[kInput], shape, form, std::move(weights));
}

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeConvolution(LoweringContext& context,
                                                            const Operation& op,
                                                            const Operation* pad) {
  if (op.type == OperationType::TRANSPOSE_CONV_2D || isTransposeConvBias(context, op)) {
    ANNRT_CPU_REQUIRE(pad == nullptr, "no PAD folds into a transposed convolution");
    return makeTransposed(context, op);
  }
  ANNRT_CPU_REQUIRE(
      op.type == OperationType::CONV_2D || op.type == OperationType::DEPTHWISE_CONV_2D,
      "no native kernel for {}", operationTypeName(op.type));
  ANNRT_ASSIGN_OR_RETURN(ConvParams conv, readConvolution(context, op));
  ANNRT_RETURN_IF_ERROR(checkFloatInput(context, op));
  if (pad == nullptr) {
    // Only where it is faster: a slower one would also be pulled into
    // native runs between preferred operations (stage_plan.h), where
    // XNNPACK or the by-output form serves better.
    Result<std::unique_ptr<NativeKernel>> pointwise = makeNativePointwise(context, op, conv);
    if (pointwise.ok() && (*pointwise)->preferred()) return pointwise;
    Result<std::unique_ptr<NativeKernel>> whole = makeNativeWholeImageProduct(context, op, conv);
    if (whole.ok() && (*whole)->preferred()) return whole;
  }
  const Shape& input = context.input(op, kInput).shape;
  const Form form = formFor(conv);
  ANNRT_CPU_REQUIRE(form.rows != nullptr, "no native kernel for {} input and {} output channels{}",
                    conv.inChannels, conv.outChannels, conv.depthwise ? " (depthwise)" : "");
  const Shape& output = context.output(op, 0).shape;
  ConvShape shape{input.dims[0],  input.dims[1],  input.dims[2], input.dims[3], output.dims[1],
                  output.dims[2], output.dims[3], conv.window,   conv.range};
  uint32_t image = op.inputs[kInput];
  if (pad != nullptr) {
    ANNRT_ASSIGN_OR_RETURN(image, foldPad(context, *pad, op, shape));
  }
  interiorColumns(shape);
  const uint32_t block = nativeWideVectors() ? kWideBlock : kBlock;
  shape.channelsInner = conv.depthwise && depthwiseBlockBytes(shape, block) <= kL1Bytes;
  const uint32_t filterOperand = op.inputs[kFilter];
  const uint32_t taps = conv.window.filterHeight * conv.window.filterWidth;
  auto fill = [&](float* out) {
    if (!form.byOutput) return copyFloats(context, filterOperand, out);
    std::vector<float> filter(elementCount(context.operand(filterOperand).shape));
    copyFloats(context, filterOperand, filter.data());
    byOutputWeights(filter, conv.outChannels, taps, conv.inChannels, out);
  };
  ANNRT_ASSIGN_OR_RETURN(
      WeightBuffer filter,
      context.packedWeights(op, 0, elementCount(context.operand(filterOperand).shape), fill));
  return makeKernel(context, op, image, shape, form, std::move(filter));
}

}  // namespace annrt::cpu
