// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// RESHAPE, SQUEEZE and EXPAND_DIMS of a float32 tensor as a copy into the
// output's own place in the arena, as XNNPACK's static reshape node copies.
// Run natively, a reshape no longer keeps the operation before it on XNNPACK
// (XNNPACK joins a reshape to the node before it: fusion.h): face detection's
// last 1x1 convolution was followed by the reshapes of all four heads.
#include <cstring>

#include "drivers/cpu/fusion.h"
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

class ReshapeKernel final : public NativeKernel {
 public:
  ReshapeKernel(const Operation& op, size_t elements)
      : NativeKernel({op.inputs[0]}, op.outputs[0], NativeForm::RESHAPE), elements_(elements) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    parallelizeTiles(pool, elements_, kNativeTaskFloats, [&](size_t start, size_t count) {
      std::memcpy(output + start, inputs[0] + start, count * sizeof(float));
    });
  }

 private:
  // No activation: the planner folds clamps only into the operations
  // XNNPACK would fold them into (fusion.h), never a reshape.
  void narrow(const OutputRange&) override {}

  size_t elements_;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeReshape(LoweringContext& context,
                                                        const Operation& op) {
  ANNRT_CPU_REQUIRE(isReshape(op.type) && !op.inputs.empty() && op.outputs.size() == 1,
                    "no native kernel for {}", operationTypeName(op.type));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0}));
  ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[0]), "the input is a constant");
  const size_t elements = elementCount(context.input(op, 0).shape);
  ANNRT_CPU_REQUIRE(elements == elementCount(context.output(op, 0).shape),
                    "the output has {} elements, the input {}",
                    elementCount(context.output(op, 0).shape), elements);
  return std::unique_ptr<NativeKernel>(new ReshapeKernel(op, elements));
}

}  // namespace annrt::cpu
