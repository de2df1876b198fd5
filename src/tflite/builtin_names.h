// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Names of TFLite builtin operators, for messages and operation listings.
#pragma once

#include <cstdint>
#include <string>

namespace annrt::tflite {

// "CONV_2D" for 3, ...; "BUILTIN_<code>" for codes annrt has no name for.
std::string builtinName(int32_t code);

}  // namespace annrt::tflite
