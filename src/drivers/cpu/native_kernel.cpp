// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/native_kernel.h"

#include <cstdlib>
#include <cstring>

#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {

Result<std::unique_ptr<NativeKernel>> makeNativeKernel(LoweringContext& context,
                                                       const Operation& op, const Operation* pad) {
  switch (op.type) {
    case OperationType::CONV_2D:
    case OperationType::DEPTHWISE_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D: return makeNativeConvolution(context, op, pad);
    case OperationType::ADD:
      ANNRT_CPU_REQUIRE(pad == nullptr, "no PAD folds into an ADD");
      return makeNativeAdd(context, op);
    default:
      if (isTransposeConvBias(context, op)) return makeNativeConvolution(context, op, pad);
      return makeError(ErrorCode::OP_FAILED, "no native kernel for {}", operationTypeName(op.type));
  }
}

bool nativeKernelsEnabled() {
  const char* value = std::getenv("ANNRT_CPU_NATIVE_KERNELS");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

bool nativeKernelPreferred(LoweringContext& context, const Operation& op, const Operation* pad) {
  Result<std::unique_ptr<NativeKernel>> kernel = makeNativeKernel(context, op, pad);
  return kernel.ok() && (*kernel)->preferred();
}

bool nativeKernelAvailable(LoweringContext& context, const Operation& op) {
  return makeNativeKernel(context, op).ok();
}

}  // namespace annrt::cpu
