// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ADD of two float32 tensors of the output's shape (no broadcast), with its
// fused activation: the residual additions between native convolutions, so
// that they do not cut a native stage in two. One input may come from a PAD
// of zeros along the channels, folded in: face detection's residual
// connections that grow the channel count (a block's input padded from 24
// to 28 channels and added to its convolution's output). The kernel reads
// the PAD's input, and the padded tensor is never written nor read again,
// which XNNPACK (a pad node, then an add node) cannot avoid.
#include <optional>

#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

ANNRT_NATIVE_VARIANTS(
    addRange, (const float* a, const float* b, float* out, size_t count, float min, float max), {
      const Float8 lo = splat8(min), hi = splat8(max);
      size_t i = 0;
      for (; i + 8 <= count; i += 8) {
        store8(out + i, clamp8(load8(a + i) + load8(b + i), lo, hi));
      }
      for (; i < count; ++i) out[i] = clamp1(a[i] + b[i], min, max);
    })

// `pixels` output pixels: narrow's channels added to full's where they
// cover it, full's alone elsewhere.
ANNRT_NATIVE_VARIANTS(addPaddedPixels,
                      (const float* narrow, const float* full, float* out, size_t pixels,
                       ChannelSpan span, float min, float max),
                      {
                        const Float8 lo = splat8(min), hi = splat8(max);
                        const uint32_t after = span.before + span.count;
                        for (size_t p = 0; p < pixels; ++p) {
                          const float* a = narrow + p * span.count;
                          const float* b = full + p * span.channels;
                          float* o = out + p * span.channels;
                          for (uint32_t c = 0; c < span.before; ++c) o[c] = clamp1(b[c], min, max);
                          uint32_t i = 0;
                          for (; i + 8 <= span.count; i += 8) {
                            store8(o + span.before + i,
                                   clamp8(load8(a + i) + load8(b + span.before + i), lo, hi));
                          }
                          for (; i < span.count; ++i)
                            o[span.before + i] = clamp1(a[i] + b[span.before + i], min, max);
                          for (uint32_t c = after; c < span.channels; ++c)
                            o[c] = clamp1(b[c], min, max);
                        }
                      })

class AddKernel final : public NativeKernel {
 public:
  // Reads `inputs`; with a folded PAD, the narrow input first and `span`
  // says where it goes.
  AddKernel(std::vector<uint32_t> inputs, const Operation& op, size_t elements, OutputRange range,
            std::optional<ChannelSpan> span)
      : NativeKernel(std::move(inputs), op.outputs[0],
                     span ? NativeForm::ADD_PADDED_CHANNELS : NativeForm::ADD),
        isa_(nativeCodeIsa()),
        elements_(elements),
        range_(range),
        span_(span) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    if (!span_) {
      parallelizeTiles(pool, elements_, kNativeTaskFloats, [&](size_t start, size_t count) {
        addRange[isa_](inputs[0] + start, inputs[1] + start, output + start, count, range_.min,
                       range_.max);
      });
      return;
    }
    const ChannelSpan span = *span_;
    const size_t pixels = elements_ / span.channels;
    const size_t tile = std::max<size_t>(1, kNativeTaskFloats / span.channels);
    parallelizeTiles(pool, pixels, tile, [&](size_t first, size_t count) {
      addPaddedPixels[isa_](inputs[0] + first * span.count, inputs[1] + first * span.channels,
                            output + first * span.channels, count, span, range_.min, range_.max);
    });
  }

 private:
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  NativeIsa isa_;  // whose code it runs
  size_t elements_;
  OutputRange range_;
  std::optional<ChannelSpan> span_;
};

Result<void> checkReadable(const LoweringContext& context, const Operation& op, uint32_t input) {
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[input]), "input {} is a constant", input);
  return {};
}

// The ADD with `pad` (whose output it reads) folded in.
Result<std::unique_ptr<NativeKernel>> makePaddedAdd(LoweringContext& context, const Operation& op,
                                                    const Operation& pad, OutputRange range) {
  const uint32_t padded = op.inputs[0] == pad.outputs[0] ? 0 : 1, other = 1 - padded;
  ANNRT_ASSIGN_OR_RETURN(const ChannelSpan span, channelPadding(context, pad, op, padded));
  ANNRT_CPU_REQUIRE(context.input(op, other).shape.dims == context.output(op, 0).shape.dims,
                    "the native ADD does not broadcast");
  ANNRT_RETURN_IF_ERROR(checkReadable(context, op, other));
  return std::unique_ptr<NativeKernel>(new AddKernel({pad.inputs[0], op.inputs[other]}, op,
                                                     elementCount(context.output(op, 0).shape),
                                                     range, span));
}

}  // namespace

Result<ChannelSpan> channelPadding(const LoweringContext& context, const Operation& pad,
                                   const Operation& add, uint32_t paddedInput) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> paddings,
                         foldablePaddings(context, pad, add, paddedInput));
  ANNRT_CPU_REQUIRE(
      paddings[0] + paddings[1] + paddings[2] + paddings[3] + paddings[4] + paddings[5] == 0,
      "a PAD {} folds into an ADD only along the channels", toString(paddings));
  const Shape& output = context.output(add, 0).shape;
  ANNRT_CPU_REQUIRE(context.input(add, paddedInput).shape.dims == output.dims,
                    "the native ADD does not broadcast");
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(pad.inputs[0]), "the PAD's input is a constant");
  return ChannelSpan{paddings[6], context.input(pad, 0).shape.dims[3], output.dims[3]};
}

AddPaddedPixels nativeAddPaddedPixels() {
  return addPaddedPixels[nativeCodeIsa()];
}

AddRange nativeAddRange() {
  return addRange[nativeCodeIsa()];
}

Result<std::unique_ptr<NativeKernel>> makeNativeAdd(LoweringContext& context, const Operation& op,
                                                    const Operation* pad) {
  ANNRT_CPU_REQUIRE(op.type == OperationType::ADD && op.inputs.size() == 3,
                    "no native kernel for {}", operationTypeName(op.type));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0, 1}));
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, 2));
  if (pad != nullptr) return makePaddedAdd(context, op, *pad, range);
  const Shape& output = context.output(op, 0).shape;
  for (uint32_t i : {0u, 1u}) {
    ANNRT_CPU_REQUIRE(context.input(op, i).shape.dims == output.dims,
                      "input {} is {}, output {}: the native ADD does not broadcast", i,
                      toString(context.input(op, i).shape.dims), toString(output.dims));
    ANNRT_RETURN_IF_ERROR(checkReadable(context, op, i));
  }
  return std::unique_ptr<NativeKernel>(
      new AddKernel({op.inputs[0], op.inputs[1]}, op, elementCount(output), range, std::nullopt));
}

}  // namespace annrt::cpu
