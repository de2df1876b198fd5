// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ADD of two float32 tensors of the output's shape (no broadcast), with its
// fused activation: the residual additions between native convolutions, so
// that they do not cut a native stage in two.
#include "drivers/cpu/native_kernel.h"
#include "drivers/cpu/native_parallel.h"
#include "drivers/cpu/native_vector.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

// Elements per task handed to the pool: 64 KB of output.
constexpr size_t kTile = 16384;

ANNRT_NATIVE_CLONES void addRange(const float* a, const float* b, float* out, size_t count,
                                  float min, float max) {
  const Float8 lo = splat8(min), hi = splat8(max);
  size_t i = 0;
  for (; i + 8 <= count; i += 8) store8(out + i, clamp8(load8(a + i) + load8(b + i), lo, hi));
  for (; i < count; ++i) out[i] = clamp1(a[i] + b[i], min, max);
}

class AddKernel final : public NativeKernel {
 public:
  AddKernel(const Operation& op, size_t elements, OutputRange range)
      : NativeKernel({op.inputs[0], op.inputs[1]}, op.outputs[0], /*preferred=*/false),
        elements_(elements),
        range_(range) {}

  void run(const std::vector<const float*>& inputs, float* output,
           pthreadpool_t pool) const override {
    parallelizeTiles(pool, elements_, kTile, [&](size_t start, size_t count) {
      addRange(inputs[0] + start, inputs[1] + start, output + start, count, range_.min, range_.max);
    });
  }

 private:
  void narrow(const OutputRange& range) override { range_ = intersect(range_, range); }

  size_t elements_;
  OutputRange range_;
};

}  // namespace

Result<std::unique_ptr<NativeKernel>> makeNativeAdd(LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.type == OperationType::ADD && op.inputs.size() == 3,
                    "no native kernel for {}", operationTypeName(op.type));
  ANNRT_RETURN_IF_ERROR(context.checkFloatTensors(op, {0, 1}));
  const Shape& output = context.output(op, 0).shape;
  for (uint32_t i : {0u, 1u}) {
    ANNRT_CPU_REQUIRE(context.input(op, i).shape.dims == output.dims,
                      "input {} is {}, output {}: the native ADD does not broadcast", i,
                      toString(context.input(op, i).shape.dims), toString(output.dims));
    ANNRT_CPU_REQUIRE(!context.isConstantTensor(op.inputs[i]), "input {} is a constant", i);
  }
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, op, 2));
  return std::unique_ptr<NativeKernel>(new AddKernel(op, elementCount(output), range));
}

}  // namespace annrt::cpu
