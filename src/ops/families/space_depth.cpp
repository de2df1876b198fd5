// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// DEPTH_TO_SPACE and SPACE_TO_DEPTH: move block_size x block_size spatial
// blocks into the channel dimension and back (TensorFlow's ordering: the
// block offset is the outer part of the channel index). 4-D, NHWC or NCHW.
#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::space_depth {
namespace {

constexpr uint32_t kBlockSize = 1;
constexpr uint32_t kLayout = 2;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypes, 4));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(0), 4, "input"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kBlockSize, OperandType::INT32, "block size"));
  if (const int32_t* block = constantInt32(context, kBlockSize)) {
    ANNRT_CHECK(*block >= 1, "block size {} must be at least 1", *block);
  }
  return validateLayoutInput(context, kLayout);
}

// Output dims in NHWC for NHWC input dims [batches, height, width, depth].
template <bool kToSpace>
Result<std::vector<uint32_t>> outputDims(const std::vector<uint32_t>& in, int32_t blockSize) {
  ANNRT_CHECK(blockSize >= 1, "block size {} must be at least 1", blockSize);
  const auto b = static_cast<uint64_t>(blockSize);
  if constexpr (kToSpace) {
    ANNRT_CHECK(in[3] % (b * b) == 0, "depth {} is not a multiple of block size {} squared", in[3],
                b);
    ANNRT_ASSIGN_OR_RETURN(uint32_t height, checkedDim(in[1] * b));
    ANNRT_ASSIGN_OR_RETURN(uint32_t width, checkedDim(in[2] * b));
    return std::vector<uint32_t>{in[0], height, width, static_cast<uint32_t>(in[3] / (b * b))};
  } else {
    ANNRT_CHECK(in[1] % b == 0 && in[2] % b == 0,
                "height {} and width {} are not multiples of block size {}", in[1], in[2], b);
    ANNRT_ASSIGN_OR_RETURN(uint32_t depth, checkedDim(in[3] * b * b));
    return std::vector<uint32_t>{in[0], static_cast<uint32_t>(in[1] / b),
                                 static_cast<uint32_t>(in[2] / b), depth};
  }
}

template <bool kToSpace>
Result<void> prepare(ExecutionContext& context) {
  return setOutputDimsInNhwc(context, isNchw(context, kLayout), [&](const auto& dims) {
    return outputDims<kToSpace>(dims, context.scalar<int32_t>(kBlockSize));
  });
}

template <bool kToSpace>
Result<void> execute(ExecutionContext& context) {
  const auto b = static_cast<uint32_t>(context.scalar<int32_t>(kBlockSize));
  const size_t bytes = elementSize(context.inputType(0));
  runInNhwc(
      context, isNchw(context, kLayout),
      [&](const void* in, const std::vector<uint32_t>& inDims, void* out,
          const std::vector<uint32_t>& outDims) {
        const std::vector<size_t> s = rowMajorStrides(inDims);
        gatherElements(in, out, outDims, bytes, nullptr, [&](const std::vector<uint32_t>& o) {
          if constexpr (kToSpace) {
            const uint32_t c = ((o[1] % b) * b + o[2] % b) * outDims[3] + o[3];
            return static_cast<int64_t>(o[0] * s[0] + (o[1] / b) * s[1] + (o[2] / b) * s[2] + c);
          } else {
            const uint32_t offset = o[3] / inDims[3];
            const uint32_t h = o[1] * b + offset / b;
            const uint32_t w = o[2] * b + offset % b;
            return static_cast<int64_t>(o[0] * s[0] + h * s[1] + w * s[2] + o[3] % inDims[3]);
          }
        });
      });
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::DEPTH_TO_SPACE,
     .name = "DEPTH_TO_SPACE",
     .validate = validate,
     .prepare = prepare<true>,
     .execute = execute<true>},
    {.type = OperationType::SPACE_TO_DEPTH,
     .name = "SPACE_TO_DEPTH",
     .validate = validate,
     .prepare = prepare<false>,
     .execute = execute<false>},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::space_depth
