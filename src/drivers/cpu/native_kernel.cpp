// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/native_kernel.h"

#include <algorithm>

#include "common/log.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {

namespace {

// The kernels of operations no PAD folds into.
Result<std::unique_ptr<NativeKernel>> makeUnpaddedKernel(LoweringContext& context,
                                                         const Operation& op) {
  switch (op.type) {
    case OperationType::RESIZE_BILINEAR: return makeNativeResize(context, op);
    case OperationType::MAX_POOL_2D: return makeNativeMaxPool(context, op);
    case OperationType::MUL: return makeNativeMultiply(context, op);
    case OperationType::HARD_SWISH:
    case OperationType::LOGISTIC:
    case OperationType::RELU:
    case OperationType::RELU1:
    case OperationType::RELU6: return makeNativeUnary(context, op);
    case OperationType::CONCATENATION: return makeNativeConcatenation(context, op);
    case OperationType::FULLY_CONNECTED: return makeNativeFullyConnected(context, op);
    case OperationType::RESHAPE:
    case OperationType::SQUEEZE:
    case OperationType::EXPAND_DIMS: return makeNativeReshape(context, op);
    default:
      return makeError(ErrorCode::OP_FAILED, "no native kernel for {}", operationTypeName(op.type));
  }
}

}  // namespace

Result<void> NativeKernel::foldActivation(OperationType type, uint32_t activationOutput) {
  ANNRT_CPU_REQUIRE(finishesParts(), "this kernel takes in no {}", operationTypeName(type));
  ANNRT_CPU_REQUIRE(activation_ == nullptr, "a second activation after one taken in");
  ANNRT_CPU_REQUIRE(!add_, "an activation after an ADD taken in");
  activation_ = nativeActivation(type);
  ANNRT_CPU_REQUIRE(activation_ != nullptr, "no native {} to take in", operationTypeName(type));
  writes_ = activationOutput;
  return {};
}

Result<void> NativeKernel::foldAdd(uint32_t addend, const OutputRange& range, uint32_t addOutput,
                                   std::optional<ChannelSpan> span) {
  ANNRT_CPU_REQUIRE(finishesParts(), "this kernel takes in no ADD");
  ANNRT_CPU_REQUIRE(!add_, "a second ADD after one taken in");
  ANNRT_CPU_REQUIRE(addend != writes_, "an ADD of the kernel's output to itself");
  ANNRT_CPU_REQUIRE(!span || (span->channels > 0 && span->before + span->count <= span->channels),
                    "a padded addend outside its pixels");
  add_ = FoldedAdd{reads_.size(), range, nativeAddRange(), span, nativeAddPaddedPixels()};
  reads_.push_back(addend);
  writes_ = addOutput;
  return {};
}

void NativeKernel::finishPart(const std::vector<const float*>& inputs, float* output, size_t begin,
                              size_t count) const {
  float* data = output + begin;
  if (activation_ != nullptr) activation_(data, data, count);
  if (!add_) return;
  const FoldedAdd& add = *add_;
  if (add.span) {
    addPadded(add, *add.span, inputs[add.input], output, begin, count);
  } else {
    add.add(data, inputs[add.input] + begin, data, count, add.range.min, add.range.max);
  }
}

void NativeKernel::addPadded(const FoldedAdd& add, const ChannelSpan& span, const float* addend,
                             float* output, size_t begin, size_t count) {
  const OutputRange& range = add.range;
  if (begin % span.channels == 0 && count % span.channels == 0) {
    const size_t pixel = begin / span.channels;
    add.addPixels(addend + pixel * span.count, output + begin, output + begin,
                  count / span.channels, span, range.min, range.max);
    return;
  }
  // Parts of pixels (a group of a product's panels): channel by channel.
  auto clampRange = [&](float* at, size_t n) {
    for (size_t i = 0; i < n; ++i) at[i] = std::clamp(at[i], range.min, range.max);
  };
  const size_t end = begin + count, covered = size_t{span.before} + span.count;
  for (size_t at = begin; at < end;) {
    const size_t pixel = at / span.channels, first = at % span.channels;
    const size_t last = std::min<size_t>(span.channels, first + (end - at));
    float* out = output + pixel * span.channels;
    const size_t low = std::clamp<size_t>(span.before, first, last);
    const size_t high = std::clamp<size_t>(covered, low, last);
    clampRange(out + first, low - first);
    if (high > low) {
      add.add(out + low, addend + pixel * span.count + (low - span.before), out + low, high - low,
              range.min, range.max);
    }
    clampRange(out + high, last - high);
    at = pixel * span.channels + last;
  }
}

Result<std::unique_ptr<NativeKernel>> makeNativeKernel(LoweringContext& context,
                                                       const Operation& op,
                                                       const Operation* before) {
  switch (op.type) {
    case OperationType::CONV_2D:
    case OperationType::DEPTHWISE_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D: return makeNativeConvolution(context, op, before);
    case OperationType::ADD: return makeNativeAdd(context, op, before);
    case OperationType::AVERAGE_POOL_2D:
    case OperationType::MEAN: return makeNativeAverage(context, op, before);
    default:
      if (isTransposeConvBias(context, op)) return makeNativeConvolution(context, op, before);
      ANNRT_CPU_REQUIRE(before == nullptr, "nothing folds into a {}", operationTypeName(op.type));
      return makeUnpaddedKernel(context, op);
  }
}

Result<std::vector<uint32_t>> foldablePaddings(const LoweringContext& context, const Operation& pad,
                                               const Operation& reader, uint32_t readerInput) {
  ANNRT_CPU_REQUIRE(pad.type == OperationType::PAD && pad.outputs.size() == 1,
                    "only a PAD of zeros folds into the next operation");
  ANNRT_CPU_REQUIRE(readerInput < reader.inputs.size() &&
                        reader.inputs[readerInput] == pad.outputs[0] &&
                        context.operand(pad.outputs[0]).consumers == 1,
                    "the PAD before it does not fold into it: its output is read elsewhere");
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(pad, {0}));
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> paddings, context.intTensor(pad, 1));
  const Shape& input = context.input(pad, 0).shape;
  const Shape& output = context.output(pad, 0).shape;
  ANNRT_CPU_REQUIRE(rank(input) == 4 && paddings.size() == 8, "a PAD of rank {}", rank(input));
  std::vector<uint32_t> sizes(paddings.size());
  for (size_t i = 0; i < paddings.size(); ++i) {
    ANNRT_CPU_REQUIRE(paddings[i] >= 0, "a PAD by {}", paddings[i]);
    sizes[i] = static_cast<uint32_t>(paddings[i]);
  }
  for (size_t axis = 0; axis < 4; ++axis) {
    ANNRT_CPU_REQUIRE(input.dims[axis] + sizes[2 * axis] + sizes[2 * axis + 1] == output.dims[axis],
                      "the PAD's output {} does not match its paddings", toString(output.dims));
  }
  return sizes;
}

bool nativeKernelPreferred(LoweringContext& context, const Operation& op, const Operation* pad) {
  Result<std::unique_ptr<NativeKernel>> kernel = makeNativeKernel(context, op, pad);
  if (!kernel.ok()) {
    // Why an operation runs on XNNPACK (or only folded into a native
    // neighbour, as a PAD or a clamp may be).
    ANNRT_VLOG(DRIVER, "annrt-cpu: a {} has no native kernel of its own ({})",
               operationTypeName(op.type), kernel.error().message);
    return false;
  }
  return (*kernel)->preferred();
}

bool nativeKernelAvailable(LoweringContext& context, const Operation& op) {
  Result<std::unique_ptr<NativeKernel>> kernel = makeNativeKernel(context, op);
  return kernel.ok() && (*kernel)->fillsGaps();
}

}  // namespace annrt::cpu
