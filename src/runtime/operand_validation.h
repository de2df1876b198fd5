// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Checks of an ANeuralNetworksOperandType as the NNAPI spec states them:
// known type, scalar or tensor dimensions, quantization parameter ranges.
#pragma once

#include <android/NeuralNetworksTypes.h>

#include "common/result.h"
#include "common/types.h"

namespace annrt::runtime {

// `allowExtension`: the model has registered the extension prefix of the type.
Result<Shape> validateOperandType(const ANeuralNetworksOperandType& type, bool allowExtension);

Result<void> validateChannelQuant(const Shape& shape, const ChannelQuant& quant);

}  // namespace annrt::runtime
