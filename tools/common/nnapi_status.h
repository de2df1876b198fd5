// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Turning NNAPI result codes into tool errors: annrt_client's, in the tools'
// namespace.
#pragma once

#include "client/result_codes.h"

namespace annrt::tools {

using client::checkNnapi;
using client::resultCodeName;

}  // namespace annrt::tools
