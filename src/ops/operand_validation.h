// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Checks of an ANeuralNetworksOperandType as the NNAPI spec states them:
// known type, scalar or tensor dimensions, quantization parameter ranges.
#pragma once

#include <android/NeuralNetworksTypes.h>

#include "common/result.h"
#include "common/types.h"

namespace annrt::ops {

// `allowExtension`: the model has registered the extension prefix of the type.
Result<Shape> validateOperandType(const ANeuralNetworksOperandType& type, bool allowExtension);
// The same checks of an operand's type, dims and quantization, as a Shape.
Result<void> validateOperandShape(const Shape& shape, bool allowExtension);

Result<void> validateChannelQuant(const Shape& shape, const ChannelQuant& quant);

}  // namespace annrt::ops
