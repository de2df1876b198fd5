// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONV_2D with a 1x1 filter, stride 1 and no padding in float32: a matrix
// product of the image's pixels (rows of inChannels floats) by the filter,
// measured faster on AVX-512 and AVX2 (native_kernel_table.h). The filter is
// packed once into panels of 48, 32, 24, 16 or 8 output channels (the bias,
// then inChannels rows of the panel's weights); a tile of 8 or 12 pixels by
// one panel keeps its sums in up to 24 registers, each input float
// broadcast once per pixel and multiplied by the panel's vectors. Compared
// with XNNPACK's 7x16 GEMM:
// - output channels that are not a multiple of 16 end in a vector of 8
//   floats, which costs half one of 16 (24 channels: 16 + 8, not 32);
// - where the weights outgrow the L2 cache (hand_landmark_full's 7x7
//   layers, 0.9 MB), the panels go in groups of 256 KB, each group over
//   every pixel: read from memory once, where a pass over all the weights
//   per tile of pixels reads them from the L3 cache again for every tile
//   (the 1152 -> 192 layers 0.84-0.92x XNNPACK's time in the model; alone,
//   their weights staying in the L2 cache, a tie);
// - the pixels are shared out evenly between tiles (49 as 4 x 10 + 9, not
//   4 x 12 + 1).
#include <algorithm>
#include <cstring>
#include <iterator>

#include "drivers/cpu/convolution_params.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;
// The most pixels of one tile: AVX-512's layout (below) for products of
// kDeepRowsFrom input channels or more, for shallower ones, and AVX2's.
constexpr uint32_t kTileRows = 12;
constexpr uint32_t kShallowTileRows = 8;
constexpr uint32_t kDeepRowsFrom = 48;
constexpr int kNarrowTileRows = 12;
constexpr int kPanel16Rows = 6;  // AVX2's pixels at a time by a panel of 16

// Tiles and panels per instruction set, sized to the vector registers:
// AVX-512, 12 pixels by panels of up to 32 channels (24 sums of 16 floats,
// 2 weight vectors and a broadcast: 27 of 32 registers), 8 pixels by
// panels of up to 48 (24 sums, 3 weight vectors and a broadcast: 28) where
// the product has fewer than 48 input channels (there the stores and clamps
// after each tile's few multiply-adds weigh most, and 12 rows' addresses
// outgrew the general registers: 8 rows took 0.87-0.95x the time of 12 on
// every such shape of the bench, 12 were 1.02-1.05x faster on 24 outputs
// from 48-144 inputs, docs/native-kernels.md) or 33-48 output channels
// (one panel of 48 by 8 pixels, 0.92-0.98x the time of 12 by 32 and the
// rest on 48 -> 39, 64 -> 48, 240 -> 40); AVX2, 12 pixels by
// panels of up to 16, a panel of 16 six pixels at a time (12 sums of 8
// floats, 2 weight vectors and a broadcast: 15 of 16), one of 8 all twelve
// at once (12 sums, not 6 waiting on the multiply-adds' latency), as
// XNNPACK's AVX2 GEMM tiles are 6 by 16 and 10 by 8. AVX-512 runs products
// of up to 8 outputs as AVX2 does (12 pixels by a panel of 8; its 8-pixel
// tiles of one 8-float panel took 1.09-1.16x the time on an Intel Xeon,
// docs/native-kernels.md, session 33).
struct PointwiseLayout {
  uint32_t tileRows = kTileRows;
  uint32_t maxPanelWidth = 32;
  bool wide = true;  // in vectors of 16 floats (AVX-512 code), else of 8
};

PointwiseLayout layoutFor(NativeIsa isa, uint32_t inChannels, uint32_t outChannels) {
  if (isa == NativeIsa::AVX512 && outChannels > 8) {
    const bool onePanelOf48 = outChannels > 32 && outChannels <= 48;
    if (inChannels >= kDeepRowsFrom && !onePanelOf48) return {kTileRows, 32, true};
    return {kShallowTileRows, 48, true};
  }
  return {kNarrowTileRows, 16, false};
}
// The L2 cache the order of the loops is chosen for (1-2 MB on the x86
// cores with AVX-512; half of it, as the image and output share it).
constexpr size_t kL2Bytes = size_t{512} << 10;

struct Panel {
  uint32_t first = 0;  // its first output channel
  uint32_t width = 0;  // one of kPanelWidths
  uint32_t lanes = 0;  // output channels it holds (the last may hold fewer)
  size_t offset = 0;   // where it starts in the packed weights
};

// The output range in every lane of a vector of 16 floats, which each
// tile's clamps load as vectors. From the two floats GCC built every tile's
// clamp vectors out of four 8-byte stack stores read back as one vector, a
// store-forwarding stall per tile (docs/native-kernels.md, session 31).
struct RangeLanes {
  alignas(64) float min[16];
  alignas(64) float max[16];
  explicit RangeLanes(const OutputRange& range = {}) {
    std::fill(std::begin(min), std::end(min), range.min);
    std::fill(std::begin(max), std::end(max), range.max);
  }
};

struct PointwiseShape {
  RangeLanes rangeLanes;  // range's (PointwiseKernel::setRange); first, as it is 64-aligned
  size_t pixels = 0;
  uint32_t inChannels = 0, outChannels = 0;
  // The rows of a 1x1 convolution's one image (its pixels in rows), else 0.
  uint32_t imageRows = 0;
  OutputRange range;
  // The panels are one group, so a tile's panels are all written together
  // (a partial last one may spill: tile).
  bool spillLastPanel = false;
};

// The first `lanes` (1 to kLanes<Vec> - 1) floats of `y` at `at`, each
// count a copy of known size (inlined: a call to memcpy per row cost more
// than the row's sums on narrow layers).
template <class Vec, int N = kLanes<Vec> - 1>
[[gnu::always_inline]] inline void storeLanes(float* at, const Vec& y, int lanes) {
  if constexpr (N > 0) {
    if (lanes == N) {
      std::memcpy(at, &y, sizeof(float) * N);
    } else {
      storeLanes<Vec, N - 1>(at, y, lanes);
    }
  }
}

// Stores `y` clamped at `at`, or its first `lanes` floats where fewer.
template <class Vec>
[[gnu::always_inline]] inline void storeClamped(float* at, Vec y, int lanes, Vec lo, Vec hi) {
  y = clampVector(y, lo, hi);
  if (lanes >= kLanes<Vec>) {
    storeVector(at, y);
  } else if (lanes > 0) {
    storeLanes(at, y, lanes);
  }
}

// One pixel by one panel (a fully connected layer's single row): the sums
// of kSplits interleaved parts of the K steps, added at the end, so that a
// vector's multiply-adds do not each wait on the last one's latency (as
// one chain of K did: XNNPACK's 1 x 16 kernel too).
constexpr int kSplits = 4;

template <class Vec, int W>
[[gnu::always_inline]] inline void oneRowTile(const float* image, uint32_t K, const float* panel,
                                              float* out, int lanes, const RangeLanes& range) {
  constexpr int L = kLanes<Vec>;
  constexpr int V = W / L;            // vectors of L floats
  constexpr bool EIGHT = W % L == 8;  // and one of 8
  Vec wide[kSplits][std::max(V, 1)] = {};
  Float8 narrow[kSplits] = {};
  const float* weights = panel + W;
  uint32_t k = 0;
  for (; k + kSplits <= K; k += kSplits) {
#pragma GCC unroll 4
    for (int s = 0; s < kSplits; ++s) {
      const float x = image[k + s];
      const float* w = weights + size_t{W} * (k + s);
#pragma GCC unroll 3
      for (int v = 0; v < V; ++v) wide[s][v] += x * loadVector<Vec>(w + ptrdiff_t{L} * v);
      if constexpr (EIGHT) narrow[s] += x * loadVector<Float8>(w + ptrdiff_t{L} * V);
    }
  }
  for (; k < K; ++k) {
    const float x = image[k];
    const float* w = weights + size_t{W} * k;
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v) wide[0][v] += x * loadVector<Vec>(w + ptrdiff_t{L} * v);
    if constexpr (EIGHT) narrow[0] += x * loadVector<Float8>(w + ptrdiff_t{L} * V);
  }
  const Vec lo = loadVector<Vec>(range.min), hi = loadVector<Vec>(range.max);
  const Float8 lo8 = loadVector<Float8>(range.min), hi8 = loadVector<Float8>(range.max);
#pragma GCC unroll 3
  for (int v = 0; v < V; ++v) {
    Vec sum = loadVector<Vec>(panel + ptrdiff_t{L} * v);
    for (int s = 0; s < kSplits; ++s) sum += wide[s][v];
    storeClamped(out + ptrdiff_t{L} * v, sum, lanes - L * v, lo, hi);
  }
  if constexpr (EIGHT) {
    Float8 sum = loadVector<Float8>(panel + ptrdiff_t{L} * V);
    for (const Float8& part : narrow) sum += part;
    storeClamped(out + ptrdiff_t{L} * V, sum, lanes - L * V, lo8, hi8);
  }
}

// Step k of a tile (below): input channel k of its R pixels times row k of
// the panel's weights, into its sums.
template <class Vec, int R, int W, int V, bool EIGHT>
[[gnu::always_inline]] inline void tileStep(const float* image, uint32_t K, uint32_t k,
                                            const float* weights, Vec (&wide)[R][std::max(V, 1)],
                                            Float8 (&narrow)[R]) {
  constexpr int L = kLanes<Vec>;
  Vec w[std::max(V, 1)];
#pragma GCC unroll 3
  for (int v = 0; v < V; ++v) w[v] = loadVector<Vec>(weights + ptrdiff_t{L} * v);
  Float8 w8{};
  if constexpr (EIGHT) w8 = loadVector<Float8>(weights + ptrdiff_t{L} * V);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    // A scalar times a vector: GCC broadcasts it once (splatVector's
    // initializer became 16 masked broadcasts in this loop's AVX-512
    // clone, 10x slower).
    const float x = image[size_t{K} * r + k];
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v) wide[r][v] += x * w[v];
    if constexpr (EIGHT) narrow[r] += x * w8;
  }
}

// R pixels (rows of K floats from `image`) by one panel W floats wide, its
// first `lanes` stored from `out` (rows of `stride` floats): W / L vectors
// of Vec (L floats: 16 on AVX-512, 8 on AVX2, where vectors of 16 are
// register pairs the compiler spilled, 2-5x slower than XNNPACK), then one
// of 8 where W % L is 8, all from the same broadcast input floats (a 24-float
// panel in one pass, not 16 then 8). KC, where not 0, is K known when
// compiling: its steps unrolled whole (panelTile).
template <class Vec, int R, int W, uint32_t KC = 0>
[[gnu::always_inline]] inline void tile(const float* image, uint32_t K, const float* panel,
                                        float* out, size_t stride, int lanes,
                                        const RangeLanes& range, bool spill) {
  constexpr int L = kLanes<Vec>;
  constexpr int V = W / L;            // vectors of L floats
  constexpr bool EIGHT = W % L == 8;  // and one of 8
  Vec wide[R][std::max(V, 1)];
  Float8 narrow[R];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v) wide[r][v] = loadVector<Vec>(panel + ptrdiff_t{L} * v);
    if constexpr (EIGHT) narrow[r] = loadVector<Float8>(panel + ptrdiff_t{L} * V);
  }
  const float* weights = panel + W;
  if constexpr (KC != 0) {
#pragma GCC unroll 32
    for (uint32_t k = 0; k < KC; ++k) {
      tileStep<Vec, R, W, V, EIGHT>(image, KC, k, weights + size_t{W} * k, wide, narrow);
    }
  } else {
    for (uint32_t k = 0; k < K; ++k, weights += W) {
      tileStep<Vec, R, W, V, EIGHT>(image, K, k, weights, wide, narrow);
    }
  }
  const Vec lo = loadVector<Vec>(range.min), hi = loadVector<Vec>(range.max);
  const Float8 lo8 = loadVector<Float8>(range.min), hi8 = loadVector<Float8>(range.max);
  // Whole panels of 16 or more, the usual case, apart: the partial stores
  // below take their vectors' addresses, and with them in the same loop the
  // compiler put every sum on the stack before storing it (measured in
  // docs/native-kernels.md; panels of 8 gained nothing apart).
  if (W >= 16 && lanes >= W) {
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      float* row = out + stride * r;
#pragma GCC unroll 3
      for (int v = 0; v < V; ++v)
        storeVector(row + ptrdiff_t{L} * v, clampVector(wide[r][v], lo, hi));
      if constexpr (EIGHT) storeVector(row + ptrdiff_t{L} * V, clampVector(narrow[r], lo8, hi8));
    }
    return;
  }
  // A partial panel whose next pixel's channels are written after it
  // (spill): every row but the last stores whole vectors, the lanes past
  // the panel's end landing on the next pixel, which overwrites them; only
  // the last row stores part of a vector (XNNPACK's masked stores; here
  // the partial stores of every row took 24 -> 28 channels to twice
  // XNNPACK's time).
  if (spill) {
#pragma GCC unroll 12
    for (int r = 0; r + 1 < R; ++r) {
      float* row = out + stride * r;
#pragma GCC unroll 3
      for (int v = 0; v < V; ++v)
        storeVector(row + ptrdiff_t{L} * v, clampVector(wide[r][v], lo, hi));
      if constexpr (EIGHT) storeVector(row + ptrdiff_t{L} * V, clampVector(narrow[r], lo8, hi8));
    }
  }
#pragma GCC unroll 12
  for (int r = spill ? R - 1 : 0; r < R; ++r) {
    float* row = out + stride * r;
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v)
      storeClamped(row + ptrdiff_t{L} * v, wide[r][v], lanes - L * v, lo, hi);
    if constexpr (EIGHT) storeClamped(row + ptrdiff_t{L} * V, narrow[r], lanes - L * V, lo8, hi8);
  }
}

// R pixels by one panel of at most 16 floats (layoutFor) in vectors of 8,
// from `panel` to `at`; KC as tile's.
template <int R, uint32_t KC>
[[gnu::always_inline]] inline void narrowPanelTile(const PointwiseShape& s, const float* image,
                                                   const float* panel, const Panel& p, float* at,
                                                   bool spill) {
  const uint32_t K = KC != 0 ? KC : s.inChannels;
  const auto lanes = static_cast<int>(p.lanes);
  if (p.width == 16) {
    // 6 pixels at a time: 12 sums, 2 weight vectors and a broadcast.
    constexpr int kHead = R < kPanel16Rows ? R : kPanel16Rows;
    tile<Float8, kHead, 16, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes, spill);
    if constexpr (R > kPanel16Rows) {
      tile<Float8, R - kPanel16Rows, 16, KC>(image + size_t{K} * kPanel16Rows, K, panel,
                                             at + size_t{s.outChannels} * kPanel16Rows,
                                             s.outChannels, lanes, s.rangeLanes, spill);
    }
  } else {
    tile<Float8, R, 8, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes, spill);
  }
}

// R pixels by one panel of up to 32 floats in vectors of 16, from `panel`
// to `at`; KC as tile's.
template <int R, uint32_t KC>
[[gnu::always_inline]] inline void widePanelTile(const PointwiseShape& s, const float* image,
                                                 const float* panel, const Panel& p, float* at,
                                                 bool spill) {
  const uint32_t K = KC != 0 ? KC : s.inChannels;
  const auto lanes = static_cast<int>(p.lanes);
  switch (p.width) {
    case 48:
      return tile<Float16, R, 48, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes,
                                      spill);
    case 32:
      return tile<Float16, R, 32, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes,
                                      spill);
    case 24:
      return tile<Float16, R, 24, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes,
                                      spill);
    case 16:
      return tile<Float16, R, 16, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes,
                                      spill);
    default:
      return tile<Float16, R, 8, KC>(image, K, panel, at, s.outChannels, lanes, s.rangeLanes,
                                     spill);
  }
}

// R pixels by one panel: in vectors of 8 floats (NARROW) or of 16. Whole
// tiles of 8, 16 or 24 input channels, as the models' shallow products have,
// run with K a constant, their steps unrolled whole: 0.84-0.92x the time of
// a loop of K steps on AVX2 (docs/native-kernels.md, session 32), 0.86-0.96x
// on AVX-512 (Intel Xeon, session 33; 12 and 32 gained nothing).
template <int R, bool NARROW>
[[gnu::always_inline]] inline void panelTile(const PointwiseShape& s, const float* image,
                                             const float* packed, const Panel& p, float* out,
                                             bool spill = false) {
  const float* panel = packed + p.offset;
  float* at = out + p.first;
  if constexpr (NARROW) {
    // Whole tiles of the shallow products the models have, K a constant.
    if constexpr (R == kNarrowTileRows) {
      switch (s.inChannels) {
        case 8: return narrowPanelTile<R, 8>(s, image, panel, p, at, spill);
        case 16: return narrowPanelTile<R, 16>(s, image, panel, p, at, spill);
        case 24: return narrowPanelTile<R, 24>(s, image, panel, p, at, spill);
        default: break;
      }
    }
    narrowPanelTile<R, 0>(s, image, panel, p, at, spill);
  } else {
    if constexpr (R == kShallowTileRows) {
      switch (s.inChannels) {
        case 8: return widePanelTile<R, 8>(s, image, panel, p, at, spill);
        case 16: return widePanelTile<R, 16>(s, image, panel, p, at, spill);
        case 24: return widePanelTile<R, 24>(s, image, panel, p, at, spill);
        default: break;
      }
    }
    widePanelTile<R, 0>(s, image, panel, p, at, spill);
  }
}

// R pixels from pixel m by panels [first, first + count).
template <int R, bool NARROW>
[[gnu::always_inline]] inline void rowTile(const PointwiseShape& s, const float* image,
                                           const float* packed, const Panel* panels, size_t count,
                                           float* out, size_t m) {
  const float* pixels = image + m * s.inChannels;
  float* outPixels = out + m * s.outChannels;
  // A partial last panel first, spilling onto the next pixel's first
  // channels, which the other panels (or its own next row) then write.
  const Panel& last = panels[count - 1];
  const bool spill = s.spillLastPanel && last.lanes < last.width &&
                     last.width - last.lanes <= std::max(last.first, last.lanes);
  if (spill) panelTile<R, NARROW>(s, pixels, packed, last, outPixels, true);
  for (size_t p = 0; p < count - (spill ? 1 : 0); ++p) {
    panelTile<R, NARROW>(s, pixels, packed, panels[p], outPixels);
  }
}

// `rows` (1 to R) pixels from pixel m, in one tile of that many.
template <int R, bool NARROW>
[[gnu::always_inline]] inline void anyTile(const PointwiseShape& s, const float* image,
                                           const float* packed, const Panel* panels, size_t count,
                                           float* out, size_t m, size_t rows) {
  if constexpr (R > 0) {
    if (rows == R) {
      rowTile<R, NARROW>(s, image, packed, panels, count, out, m);
    } else {
      anyTile<R - 1, NARROW>(s, image, packed, panels, count, out, m, rows);
    }
  }
}

// Where tile t of `tiles` starts: the pixels are shared out evenly, so that
// every tile has nearly its full rows (49 pixels as 10, 10, 10, 10, 9: a
// last tile of 1 waited on its multiply-adds' latency, and cost 8% more),
// the first pixels % tiles tiles one row more. No division per tile: on
// layers of few input channels a tile is only some hundred cycles.
struct TileRows {
  size_t rows, longer;  // pixels / tiles, pixels % tiles
  TileRows(size_t pixels, size_t tiles) : rows(pixels / tiles), longer(pixels % tiles) {}
  size_t start(size_t t) const { return t * rows + std::min(t, longer); }
  size_t count(size_t t) const { return rows + (t < longer ? 1 : 0); }
};

// Row tiles [first, first + count) of `tiles` (of up to R pixels) by panels
// [panels, panels + panelCount), each tile across the panels while its
// pixels are in the L1 cache.
template <int R, bool NARROW>
[[gnu::always_inline]] inline void tilesOf(const PointwiseShape& s, const float* image,
                                           const float* packed, const Panel* panels,
                                           size_t panelCount, float* out, size_t tiles,
                                           size_t first, size_t count) {
  const TileRows share(s.pixels, tiles);
  for (size_t t = first; t < first + count; ++t) {
    const size_t m = share.start(t);
    const size_t rows = share.count(t);
    if (rows == R) {
      rowTile<R, NARROW>(s, image, packed, panels, panelCount, out, m);
    } else {
      anyTile<R, NARROW>(s, image, packed, panels, panelCount, out, m, rows);
    }
  }
}

// The product of a single pixel (a fully connected layer's one row) by
// panels [panels, panels + panelCount), one row tile in vectors of 8 floats
// (NARROW) or of 16. Functions of their own: in the tile functions' code the
// one-row tiles' extra sums made GCC allocate the other tiles' registers
// worse (8 -> 32 channels on 96x96 took 1.18x the time).
template <bool NARROW>
[[gnu::always_inline]] inline void oneRowPanels(const PointwiseShape& s, const float* image,
                                                const float* packed, const Panel* panels,
                                                size_t panelCount, float* out) {
  const uint32_t K = s.inChannels;
  for (size_t i = 0; i < panelCount; ++i) {
    const Panel& p = panels[i];
    const float* panel = packed + p.offset;
    float* at = out + p.first;
    const auto lanes = static_cast<int>(p.lanes);
    if constexpr (NARROW) {  // panels of at most 16 floats (layoutFor)
      if (p.width == 16) {
        oneRowTile<Float8, 16>(image, K, panel, at, lanes, s.rangeLanes);
      } else {
        oneRowTile<Float8, 8>(image, K, panel, at, lanes, s.rangeLanes);
      }
    } else {
      switch (p.width) {
        case 48: oneRowTile<Float16, 48>(image, K, panel, at, lanes, s.rangeLanes); break;
        case 32: oneRowTile<Float16, 32>(image, K, panel, at, lanes, s.rangeLanes); break;
        case 24: oneRowTile<Float16, 24>(image, K, panel, at, lanes, s.rangeLanes); break;
        case 16: oneRowTile<Float16, 16>(image, K, panel, at, lanes, s.rangeLanes); break;
        default: oneRowTile<Float16, 8>(image, K, panel, at, lanes, s.rangeLanes); break;
      }
    }
  }
}

using TilesFunction = void (*)(const PointwiseShape&, const float*, const float*, const Panel*,
                               size_t, float*, size_t, size_t, size_t);

// One pixel's tile (s.pixels == 1: `tiles` 1), in the code of every
// instruction set, and in vectors of 16 floats in AVX-512's.
ANNRT_NATIVE_VARIANTS(pointwiseNarrowOneRow,
                      (const PointwiseShape& s, const float* image, const float* packed,
                       const Panel* panels, size_t panelCount, float* out, size_t /*tiles*/,
                       size_t /*first*/, size_t /*count*/),
                      { oneRowPanels<true>(s, image, packed, panels, panelCount, out); })

#if ANNRT_NATIVE_VARIANTS_BUILT
[[gnu::flatten]] __attribute__((target("arch=x86-64-v4"))) void pointwiseWideOneRow(
    const PointwiseShape& s, const float* image, const float* packed, const Panel* panels,
    size_t panelCount, float* out, size_t /*tiles*/, size_t /*first*/, size_t /*count*/) {
  oneRowPanels<false>(s, image, packed, panels, panelCount, out);
}
#endif

// The narrow tiles, in the code of every instruction set (AVX2's, and what
// the tests run elsewhere).
ANNRT_NATIVE_VARIANTS(pointwiseNarrowTiles,
                      (const PointwiseShape& s, const float* image, const float* packed,
                       const Panel* panels, size_t panelCount, float* out, size_t tiles,
                       size_t first, size_t count),
                      {
                        tilesOf<kNarrowTileRows, true>(s, image, packed, panels, panelCount, out,
                                                       tiles, first, count);
                      })

// The wide tiles, in AVX-512 code only: elsewhere vectors of 16 floats are
// register pairs, and the compiler spilled them.
#if ANNRT_NATIVE_VARIANTS_BUILT
[[gnu::flatten]] __attribute__((target("arch=x86-64-v4"))) void pointwiseWideTiles(
    const PointwiseShape& s, const float* image, const float* packed, const Panel* panels,
    size_t panelCount, float* out, size_t tiles, size_t first, size_t count) {
  tilesOf<kTileRows, false>(s, image, packed, panels, panelCount, out, tiles, first, count);
}

[[gnu::flatten]] __attribute__((target("arch=x86-64-v4"))) void pointwiseShallowWideTiles(
    const PointwiseShape& s, const float* image, const float* packed, const Panel* panels,
    size_t panelCount, float* out, size_t tiles, size_t first, size_t count) {
  tilesOf<kShallowTileRows, false>(s, image, packed, panels, panelCount, out, tiles, first, count);
}
#endif

TilesFunction tilesFunction(NativeIsa isa, const PointwiseLayout& layout, size_t pixels) {
#if ANNRT_NATIVE_VARIANTS_BUILT
  if (layout.wide) {
    if (pixels == 1) return pointwiseWideOneRow;
    return layout.tileRows == kShallowTileRows ? pointwiseShallowWideTiles : pointwiseWideTiles;
  }
#endif
  return pixels == 1 ? pointwiseNarrowOneRow[isa] : pointwiseNarrowTiles[isa];
}

// Groups of consecutive panels whose weights fit the L2 cache together.
struct PanelGroup {
  size_t first = 0, count = 0;
};

class PointwiseKernel final : public NativeKernel {
 public:
  PointwiseKernel(const Operation& op, NativeForm form, const PointwiseShape& shape,
                  PointwiseLayout layout, std::vector<Panel> panels, std::vector<PanelGroup> groups,
                  WeightBuffer packed)
      : NativeKernel({op.inputs[kInput]}, op.outputs[0], form),
        tiles_(tilesFunction(nativeCodeIsa(), layout, shape.pixels)),
        layout_(layout),
        shape_(shape),
        panels_(std::move(panels)),
        groups_(std::move(groups)),
        packed_(std::move(packed)) {
    setRange(shape_.range);
    shape_.spillLastPanel = groups_.size() == 1;
  }

  // Group by group (each group's weights read from memory once, then from
  // the L2 cache), tile of pixels by tile of pixels within a group.
  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    const PointwiseShape& s = shape_;
    const size_t rows = layout_.tileRows;
    const size_t tiles = (s.pixels + rows - 1) / rows;
    // Tasks of at least ~64 K multiply-adds, so that handing one out costs
    // little beside it.
    const size_t tileWork = rows * s.inChannels * s.outChannels / groups_.size();
    const size_t perTask = std::max<size_t>(1, (size_t{1} << 16) / std::max<size_t>(tileWork, 1));
    parallelizeTiles(pool, tiles * groups_.size(), perTask, [&](size_t first, size_t count) {
      for (size_t task = first; task < first + count;) {
        const size_t g = task / tiles, t = task % tiles;
        const size_t run = std::min(first + count - task, tiles - t);  // within group g
        const PanelGroup& group = groups_[g];
        tiles_(s, inputs[0], packed_.data, panels_.data() + group.first, group.count, output, tiles,
               t, run);
        finishTiles(inputs, group, output, tiles, t, run);
        task += run;
      }
    });
  }

  bool writesRows() const override { return shape_.pixels > 1; }

  // A 1x1 convolution's output row reads the same row of its input.
  std::optional<RowReads> rowReads() const override {
    if (shape_.imageRows == 0 || shape_.pixels <= 1) return std::nullopt;
    return RowReads{shape_.imageRows, shape_.imageRows, 1, 0, 1};
  }

  // Pixels [first * rowPixels, (first + count) * rowPixels) as an image of
  // their own, group by group.
  void runRows(const std::vector<const float*>& inputs, float* output, size_t rowPixels,
               uint32_t first, uint32_t count) const override {
    PointwiseShape part = shape_;
    const size_t begin = first * rowPixels;
    part.pixels = count * rowPixels;
    const size_t tiles = (part.pixels + layout_.tileRows - 1) / layout_.tileRows;
    const float* image = inputs[0] + begin * part.inChannels;
    float* out = output + begin * part.outChannels;
    for (const PanelGroup& group : groups_) {
      tiles_(part, image, packed_.data, panels_.data() + group.first, group.count, out, tiles, 0,
             tiles);
      finishPixels(inputs, group, output, begin, begin + part.pixels);
    }
  }

 private:
  void narrow(const OutputRange& range) override { setRange(intersect(shape_.range, range)); }
  void setRange(const OutputRange& range) {
    shape_.range = range;
    shape_.rangeLanes = RangeLanes(range);
  }
  bool finishesParts() const override { return true; }

  // What folds after the kernel over what tiles [first, first + count) of
  // `tiles` wrote for `group`: their pixels' channels of the group's panels.
  void finishTiles(const std::vector<const float*>& inputs, const PanelGroup& group, float* output,
                   size_t tiles, size_t first, size_t count) const {
    const TileRows share(shape_.pixels, tiles);
    finishPixels(inputs, group, output, share.start(first),
                 share.start(first + count - 1) + share.count(first + count - 1));
  }

  // What folds after the kernel over pixels [begin, end)'s channels of
  // `group`.
  void finishPixels(const std::vector<const float*>& inputs, const PanelGroup& group, float* output,
                    size_t begin, size_t end) const {
    const PointwiseShape& s = shape_;
    const Panel& low = panels_[group.first];
    const Panel& high = panels_[group.first + group.count - 1];
    const size_t channels = size_t{high.first} + high.lanes - low.first;
    if (channels == s.outChannels) {
      finishPart(inputs, output, begin * s.outChannels, (end - begin) * s.outChannels);
      return;
    }
    for (size_t pixel = begin; pixel < end; ++pixel) {
      finishPart(inputs, output, pixel * s.outChannels + low.first, channels);
    }
  }

  TilesFunction tiles_;
  PointwiseLayout layout_;
  PointwiseShape shape_;
  std::vector<Panel> panels_;
  std::vector<PanelGroup> groups_;
  WeightBuffer packed_;
};

// The panel widths, narrowest first.
constexpr uint32_t kPanelWidths[] = {8, 16, 24, 32, 48};

// Panels of `maxWidth` (48, 32 or 16) channels, then the narrowest that
// holds what is left (a last one of fewer channels is padded with zeros):
// 25-31 left make a panel of 32, two vectors of 16 per pixel, where 24 and
// 8 took three and twice the broadcasts (24 -> 28 channels ran at twice
// XNNPACK's time), and 33-47 one of 48 for the same reason (32 -> 36 at
// 1.1x XNNPACK's time as 32 and 8).
std::vector<Panel> panelsFor(uint32_t outChannels, uint32_t inChannels, uint32_t maxWidth) {
  std::vector<Panel> panels;
  size_t offset = 0;
  uint32_t first = 0;
  while (first < outChannels) {
    const uint32_t left = outChannels - first;
    uint32_t width = std::min(maxWidth, 32u);
    for (const uint32_t w : kPanelWidths) {
      if (w <= maxWidth && w >= left) {
        width = w;
        break;
      }
    }
    panels.push_back({first, width, std::min(width, left), offset});
    offset += size_t{width} * (inChannels + 1);
    first += width;
  }
  return panels;
}

// Floats of the panels of `inChannels` weights and a bias each.
size_t panelFloats(const std::vector<Panel>& panels, uint32_t inChannels) {
  const Panel& last = panels.back();
  return last.offset + size_t{last.width} * (inChannels + 1);
}

// NNAPI's [outChannels][1][1][inChannels] filter and the bias, as the
// model holds them (their bytes need not be aligned), as panels into
// `packed` (zeroed, panelFloats long).
void packPanels(const std::vector<Panel>& panels, const uint8_t* filter, const uint8_t* bias,
                uint32_t inChannels, float* packed) {
  auto at = [](const uint8_t* floats, size_t i) {
    float value;
    std::memcpy(&value, floats + i * sizeof(float), sizeof(float));
    return value;
  };
  for (const Panel& p : panels) {
    float* panel = packed + p.offset;
    for (uint32_t j = 0; j < p.lanes; ++j) {
      const uint32_t o = p.first + j;
      panel[j] = at(bias, o);
      for (uint32_t k = 0; k < inChannels; ++k) {
        panel[size_t{p.width} * (k + 1) + j] = at(filter, size_t{o} * inChannels + k);
      }
    }
  }
}

// Whether the weights outgrow the L2 cache while the image's pixels need
// more than one tile: then they go in groups that fit it.
bool panelsOuter(const PointwiseShape& s, const PointwiseLayout& layout) {
  const size_t weightBytes = size_t{s.inChannels} * s.outChannels * sizeof(float);
  return weightBytes > kL2Bytes && s.pixels > layout.tileRows;
}

// Consecutive panels up to kL2Bytes / 2 of weights each (at least one), or
// one group of all where the weights fit the L2 cache anyway.
std::vector<PanelGroup> groupPanels(const PointwiseShape& s, const PointwiseLayout& layout,
                                    const std::vector<Panel>& panels) {
  if (!panelsOuter(s, layout)) return {{0, panels.size()}};
  std::vector<PanelGroup> groups;
  size_t bytes = 0;
  for (size_t p = 0; p < panels.size(); ++p) {
    const size_t panelBytes = size_t{panels[p].width} * (s.inChannels + 1) * sizeof(float);
    if (groups.empty() || bytes + panelBytes > kL2Bytes / 2) {
      groups.push_back({p, 0});
      bytes = 0;
    }
    ++groups.back().count;
    bytes += panelBytes;
  }
  return groups;
}

// The kernel of `op`, a product of `shape` whose filter is input 1 ([out][in])
// and bias input 2, packed into panels.
Result<std::unique_ptr<NativeKernel>> makeProduct(LoweringContext& context, const Operation& op,
                                                  NativeForm form, const PointwiseShape& shape,
                                                  const PointwiseLayout& layout) {
  std::vector<Panel> panels = panelsFor(shape.outChannels, shape.inChannels, layout.maxPanelWidth);
  ANNRT_ASSIGN_OR_RETURN(
      WeightBuffer packed,
      context.packedWeights(op, 0, panelFloats(panels, shape.inChannels), [&](float* out) {
        packPanels(panels, context.tensorData(op.inputs[kFilter]),
                   context.tensorData(op.inputs[kBias]), shape.inChannels, out);
      }));
  std::vector<PanelGroup> groups = groupPanels(shape, layout, panels);
  return std::unique_ptr<NativeKernel>(new PointwiseKernel(
      op, form, shape, layout, std::move(panels), std::move(groups), std::move(packed)));
}

// What every product asks first: that its form is used on this ISA and that
// its input is float32 computed at run time.
Result<void> checkProductUse(const LoweringContext& context, const Operation& op, NativeForm form) {
  ANNRT_CPU_REQUIRE(nativeFormUse(form) != NativeUse::NO, "native {} is not used on {}",
                    nativeFormName(form), nativeIsaName(nativeDecisionIsa()));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {kInput}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[kInput]), "the input is a constant");
  return {};
}

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativePointwise(LoweringContext& context,
                                                          const Operation& op,
                                                          const ConvParams& conv) {
  const Window& w = conv.window;
  ANNRT_RETURN_IF_ERROR(checkProductUse(context, op, NativeForm::POINTWISE_GEMM));
  ANNRT_CPU_REQUIRE(!conv.depthwise && conv.groups == 1 && w.filterHeight == 1 &&
                        w.filterWidth == 1 && w.strideHeight == 1 && w.strideWidth == 1 &&
                        w.padTop + w.padBottom + w.padLeft + w.padRight == 0,
                    "not a 1x1 convolution of stride 1 without padding");
  const Shape& input = context.input(op, kInput).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(input.dims[1] == output.dims[1] && input.dims[2] == output.dims[2],
                    "a pointwise convolution from {} to {}", toString(input.dims),
                    toString(output.dims));
  PointwiseShape shape;
  shape.pixels = size_t{input.dims[0]} * input.dims[1] * input.dims[2];
  shape.imageRows = input.dims[0] == 1 ? input.dims[1] : 0;
  shape.inChannels = conv.inChannels;
  shape.outChannels = conv.outChannels;
  shape.range = conv.range;
  // Decided before the weights are packed: planning asks every 1x1
  // convolution, and copies made only to be dropped raised the process's
  // footprint (glibc keeps freed heap).
  const PointwiseLayout layout = layoutFor(nativeCodeIsa(), conv.inChannels, conv.outChannels);
  return makeProduct(context, op, NativeForm::POINTWISE_GEMM, shape, layout);
}

Result<std::unique_ptr<NativeKernel>> makeNativeWholeImageProduct(LoweringContext& context,
                                                                  const Operation& op,
                                                                  const ConvParams& conv) {
  const Window& w = conv.window;
  const Shape& input = context.input(op, kInput).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_RETURN_IF_ERROR(checkProductUse(context, op, NativeForm::FULLY_CONNECTED));
  ANNRT_CPU_REQUIRE(!conv.depthwise && conv.groups == 1 && w.filterHeight == input.dims[1] &&
                        w.filterWidth == input.dims[2] && w.dilationHeight == 1 &&
                        w.dilationWidth == 1 &&
                        w.padTop + w.padBottom + w.padLeft + w.padRight == 0 &&
                        output.dims[1] == 1 && output.dims[2] == 1,
                    "not a convolution of its whole unpadded input to one pixel");
  // The [out][h][w][in] filter is the product's [out][h * w * in] weights.
  PointwiseShape shape;
  shape.pixels = input.dims[0];
  shape.inChannels = input.dims[1] * input.dims[2] * conv.inChannels;
  shape.outChannels = conv.outChannels;
  shape.range = conv.range;
  return makeProduct(context, op, NativeForm::FULLY_CONNECTED, shape,
                     layoutFor(nativeCodeIsa(), shape.inChannels, shape.outChannels));
}

Result<std::unique_ptr<NativeKernel>> makeNativeFullyConnected(LoweringContext& context,
                                                               const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 4 && op.outputs.size() == 1,
                    "FULLY_CONNECTED needs 4 inputs and 1 output");
  ANNRT_RETURN_IF_ERROR(checkProductUse(context, op, NativeForm::FULLY_CONNECTED));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, kFilter));
  ANNRT_RETURN_IF_ERROR(context.checkConstant(op, kBias));
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, 3));
  const Shape& input = context.input(op, kInput).shape;
  const Shape& weights = context.input(op, kFilter).shape;
  const Shape& bias = context.input(op, kBias).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(
      weights.type == OperandType::TENSOR_FLOAT32 && bias.type == OperandType::TENSOR_FLOAT32,
      "float32 input needs float32 weights and bias");
  ANNRT_CPU_REQUIRE(rank(weights) == 2 && rank(bias) == 1 && rank(output) == 2,
                    "weights, bias and output must have ranks 2, 1 and 2");
  const uint32_t units = weights.dims[0], inputSize = weights.dims[1];
  ANNRT_CPU_REQUIRE(
      units > 0 && inputSize > 0 && output.dims[0] > 0 && bias.dims[0] == units &&
          output.dims[1] == units && elementCount(input) == size_t{output.dims[0]} * inputSize,
      "shapes input {} weights {} bias {} output {} do not match", toString(input.dims),
      toString(weights.dims), toString(bias.dims), toString(output.dims));
  // Rows of the flattened input are the product's pixels.
  PointwiseShape shape;
  shape.pixels = output.dims[0];
  shape.inChannels = inputSize;
  shape.outChannels = units;
  shape.range = range;
  return makeProduct(context, op, NativeForm::FULLY_CONNECTED, shape,
                     layoutFor(nativeCodeIsa(), inputSize, units));
}

}  // namespace annrt::cpu
