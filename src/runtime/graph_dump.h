// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A graphviz digraph of a model's main subgraph (operands as boxes, operations
// as ellipses), logged as GraphDump lines with ANNRT_VLOG=compilation, like
// Android's debug.nn.vlog GraphDump.
#pragma once

#include <string>

#include "common/model.h"

namespace annrt::runtime {

std::string graphDump(const Model& model);

}  // namespace annrt::runtime
