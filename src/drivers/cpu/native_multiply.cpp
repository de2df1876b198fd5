// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// MUL of float32 tensors with its fused activation: of two tensors of the
// output's shape, or of one by a vector of its channels ([1, ..., 1, C], in
// either order): the scaling at the end of selfie segmentation's
// squeeze-and-excitation blocks, each pixel's channels by the block's
// weights.
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

ANNRT_NATIVE_VARIANTS(multiplyRange,
                      (const float* a, const float* b, float* out, size_t count, float min,
                       float max),
                      {
                        const Float8 lo = splat8(min), hi = splat8(max);
                        size_t i = 0;
                        for (; i + 8 <= count; i += 8) {
                          store8(out + i, clamp8(load8(a + i) * load8(b + i), lo, hi));
                        }
                        for (; i < count; ++i) out[i] = clamp1(a[i] * b[i], min, max);
                      })

// `pixels` pixels of `channels` each multiplied by `scale` (`channels`
// floats).
ANNRT_NATIVE_VARIANTS(scalePixels,
                      (const float* in, const float* scale, float* out, size_t pixels,
                       uint32_t channels, float min, float max),
                      {
                        const Float8 lo = splat8(min), hi = splat8(max);
                        for (size_t p = 0; p < pixels; ++p, in += channels, out += channels) {
                          uint32_t c = 0;
                          for (; c + 8 <= channels; c += 8) {
                            store8(out + c, clamp8(load8(in + c) * load8(scale + c), lo, hi));
                          }
                          for (; c < channels; ++c) out[c] = clamp1(in[c] * scale[c], min, max);
                        }
                      })

class MultiplyKernel final : public NativeKernel {
 public:
  // Reads `inputs` (with `channels`, the second one is a vector of them).
  MultiplyKernel(std::vector<uint32_t> inputs, const Operation& op, size_t elements,
                 uint32_t channels, OutputRange range)
      : NativeKernel(std::move(inputs), op.outputs[0], NativeForm::MUL),
        isa_(nativeCodeIsa()),
        elements_(elements),
        channels_(channels),
        range_(range) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    if (channels_ == 0) {
      parallelizeTiles(pool, elements_, kNativeTaskFloats, [&](size_t start, size_t count) {
        multiplyRange[isa_](inputs[0] + start, inputs[1] + start, output + start, count, range_.min,
                            range_.max);
        finishPart(inputs, output, start, count);
      });
      return;
    }
    const size_t tile = std::max<size_t>(1, kNativeTaskFloats / channels_);
    parallelizeTiles(pool, elements_ / channels_, tile, [&](size_t first, size_t count) {
      scalePixels[isa_](inputs[0] + first * channels_, inputs[1], output + first * channels_, count,
                        channels_, range_.min, range_.max);
      finishPart(inputs, output, first * channels_, count * channels_);
    });
  }

 private:
  bool finishesParts() const override { return true; }
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  NativeIsa isa_;  // whose code it runs
  size_t elements_;
  uint32_t channels_;  // 0: no broadcast
  OutputRange range_;
};

// Whether `shape` is [1, ..., 1, channels] (of any rank: NNAPI broadcasts
// from the last dimension).
bool isChannelVector(const Shape& shape, uint32_t channels) {
  if (shape.dims.empty() || shape.dims.back() != channels) return false;
  for (size_t d = 0; d + 1 < shape.dims.size(); ++d) {
    if (shape.dims[d] != 1) return false;
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeMultiply(LoweringContext& context,
                                                         const Operation& op) {
  ANNRT_CPU_REQUIRE(op.type == OperationType::MUL && op.inputs.size() == 3,
                    "no native kernel for {}", operationTypeName(op.type));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0, 1}));
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, 2));
  for (uint32_t i : {0u, 1u}) {
    ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[i]), "input {} is a constant", i);
  }
  const Shape& output = context.output(op, 0).shape;
  const size_t elements = elementCount(output);
  const Shape& a = context.input(op, 0).shape;
  const Shape& b = context.input(op, 1).shape;
  if (a.dims == output.dims && b.dims == output.dims) {
    return std::unique_ptr<NativeKernel>(
        new MultiplyKernel({op.inputs[0], op.inputs[1]}, op, elements, 0, range));
  }
  const uint32_t channels = output.dims.empty() ? 0 : output.dims.back();
  for (uint32_t full : {0u, 1u}) {
    const Shape& vector = full == 0 ? b : a;
    if (context.input(op, full).shape.dims == output.dims && isChannelVector(vector, channels)) {
      return std::unique_ptr<NativeKernel>(new MultiplyKernel(
          {op.inputs[full], op.inputs[1 - full]}, op, elements, channels, range));
    }
  }
  return makeError(ErrorCode::OP_FAILED,
                   "the native MUL takes tensors of the output's shape {} or one by a vector of "
                   "its channels, not {} and {}",
                   toString(output.dims), toString(a.dims), toString(b.dims));
}

}  // namespace annrt::cpu
