// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-driver-host LIBRARY: runs one driver plug-in for the runtime that
// started it, which speaks to it over descriptor 3 (docs/driver-isolation.md).
#include <cstdio>

#include "driver_host/host_server.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DRIVER_LIBRARY (started by annrt's runtime)\n", argv[0]);
    return 2;
  }
  return annrt::host::HostServer(3).run(argv[1]);
}
