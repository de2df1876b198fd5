// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR in float32, NHWC: each output row blends two input rows,
// each output pixel two input pixels of each, all channels at once in
// 8-float vectors. Where every output pixel samples comes from tables built
// once (the sizes are static), by the reference's rules for corners and
// half-pixel centers (ops/util/resize_sampling.h); results differ from it
// only by float rounding (the blend is taken as two linear steps). XNNPACK
// walks an indirection buffer per output pixel instead, and took 0.09 ms
// for selfie_segmentation's 64x64 -> 128x128 of 16 channels.
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"
#include "ops/util/resize_sampling.h"

namespace annrt::cpu {
namespace {

// Where output index i samples one axis: between input indexes lower and
// upper, `weight` of the way (the reference's position minus lower).
struct Sample {
  uint32_t lower = 0, upper = 0;
  float weight = 0;
};

std::vector<Sample> samples(uint32_t inSize, uint32_t outSize, const ResizeFlags& flags) {
  const float scale = ops::resizeScale(inSize, outSize, flags.alignCorners);
  std::vector<Sample> table(outSize);
  for (uint32_t i = 0; i < outSize; ++i) {
    const ops::Interpolation at = ops::interpolation(i, scale, inSize, flags.halfPixelCenters);
    table[i] = {at.lower, at.upper, at.position - static_cast<float>(at.lower)};
  }
  return table;
}

// One output row of `width` pixels of `channels` floats from input rows
// `top` and `bottom`, `down` of the way from top to bottom.
ANNRT_NATIVE_VARIANTS(blendRow,
                      (const float* top, const float* bottom, float down, float* out,
                       const Sample* columns, uint32_t width, uint32_t channels),
                      {
                        const Float8 vDown = splat8(down);
                        for (uint32_t x = 0; x < width; ++x, out += channels) {
                          const Sample& s = columns[x];
                          const float* tl = top + size_t{s.lower} * channels;
                          const float* tr = top + size_t{s.upper} * channels;
                          const float* bl = bottom + size_t{s.lower} * channels;
                          const float* br = bottom + size_t{s.upper} * channels;
                          const Float8 across = splat8(s.weight);
                          uint32_t c = 0;
                          for (; c + 8 <= channels; c += 8) {
                            const Float8 t =
                                load8(tl + c) + (load8(tr + c) - load8(tl + c)) * across;
                            const Float8 b =
                                load8(bl + c) + (load8(br + c) - load8(bl + c)) * across;
                            store8(out + c, t + (b - t) * vDown);
                          }
                          for (; c < channels; ++c) {
                            const float t = tl[c] + (tr[c] - tl[c]) * s.weight;
                            const float b = bl[c] + (br[c] - bl[c]) * s.weight;
                            out[c] = t + (b - t) * down;
                          }
                        }
                      })

class ResizeKernel final : public NativeKernel {
 public:
  ResizeKernel(const Operation& op, const Shape& input, const Shape& output,
               const ResizeFlags& flags)
      : NativeKernel({op.inputs[0]}, op.outputs[0], NativeForm::RESIZE_BILINEAR),
        blendRow_(blendRow[nativeCodeIsa()]),
        batches_(input.dims[0]),
        inHeight_(input.dims[1]),
        inWidth_(input.dims[2]),
        channels_(input.dims[3]),
        rows_(samples(input.dims[1], output.dims[1], flags)),
        columns_(samples(input.dims[2], output.dims[2], flags)) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    const size_t outHeight = rows_.size(), outWidth = columns_.size();
    const size_t inImage = size_t{inHeight_} * inWidth_ * channels_;
    const size_t inRow = size_t{inWidth_} * channels_, outRow = outWidth * channels_;
    parallelizeTiles(pool, batches_ * outHeight, 1, [&](size_t first, size_t count) {
      for (size_t task = first; task < first + count; ++task) {
        const size_t batch = task / outHeight, y = task % outHeight;
        const float* image = inputs[0] + batch * inImage;
        const Sample& s = rows_[y];
        blendRow_(image + s.lower * inRow, image + s.upper * inRow, s.weight,
                  output + task * outRow, columns_.data(), static_cast<uint32_t>(outWidth),
                  channels_);
        finishPart(inputs, output, task * outRow, outRow);
      }
    });
  }

 private:
  bool finishesParts() const override { return true; }
  // No clamp of its own to take in: the planner folds clamps only into
  // operations XNNPACK would fold them into (fusion.h), never a resize (one
  // after an ADD the kernel takes in clamps the sums: foldClamp).
  void narrow(const OutputRange&) override {}

  decltype(blendRow.baseline) blendRow_;
  uint32_t batches_, inHeight_, inWidth_, channels_;
  std::vector<Sample> rows_, columns_;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeResize(LoweringContext& context,
                                                       const Operation& op) {
  ANNRT_CPU_REQUIRE(op.type == OperationType::RESIZE_BILINEAR, "no native kernel for {}",
                    operationTypeName(op.type));
  ANNRT_ASSIGN_OR_RETURN(ResizeFlags flags, readResize(context, op));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_CPU_REQUIRE(elementCount(input) > 0 && elementCount(output) > 0, "an empty image");
  return std::unique_ptr<NativeKernel>(new ResizeKernel(op, input, output, flags));
}

}  // namespace annrt::cpu
