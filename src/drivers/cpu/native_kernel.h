// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu's own float32 kernels, for the operations XNNPACK runs poorly:
// depthwise convolutions, and convolutions of a few channels (8 or 16) over
// large images, as in the segmentation heads of the pose models, and
// bilinear resizes. XNNPACK's depthwise kernels walk an indirection buffer
// one output pixel at a time (filling half a 16-lane AVX-512 vector with 8
// channels), its GEMMs get 8 or fewer output channels there; these kernels
// read the image directly, several output pixels at once. Each is built once
// (weights repacked) and runs row by row on the thread pool.
// `nativeKernelPreferred` says where they are faster: the table of forms
// per instruction set in native_kernel_table.h, from measurements.
#pragma once

#include <pthreadpool.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "drivers/cpu/lowering_context.h"
#include "drivers/cpu/native_kernel_table.h"

namespace annrt::cpu {

struct ConvParams;

// An element-by-element activation over `count` floats (in may be out).
using ActivationRange = void (*)(const float* in, float* out, size_t count);
// The code of HARD_SWISH or LOGISTIC for the instruction set the kernels
// run (nativeCodeIsa), or null for any other operation type.
ActivationRange nativeActivation(OperationType type);

// The values both ranges allow.
inline OutputRange intersect(const OutputRange& a, const OutputRange& b) {
  return {std::max(a.min, b.min), std::min(a.max, b.max)};
}

// out = a + b clamped to [min, max], `count` floats (out may be a or b).
using AddRange = void (*)(const float* a, const float* b, float* out, size_t count, float min,
                          float max);
// Its code for the instruction set the kernels run (nativeCodeIsa).
AddRange nativeAddRange();

// Which channels of each pixel of an ADD's output a narrower input, zero
// padded along the channels (a PAD folded in), covers: [before, before +
// count) of `channels`.
struct ChannelSpan {
  uint32_t before = 0, count = 0, channels = 0;
};

// out = full + narrow (padded with zeros to `span`) clamped to [min, max],
// `pixels` pixels of span.channels floats (out may be full).
using AddPaddedPixels = void (*)(const float* narrow, const float* full, float* out, size_t pixels,
                                 ChannelSpan span, float min, float max);
// Its code for the instruction set the kernels run (nativeCodeIsa).
AddPaddedPixels nativeAddPaddedPixels();

// Which rows of its input image a kernel's output row reads: row r reads
// rows [r * stride - padTop, r * stride - padTop + span), those inside
// [0, inHeight) (band_pair.h runs such a kernel band by band after the
// kernel writing its input).
struct RowReads {
  uint32_t inHeight = 0, outHeight = 0;
  uint32_t stride = 1, padTop = 0, span = 1;
  // The first row output row `row` reads.
  uint32_t begin(uint32_t row) const {
    const int64_t at = int64_t{row} * stride - padTop;
    return static_cast<uint32_t>(std::clamp<int64_t>(at, 0, inHeight));
  }
  // One past the last row output row `row` reads.
  uint32_t end(uint32_t row) const {
    const int64_t at = int64_t{row} * stride - padTop + span;
    return static_cast<uint32_t>(std::clamp<int64_t>(at, 0, inHeight));
  }
};

class NativeKernel {
 public:
  virtual ~NativeKernel() = default;
  // The operands it reads (tensor inputs, not its constant weights) and the
  // one it writes.
  const std::vector<uint32_t>& reads() const { return reads_; }
  uint32_t writes() const { return writes_; }
  // Faster than XNNPACK on this operation, by the table's column for the
  // instruction set it was made for (native_kernel_table.h).
  bool preferred() const { return use_ == NativeUse::PREFERRED; }
  // May run between preferred operations, or after the last of them, to
  // keep their run in one stage.
  bool fillsGaps() const { return use_ != NativeUse::NO; }
  // Reads inputs[i] for reads()[i], writes `output`; rows go to `pool`
  // (null: the calling thread).
  virtual void run(const std::vector<const float*>& inputs, float* output,
                   pthreadpool_t pool) const = 0;
  // Whether runRows can write the rows of a one-image NHWC output one band
  // at a time.
  virtual bool writesRows() const { return false; }
  // Writes output rows [first, first + count), each `rowPixels` pixels, on
  // the calling thread, folded clamp and activation included; only where
  // writesRows().
  virtual void runRows(const std::vector<const float*>& /*inputs*/, float* /*output*/,
                       size_t /*rowPixels*/, uint32_t /*first*/, uint32_t /*count*/) const {}
  // The rows of its one input image an output row reads, where the kernel
  // is a window over one image whose rows runRows writes; else nullopt.
  virtual std::optional<RowReads> rowReads() const { return std::nullopt; }
  // Takes in the clamp (RELU, RELU1, RELU6) that reads this kernel's output
  // alone: the kernel clamps to `range` too (after a folded ADD, its sums)
  // and writes the clamp's output.
  void foldClamp(const OutputRange& range, uint32_t clampOutput) {
    if (add_) {
      add_->range = intersect(add_->range, range);
    } else {
      narrow(range);
    }
    writes_ = clampOutput;
  }
  // Takes in the activation `type` (HARD_SWISH or LOGISTIC) that reads this
  // kernel's output alone (FusionRole::ACTIVATION): the kernel applies it to
  // each part of its output right after writing that part, while it is in
  // the cache, and writes the activation's output. OP_FAILED where the
  // kernel cannot (only the kernels that finish their parts can:
  // convolutions, resizes and MULs; the fusion plan folds activations into
  // convolutions only).
  Result<void> foldActivation(OperationType type, uint32_t activationOutput);
  // Takes in the ADD (FusionRole::ADDEND) of this kernel's output, which it
  // alone reads, and `addend`, a tensor of the same shape written before it:
  // the kernel reads `addend` too (its last input), adds it to each part of
  // its output right after writing that part (and applying a folded
  // activation), while that part is in the cache, clamps the sums to
  // `range` (the ADD's fused activation), and writes the ADD's output. The
  // output is not written and read back whole, as the ADD's own kernel does.
  // OP_FAILED where the kernel cannot (only convolutions, resizes and MULs
  // can).
  // With `span`, the addend has span->count channels, zero padded to the
  // output's (a PAD along the channels folded in): added to those it covers.
  Result<void> foldAdd(uint32_t addend, const OutputRange& range, uint32_t addOutput,
                       std::optional<ChannelSpan> span = std::nullopt);

 protected:
  // `form` decides, through the table, where the kernel is used.
  NativeKernel(std::vector<uint32_t> reads, uint32_t writes, NativeForm form)
      : reads_(std::move(reads)), writes_(writes), use_(nativeFormUse(form)) {}
  // Intersects the kernel's output range with `range`.
  virtual void narrow(const OutputRange& range) = 0;
  // Whether run() and runRows() call finishPart() on every part of the
  // output they write.
  virtual bool finishesParts() const { return false; }
  // What folds into the kernel after its own output (an activation, then an
  // ADD), over the `count` floats from `begin` it has just written to
  // `output`; `inputs` are run()'s.
  void finishPart(const std::vector<const float*>& inputs, float* output, size_t begin,
                  size_t count) const;

 private:
  struct FoldedAdd {
    size_t input;  // where the addend is in reads()
    OutputRange range;
    AddRange add;
    std::optional<ChannelSpan> span;
    AddPaddedPixels addPixels;
  };
  // The folded ADD `add` of an addend padded to `span` over output floats
  // [begin, begin + count), which may start and end inside a pixel.
  static void addPadded(const FoldedAdd& add, const ChannelSpan& span, const float* addend,
                        float* output, size_t begin, size_t count);

  std::vector<uint32_t> reads_;
  uint32_t writes_;
  NativeUse use_;
  ActivationRange activation_ = nullptr;
  std::optional<FoldedAdd> add_;
};

// The kernel for `op` of context.model(), or OP_FAILED saying why it has
// none (an unsupported type, channel count, layout or parameter). `before`,
// if given, is the operation right before `op` whose output only `op` reads,
// folded into it: a PAD, of height and width into a convolution (fusion.h)
// or along the channels into an ADD, the kernel reading the PAD's input; or
// an ADD into a global average, which sums the ADD's inputs; anything else
// is OP_FAILED.
Result<std::unique_ptr<NativeKernel>> makeNativeKernel(LoweringContext& context,
                                                       const Operation& op,
                                                       const Operation* before = nullptr);
// The [before, after] paddings per axis of `pad`, a float32 PAD of zeros of
// a 4-dimensional tensor, checked to be foldable into `reader`: only
// `reader` reads its output, at input `readerInput`.
Result<std::vector<uint32_t>> foldablePaddings(const LoweringContext& context, const Operation& pad,
                                               const Operation& reader, uint32_t readerInput);

// Where the input of `pad`, a PAD along the channels only whose output only
// `add` reads (at input `paddedInput`), goes in each pixel of the ADD's
// output; OP_FAILED where the PAD is not such a one.
Result<ChannelSpan> channelPadding(const LoweringContext& context, const Operation& pad,
                                   const Operation& add, uint32_t paddedInput);

// The family makers makeNativeKernel dispatches to.
Result<std::unique_ptr<NativeKernel>> makeNativeConvolution(LoweringContext& context,
                                                            const Operation& op,
                                                            const Operation* pad);
// A CONV_2D of `conv` with a 1x1 filter, stride 1 and no padding, where the
// table uses the matrix product (NativeForm::POINTWISE_GEMM).
Result<std::unique_ptr<NativeKernel>> makeNativePointwise(LoweringContext& context,
                                                          const Operation& op,
                                                          const ConvParams& conv);
// A CONV_2D of `conv` whose filter covers its whole unpadded input (one
// output pixel per image: pose_landmark's heads, 2x2x288 to 195), and
// FULLY_CONNECTED in float32: the same product, an image or a row of the
// input as its one pixel (NativeForm::FULLY_CONNECTED).
Result<std::unique_ptr<NativeKernel>> makeNativeWholeImageProduct(LoweringContext& context,
                                                                  const Operation& op,
                                                                  const ConvParams& conv);
Result<std::unique_ptr<NativeKernel>> makeNativeFullyConnected(LoweringContext& context,
                                                               const Operation& op);
Result<std::unique_ptr<NativeKernel>> makeNativeAdd(LoweringContext& context, const Operation& op,
                                                    const Operation* pad);
Result<std::unique_ptr<NativeKernel>> makeNativeResize(LoweringContext& context,
                                                       const Operation& op);
Result<std::unique_ptr<NativeKernel>> makeNativeMaxPool(LoweringContext& context,
                                                        const Operation& op);
Result<std::unique_ptr<NativeKernel>> makeNativeConcatenation(LoweringContext& context,
                                                              const Operation& op);
// AVERAGE_POOL_2D over the whole image, and MEAN; with `add`, the ADD
// before it folded in (FusionRole::AVERAGED_ADD: the sums of its inputs are
// averaged).
Result<std::unique_ptr<NativeKernel>> makeNativeAverage(LoweringContext& context,
                                                        const Operation& op,
                                                        const Operation* add = nullptr);
Result<std::unique_ptr<NativeKernel>> makeNativeMultiply(LoweringContext& context,
                                                         const Operation& op);
// HARD_SWISH, LOGISTIC, RELU, RELU1 and RELU6.
Result<std::unique_ptr<NativeKernel>> makeNativeUnary(LoweringContext& context,
                                                      const Operation& op);
// RESHAPE, SQUEEZE and EXPAND_DIMS (isReshape, fusion.h), as a copy.
Result<std::unique_ptr<NativeKernel>> makeNativeReshape(LoweringContext& context,
                                                        const Operation& op);

// Whether annrt-cpu runs `op` on its own kernel rather than on XNNPACK, being
// faster there.
bool nativeKernelPreferred(LoweringContext& context, const Operation& op,
                           const Operation* pad = nullptr);
// Whether `op` has a native kernel the table lets run between two preferred
// operations, so that it can stay there instead of cutting their stage in
// two.
bool nativeKernelAvailable(LoweringContext& context, const Operation& op);

inline constexpr uint32_t kNativeMaxChannels = 16;

}  // namespace annrt::cpu
