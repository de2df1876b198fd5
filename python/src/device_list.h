// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt.devices(): the NNAPI devices as a list of dicts.
#pragma once

#include <pybind11/pybind11.h>

namespace annrt::python {

// [{"name", "type" ("CPU", "ACCELERATOR", ...), "feature_level", "version"}]
pybind11::list deviceList();

}  // namespace annrt::python
