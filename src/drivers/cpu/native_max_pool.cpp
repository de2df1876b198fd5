// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// MAX_POOL_2D in float32, NHWC: each output pixel the maximum of its
// window's taps inside the image, 8 channels a vector, the image read in
// place. The maximum starts from the lowest float and keeps the running one
// where a tap is not greater (a NaN tap is skipped), as the reference does.
// A channel count that is not a multiple of 8 ends with a vector overlapping
// the one before (8 channels or more): the overlapped channels get the same
// maximum twice (face detection pools 28 and 42 channels).
#include <algorithm>
#include <limits>

#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

// What one output row needs besides its pointers.
struct PoolGeometry {
  uint32_t inHeight = 0, inWidth = 0, outWidth = 0, channels = 0;
  Window window;
};

// The taps [begin, end) of a window starting at `first` that fall inside
// [0, size).
struct TapRange {
  uint32_t begin = 0, end = 0;
};

[[gnu::always_inline]] inline TapRange tapsInside(int64_t first, uint32_t taps, uint32_t size) {
  const int64_t begin = std::max<int64_t>(0, -first);
  const int64_t end = std::min<int64_t>(taps, int64_t{size} - first);
  return {static_cast<uint32_t>(begin), static_cast<uint32_t>(std::max(begin, end))};
}

// Output row `oy` of one image.
ANNRT_NATIVE_VARIANTS(maxPoolRow,
                      (const float* image, float* out, const PoolGeometry& g, uint32_t oy,
                       float min, float max),
                      {
                        const Window& w = g.window;
                        const uint32_t c = g.channels;
                        const int64_t iy = int64_t{oy} * w.strideHeight - w.padTop;
                        const TapRange rows = tapsInside(iy, w.filterHeight, g.inHeight);
                        const Float8 lo = splat8(min), hi = splat8(max);
                        const Float8 lowest = splat8(std::numeric_limits<float>::lowest());
                        // Channel offsets of the vectors: every 8, the last
                        // one ending at c.
                        const uint32_t vectors = c / 8 + (c % 8 != 0 ? 1 : 0);
                        const bool twoRows = w.filterHeight == 2 && rows.end - rows.begin == 2;
                        for (uint32_t ox = 0; ox < g.outWidth; ++ox, out += c) {
                          const int64_t ix = int64_t{ox} * w.strideWidth - w.padLeft;
                          const TapRange columns = tapsInside(ix, w.filterWidth, g.inWidth);
                          if (twoRows && w.filterWidth == 2 && columns.end - columns.begin == 2) {
                            // A whole 2x2 window: its four taps at once.
                            const float* top = image + (iy * g.inWidth + ix) * c;
                            const float* bottom = top + size_t{g.inWidth} * c;
                            for (uint32_t v = 0; v < vectors; ++v) {
                              const uint32_t at = std::min(v * 8, c - 8);
                              const Float8 a = load8(top + at), b = load8(top + c + at);
                              const Float8 d = load8(bottom + at), e = load8(bottom + c + at);
                              Float8 m = a < b ? b : a;
                              m = m < d ? d : m;
                              m = m < e ? e : m;
                              store8(out + at, clamp8(m, lo, hi));
                            }
                            continue;
                          }
                          for (uint32_t v = 0; v < vectors; ++v) {
                            const uint32_t at = std::min(v * 8, c - 8);
                            Float8 m = lowest;
                            for (uint32_t ky = rows.begin; ky < rows.end; ++ky) {
                              const int64_t pixel = (iy + ky) * g.inWidth + ix;
                              for (uint32_t kx = columns.begin; kx < columns.end; ++kx) {
                                const Float8 tap = load8(image + (pixel + kx) * c + at);
                                m = m < tap ? tap : m;
                              }
                            }
                            store8(out + at, clamp8(m, lo, hi));
                          }
                        }
                      })

class MaxPoolKernel final : public NativeKernel {
 public:
  MaxPoolKernel(const Operation& op, const Shape& input, const Shape& output, const PoolOp& pool)
      : NativeKernel({op.inputs[0]}, op.outputs[0], NativeForm::MAX_POOL),
        maxPoolRow_(maxPoolRow[nativeCodeIsa()]),
        batches_(input.dims[0]),
        outHeight_(output.dims[1]),
        geometry_{input.dims[1], input.dims[2], output.dims[2], input.dims[3], pool.window},
        range_(pool.range) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    const PoolGeometry& g = geometry_;
    const size_t inImage = size_t{g.inHeight} * g.inWidth * g.channels;
    const size_t outRow = size_t{g.outWidth} * g.channels;
    parallelizeTiles(pool, size_t{batches_} * outHeight_, 1, [&](size_t first, size_t count) {
      for (size_t task = first; task < first + count; ++task) {
        const size_t batch = task / outHeight_;
        const auto y = static_cast<uint32_t>(task % outHeight_);
        maxPoolRow_(inputs[0] + batch * inImage, output + task * outRow, g, y, range_.min,
                    range_.max);
      }
    });
  }

 private:
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  decltype(maxPoolRow.baseline) maxPoolRow_;
  uint32_t batches_, outHeight_;
  PoolGeometry geometry_;
  OutputRange range_;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeMaxPool(LoweringContext& context,
                                                        const Operation& op) {
  ANNRT_CPU_REQUIRE(op.type == OperationType::MAX_POOL_2D, "no native kernel for {}",
                    operationTypeName(op.type));
  ANNRT_ASSIGN_OR_RETURN(PoolOp pool, readPool(context, op));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(input.dims[3] >= 8, "{} channels: the native max pool takes 8 or more",
                    input.dims[3]);
  ANNRT_CPU_REQUIRE(elementCount(input) > 0 && elementCount(output) > 0, "an empty image");
  return std::unique_ptr<NativeKernel>(new MaxPoolKernel(op, input, output, pool));
}

}  // namespace annrt::cpu
