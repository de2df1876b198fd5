// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Averages over one run of axes, float32: AVERAGE_POOL_2D whose window is
// the whole unpadded image (NHWC; with its fused activation) and MEAN. The
// input is [outer, reduced, inner]: each of the outer blocks' `reduced` rows
// of `inner` floats summed (in parts of kPartRows rows on the pool), then
// times 1 / reduced. Selfie segmentation's
// squeeze-and-excitation blocks start with one (MEAN in its landscape
// variant).
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

// The sums of `pixels` rows of `channels` floats into `out`, four rows a
// pass, 8 floats a vector.
ANNRT_NATIVE_VARIANTS(sumPixels, (const float* image, float* out, size_t pixels, uint32_t channels),
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
                      })

// sumPixels of the sums of `a` and `b` (an ADD folded in), each clamped to
// [lo, hi] (the ADD's activation) before it is added up.
ANNRT_NATIVE_VARIANTS(sumAddedPixels,
                      (const float* a, const float* b, float* out, size_t pixels, uint32_t channels,
                       float lo, float hi),
                      {
                        const size_t c = channels;
                        for (size_t k = 0; k < c; ++k) out[k] = 0.0f;
                        const Float8 lo8 = splat8(lo), hi8 = splat8(hi);
                        auto sum8At = [&](size_t at) {
                          return clamp8(load8(a + at) + load8(b + at), lo8, hi8);
                        };
                        auto sum1At = [&](size_t at) { return clamp1(a[at] + b[at], lo, hi); };
                        size_t i = 0;
                        for (; i + 2 <= pixels; i += 2) {
                          const size_t p = i * c;
                          size_t k = 0;
                          for (; k + 8 <= c; k += 8) {
                            store8(out + k, load8(out + k) + (sum8At(p + k) + sum8At(p + c + k)));
                          }
                          for (; k < c; ++k) out[k] += sum1At(p + k) + sum1At(p + c + k);
                        }
                        for (; i < pixels; ++i) {
                          for (size_t k = 0; k < c; ++k) out[k] += sum1At(i * c + k);
                        }
                      })

// Rows summed per task: a large image's sums are taken in parts that run on
// the pool's threads and are then added in order (the same parts and order
// whatever the thread count), where one task per image left the second core
// idle (selfie_segmentation's 128x128x16, read from memory).
constexpr size_t kPartRows = 4096;

// What one average reduces: `outer` blocks of `reduced` rows of `inner`
// floats each.
struct AveragedBlocks {
  size_t outer, reduced;
  uint32_t inner;
};

class AverageKernel final : public NativeKernel {
 public:
  // `addRange`, if any: the kernel reads an ADD's two inputs (fusion.h:
  // AVERAGED_ADD), each of their sums clamped to it.
  AverageKernel(std::vector<uint32_t> inputs, uint32_t output, AveragedBlocks blocks,
                OutputRange range, std::optional<OutputRange> addRange)
      : NativeKernel(std::move(inputs), output, NativeForm::GLOBAL_AVERAGE_POOL),
        sumPixels_(sumPixels[nativeCodeIsa()]),
        sumAddedPixels_(addRange ? sumAddedPixels[nativeCodeIsa()] : nullptr),
        outer_(blocks.outer),
        reduced_(blocks.reduced),
        inner_(blocks.inner),
        range_(range),
        addRange_(addRange.value_or(OutputRange{})) {}

  // One part of an outer block a task, then each block's parts added.
  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    const size_t parts = (reduced_ + kPartRows - 1) / kPartRows;
    // One part a block (the usual image) sums into the output itself, which
    // is then scaled in place: no buffer of parts to allocate per run.
    std::vector<float> partSums;
    float* sums = output;
    if (parts > 1) {
      partSums.resize(outer_ * parts * inner_);
      sums = partSums.data();
    }
    parallelizeTiles(pool, outer_ * parts, 1, [&](size_t first, size_t count) {
      for (size_t task = first; task < first + count; ++task) {
        const size_t b = task / parts, part = task % parts;
        const size_t row = part * kPartRows, rows = std::min(kPartRows, reduced_ - row);
        const size_t at = (b * reduced_ + row) * inner_;
        float* out = sums + task * inner_;
        if (sumAddedPixels_ != nullptr) {
          sumAddedPixels_(inputs[0] + at, inputs[1] + at, out, rows, inner_, addRange_.min,
                          addRange_.max);
        } else {
          sumPixels_(inputs[0] + at, out, rows, inner_);
        }
      }
    });
    const float scale = 1.0f / static_cast<float>(reduced_);
    for (size_t b = 0; b < outer_; ++b) {
      for (size_t k = 0; k < inner_; ++k) {
        float sum = 0.0f;
        for (size_t part = 0; part < parts; ++part) sum += sums[(b * parts + part) * inner_ + k];
        output[b * inner_ + k] = clamp1(sum * scale, range_.min, range_.max);
      }
    }
  }

 private:
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  decltype(sumPixels.baseline) sumPixels_;
  decltype(sumAddedPixels.baseline) sumAddedPixels_ = nullptr;
  size_t outer_, reduced_;
  uint32_t inner_;
  OutputRange range_, addRange_;
};

// The range of `add`, an ADD whose output only `op` reads at input 0, of two
// computed float32 tensors of that output's shape (fusion.h: AVERAGED_ADD).
Result<OutputRange> foldableAdd(const LoweringContext& context, const Operation& add,
                                const Operation& op) {
  ANNRT_CPU_REQUIRE(add.type == OperationType::ADD && add.inputs.size() == 3 &&
                        add.outputs.size() == 1 && add.outputs[0] == op.inputs[0] &&
                        context.operand(add.outputs[0]).consumers == 1,
                    "only an ADD whose output it alone reads folds into an average");
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(add, {0, 1}));
  const Shape& sum = context.output(add, 0).shape;
  for (uint32_t input = 0; input < 2; ++input) {
    ANNRT_CPU_REQUIRE(!context.isConstantTensor(add.inputs[input]),
                      "the folded ADD's input {} is a constant", input);
    ANNRT_CPU_REQUIRE(context.input(add, input).shape.dims == sum.dims,
                      "the folded ADD broadcasts {} to {}",
                      toString(context.input(add, input).shape.dims), toString(sum.dims));
  }
  return fusedActivation(context, add, 2);
}

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeAverage(LoweringContext& context,
                                                        const Operation& op, const Operation* add) {
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  AveragedBlocks blocks{};
  OutputRange range;
  if (op.type == OperationType::MEAN) {
    ANNRT_ASSIGN_OR_RETURN(Reduction r, readReduction(context, op));
    blocks = {r.outer, r.reduced, r.inner};
  } else {
    ANNRT_CPU_REQUIRE(op.type == OperationType::AVERAGE_POOL_2D, "no native kernel for {}",
                      operationTypeName(op.type));
    ANNRT_ASSIGN_OR_RETURN(PoolOp pool, readPool(context, op));
    ANNRT_CPU_REQUIRE(pool.global, "only a global average (the window the whole unpadded image)");
    const Shape& input = context.input(op, 0).shape;
    blocks = {input.dims[0], size_t{input.dims[1]} * input.dims[2], input.dims[3]};
    range = pool.range;
  }
  if (add == nullptr) {
    return std::unique_ptr<NativeKernel>(
        new AverageKernel({op.inputs[0]}, op.outputs[0], blocks, range, std::nullopt));
  }
  ANNRT_ASSIGN_OR_RETURN(const OutputRange addRange, foldableAdd(context, *add, op));
  return std::unique_ptr<NativeKernel>(
      new AverageKernel({add->inputs[0], add->inputs[1]}, op.outputs[0], blocks, range, addRange));
}

}  // namespace annrt::cpu
