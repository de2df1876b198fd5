// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on 4-D NHWC/NCHW tensors: move
// block_shape spatial blocks into the batch dimension (block offset outer,
// original batch inner) and back. SPACE_TO_BATCH_ND first zero-pads height
// and width (quantized: with the zero point).
#include <array>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::space_batch {
namespace {

constexpr uint32_t kBlockShape = 1;

template <bool kToBatch>
constexpr uint32_t layoutIndex() {
  return kToBatch ? 3 : 2;
}

template <bool kToBatch>
Result<void> validate(const ValidationContext& context) {
  constexpr uint32_t kLayout = layoutIndex<kToBatch>();
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, kLayout, kLayout + 1));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypes, 4));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(0), 4, "input"));
  for (uint32_t i = 1; i < kLayout; ++i) {
    ANNRT_RETURN_IF_ERROR(validateInputType(context, i, OperandType::TENSOR_INT32, "index tensor"));
  }
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kBlockShape), 1, "block shape"));
  if (kToBatch) ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(2), 2, "paddings"));
  return validateLayoutInput(context, kLayout);
}

struct Blocks {
  uint32_t height = 1;
  uint32_t width = 1;
  Padding top;
  Padding left;
};

template <bool kToBatch>
Result<Blocks> blocks(const ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto shape, int32Vector(context, kBlockShape, 2));
  ANNRT_CHECK(shape[0] >= 1 && shape[1] >= 1, "block shape [{}, {}] must be at least 1", shape[0],
              shape[1]);
  Blocks b{static_cast<uint32_t>(shape[0]), static_cast<uint32_t>(shape[1]), {}, {}};
  if constexpr (kToBatch) {
    const Shape& padShape = context.inputShape(2);
    ANNRT_CHECK(padShape.dims == std::vector<uint32_t>({2, 2}), "paddings have shape {}",
                toString(padShape.dims));
    const int32_t* p = context.input<int32_t>(2);
    for (int i = 0; i < 4; ++i) ANNRT_CHECK(p[i] >= 0, "padding {} is negative", p[i]);
    b.top = {static_cast<uint32_t>(p[0]), static_cast<uint32_t>(p[1])};
    b.left = {static_cast<uint32_t>(p[2]), static_cast<uint32_t>(p[3])};
  }
  return b;
}

// NHWC output dims for NHWC input dims.
template <bool kToBatch>
Result<std::vector<uint32_t>> outputDims(const std::vector<uint32_t>& in, const Blocks& b) {
  const uint64_t count = uint64_t{b.height} * b.width;
  if constexpr (kToBatch) {
    const uint64_t h = uint64_t{in[1]} + b.top.head + b.top.tail;
    const uint64_t w = uint64_t{in[2]} + b.left.head + b.left.tail;
    ANNRT_CHECK(h % b.height == 0 && w % b.width == 0,
                "padded size {}x{} is not a multiple of block shape {}x{}", h, w, b.height,
                b.width);
    ANNRT_ASSIGN_OR_RETURN(uint32_t batch, checkedDim(in[0] * count));
    ANNRT_ASSIGN_OR_RETURN(uint32_t height, checkedDim(h / b.height));
    ANNRT_ASSIGN_OR_RETURN(uint32_t width, checkedDim(w / b.width));
    return std::vector<uint32_t>{batch, height, width, in[3]};
  } else {
    ANNRT_CHECK(in[0] % count == 0, "batch {} is not a multiple of block count {}", in[0], count);
    ANNRT_ASSIGN_OR_RETURN(uint32_t height, checkedDim(uint64_t{in[1]} * b.height));
    ANNRT_ASSIGN_OR_RETURN(uint32_t width, checkedDim(uint64_t{in[2]} * b.width));
    return std::vector<uint32_t>{static_cast<uint32_t>(in[0] / count), height, width, in[3]};
  }
}

template <bool kToBatch>
Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Blocks b, blocks<kToBatch>(context));
  return setOutputDimsInNhwc(context, isNchw(context, layoutIndex<kToBatch>()),
                             [&](const auto& dims) { return outputDims<kToBatch>(dims, b); });
}

// Flat NHWC input index of output coordinate `o`, or -1 inside the padding.
template <bool kToBatch>
int64_t sourceIndex(const std::vector<uint32_t>& o, const std::vector<uint32_t>& in,
                    const std::vector<uint32_t>& out, const Blocks& b) {
  uint32_t batch = 0;
  int64_t h = 0;
  int64_t w = 0;
  if constexpr (kToBatch) {
    const uint32_t offset = o[0] / in[0];
    batch = o[0] % in[0];
    h = int64_t{o[1]} * b.height + offset / b.width - b.top.head;
    w = int64_t{o[2]} * b.width + offset % b.width - b.left.head;
    if (h < 0 || h >= in[1] || w < 0 || w >= in[2]) return -1;
  } else {
    batch = ((o[1] % b.height) * b.width + o[2] % b.width) * out[0] + o[0];
    h = o[1] / b.height;
    w = o[2] / b.width;
  }
  return ((int64_t{batch} * in[1] + h) * in[2] + w) * in[3] + o[3];
}

template <bool kToBatch>
Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Blocks b, blocks<kToBatch>(context));
  const Shape& input = context.inputShape(0);
  const std::array<uint8_t, 4> zero = quant8Element(input, input.zeroPoint);
  runInNhwc(context, isNchw(context, layoutIndex<kToBatch>()),
            [&](const void* in, const std::vector<uint32_t>& inDims, void* out,
                const std::vector<uint32_t>& outDims) {
              gatherElements(in, out, outDims, elementSize(input.type), zero.data(),
                             [&](const std::vector<uint32_t>& o) {
                               return sourceIndex<kToBatch>(o, inDims, outDims, b);
                             });
            });
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::BATCH_TO_SPACE_ND,
     .name = "BATCH_TO_SPACE_ND",
     .validate = validate<false>,
     .prepare = prepare<false>,
     .execute = execute<false>},
    {.type = OperationType::SPACE_TO_BATCH_ND,
     .name = "SPACE_TO_BATCH_ND",
     .validate = validate<true>,
     .prepare = prepare<true>,
     .execute = execute<true>},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::space_batch
