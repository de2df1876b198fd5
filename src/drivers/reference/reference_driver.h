// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// nnapi-reference as a driver of the plug-in ABI: the runtime loads the
// in-tree reference device through the same interface as external plug-ins.
#pragma once

#include <annrt/driver.h>

namespace annrt::reference {

const AnnrtDriver* referenceDriver();

}  // namespace annrt::reference
