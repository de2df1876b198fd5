// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What a device may rely on in a request for a model it prepared (AOSP's
// validateRequest): one argument per model input and output, dims that agree
// with the model's, and input buffers holding their whole value.
#pragma once

#include "common/device.h"
#include "common/model.h"
#include "common/result.h"

namespace annrt::abi {

Result<void> validateRequest(const Model& model, const Request& request);

}  // namespace annrt::abi
