// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Reads a .tflite file into the flatbuffers object API of annrt's schema
// subset and writes one back, for the test tools that derive model variants
// (tflite_builtin_variant, tflite_dynamic_batch). Fields outside the subset
// (metadata, signature defs) are dropped; TFLite does not need them to run a
// model.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "schema_object_generated.h"

namespace annrt::tflite::testing {

// The model, or nullptr after printing why to stderr.
std::unique_ptr<fb::ModelT> readModelFile(const std::string& path);
bool writeModelFile(const fb::ModelT& model, const std::string& path);

// The main() of a tool "NAME IN.tflite OUT.tflite": reads IN, applies
// `rewrite` (which prints why and returns false when it cannot), writes OUT.
// Returns the exit status.
int rewriteModelFile(int argc, char** argv, const char* name,
                     const std::function<bool(fb::ModelT&, const std::string& out)>& rewrite);

}  // namespace annrt::tflite::testing
