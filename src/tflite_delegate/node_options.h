// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A TFLite node's parameters (TfLiteNode::builtin_data, TFLite's C structs)
// back as the .tflite options table they were read from, so that a delegated
// partition can be written as a .tflite file for annrt's importer.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <optional>

#include "schema_generated.h"
#include "tensorflow/lite/c/common.h"

namespace annrt::tflite::delegate {

struct NodeOptions {
  fb::BuiltinOptions type = fb::BuiltinOptions::NONE;
  flatbuffers::Offset<void> table = 0;
};

// nullopt for the builtins (and versions) whose options the delegate does
// not convert: their nodes stay with TFLite.
std::optional<NodeOptions> writeNodeOptions(flatbuffers::FlatBufferBuilder& builder,
                                            int32_t builtin, int version, const TfLiteNode& node);

}  // namespace annrt::tflite::delegate
