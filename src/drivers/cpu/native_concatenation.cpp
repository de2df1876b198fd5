// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// CONCATENATION of float32 tensors: for each index before the axis, each
// input's contiguous block after it copied in turn. XNNPACK's 2022 subgraph
// API has no concatenation, so there annrt pads every input to the output's
// shape and adds them (lower_shape.cpp): face detection's two outputs, 896
// boxes of 16 and of 1, took 10-12 us that way for at most 57 KB.
#include <cstring>

#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

class ConcatenationKernel final : public NativeKernel {
 public:
  // blocks[i]: the floats input i contributes per index before the axis.
  ConcatenationKernel(const Operation& op, size_t outer, std::vector<size_t> blocks)
      : NativeKernel(std::vector<uint32_t>(op.inputs.begin(), op.inputs.end() - 1), op.outputs[0],
                     NativeForm::CONCATENATION),
        outer_(outer),
        blocks_(std::move(blocks)) {
    for (size_t block : blocks_) outBlock_ += block;
  }

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    const size_t tile = std::max<size_t>(1, kNativeTaskFloats / outBlock_);
    parallelizeTiles(pool, outer_, tile, [&](size_t first, size_t count) {
      for (size_t o = first; o < first + count; ++o) {
        float* out = output + o * outBlock_;
        for (size_t i = 0; i < blocks_.size(); ++i) {
          std::memcpy(out, inputs[i] + o * blocks_[i], blocks_[i] * sizeof(float));
          out += blocks_[i];
        }
      }
    });
  }

 private:
  // No activation: the planner folds clamps only into the operations
  // XNNPACK would fold them into (fusion.h), never a concatenation.
  void narrow(const OutputRange&) override {}

  size_t outer_;
  std::vector<size_t> blocks_;
  size_t outBlock_ = 0;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeConcatenation(LoweringContext& context,
                                                              const Operation& op) {
  ANNRT_CPU_REQUIRE(op.type == OperationType::CONCATENATION, "no native kernel for {}",
                    operationTypeName(op.type));
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axis, readConcatenation(context, op));
  // readConcatenation checked that every input has input 0's type.
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  const uint32_t count = static_cast<uint32_t>(op.inputs.size()) - 1;
  const Shape& output = context.output(op, 0).shape;
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= output.dims[d];
  for (uint32_t d = axis + 1; d < rank(output); ++d) inner *= output.dims[d];
  std::vector<size_t> blocks;
  for (uint32_t i = 0; i < count; ++i) {
    ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[i]), "input {} is a constant", i);
    blocks.push_back(size_t{context.input(op, i).shape.dims[axis]} * inner);
  }
  return std::unique_ptr<NativeKernel>(new ConcatenationKernel(op, outer, std::move(blocks)));
}

}  // namespace annrt::cpu
