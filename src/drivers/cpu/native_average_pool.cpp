// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Averages over one run of axes, float32: AVERAGE_POOL_2D whose window is
// the whole unpadded image (NHWC; with its fused activation) and MEAN. The
// input is [outer, reduced, inner]: each of the outer blocks' `reduced` rows
// of `inner` floats summed, then times 1 / reduced. Selfie segmentation's
// squeeze-and-excitation blocks start with one (MEAN in its landscape
// variant).
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

// The average of `pixels` rows of `channels` floats: the sums gathered in
// `out`, four rows a pass, 8 floats a vector, then scaled.
ANNRT_NATIVE_VARIANTS(averagePixels,
                      (const float* image, float* out, size_t pixels, uint32_t channels, float min,
                       float max),
                      {
                        const size_t c = channels;
                        for (size_t k = 0; k < c; ++k) out[k] = 0.0f;
                        size_t i = 0;
                        for (; i + 4 <= pixels; i += 4) {
                          const float* p = image + i * c;
                          size_t k = 0;
                          for (; k + 8 <= c; k += 8) {
                            const Float8 pair0 = load8(p + k) + load8(p + c + k);
                            const Float8 pair1 = load8(p + 2 * c + k) + load8(p + 3 * c + k);
                            store8(out + k, load8(out + k) + (pair0 + pair1));
                          }
                          for (; k < c; ++k) {
                            out[k] += (p[k] + p[c + k]) + (p[2 * c + k] + p[3 * c + k]);
                          }
                        }
                        for (; i < pixels; ++i) {
                          for (size_t k = 0; k < c; ++k) out[k] += image[i * c + k];
                        }
                        const float scale = 1.0f / static_cast<float>(pixels);
                        for (size_t k = 0; k < c; ++k) out[k] = clamp1(out[k] * scale, min, max);
                      })

class AverageKernel final : public NativeKernel {
 public:
  AverageKernel(const Operation& op, uint32_t outer, uint32_t reduced, uint32_t inner,
                OutputRange range)
      : NativeKernel({op.inputs[0]}, op.outputs[0], NativeForm::GLOBAL_AVERAGE_POOL),
        averagePixels_(averagePixels[nativeCodeIsa()]),
        outer_(outer),
        reduced_(reduced),
        inner_(inner),
        range_(range) {}

  // One outer block a task.
  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    parallelizeTiles(pool, outer_, 1, [&](size_t first, size_t count) {
      for (size_t b = first; b < first + count; ++b) {
        averagePixels_(inputs[0] + b * reduced_ * inner_, output + b * inner_, reduced_, inner_,
                       range_.min, range_.max);
      }
    });
  }

 private:
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  decltype(averagePixels.baseline) averagePixels_;
  size_t outer_, reduced_;
  uint32_t inner_;
  OutputRange range_;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeAverage(LoweringContext& context,
                                                        const Operation& op) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  if (op.type == OperationType::MEAN) {
    ANNRT_ASSIGN_OR_RETURN(Reduction r, readReduction(context, op));
    return std::unique_ptr<NativeKernel>(
        new AverageKernel(op, r.outer, r.reduced, r.inner, OutputRange{}));
  }
  ANNRT_CPU_REQUIRE(op.type == OperationType::AVERAGE_POOL_2D, "no native kernel for {}",
                    operationTypeName(op.type));
  ANNRT_ASSIGN_OR_RETURN(PoolOp pool, readPool(context, op));
  ANNRT_CPU_REQUIRE(pool.global, "only a global average (the window the whole unpadded image)");
  const Shape& input = context.input(op, 0).shape;
  return std::unique_ptr<NativeKernel>(new AverageKernel(
      op, input.dims[0], input.dims[1] * input.dims[2], input.dims[3], pool.range));
}

}  // namespace annrt::cpu
