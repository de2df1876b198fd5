// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The float32 multiply-add peak of one core, measured: independent FMA chains
// in the widest vectors the host has, so that a kernel's FLOP/s can be read
// as a share of what the core does at its clock of the moment (a VM's clock
// is not what /proc/cpuinfo says).
#pragma once

#include <string>

namespace annrt::bench {

struct FmaPeak {
  double flopsPerSecond = 0;  // 0 where no probe exists for the host
  std::string vectors;        // "AVX-512", "AVX2+FMA", or empty
};

// The best of a few runs of about 10 ms each.
FmaPeak measureFmaPeak();

// `rounds` rounds of the probe's chains in the widest vectors the host has
// (nothing where no probe exists), at the core's multiply-add peak; returns
// their sum, which the caller keeps so the work is not optimized away.
float runFmaChains(long rounds);

}  // namespace annrt::bench
