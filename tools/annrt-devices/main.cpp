// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-devices: lists the NNAPI devices of libneuralnetworks.so (name, type,
// version, feature level, operand types and performance). --names prints only the names, one per
// line.

#include <cstdio>
#include <exception>
#include <iostream>

#include "device_capabilities.h"
#include "device_report.h"
#include "devices.h"
#include "flag_parser.h"
#include "tool_log.h"

namespace {

int run(int argc, char** argv) {
  using namespace annrt::tools;
  bool namesOnly = false;
  bool help = false;
  FlagSet flags;
  flags.addBool("names", &namesOnly, "print only the device names, one per line");
  flags.addBool("help", &help, "print the flags and exit");
  if (auto parsed = flags.parse(argc, argv); !parsed.ok()) {
    logError(parsed.error().message);
    return 1;
  }
  if (help) {
    std::cout << "Usage: annrt-devices [--names]\nLists the NNAPI devices.\n" << flags.usage();
    return 0;
  }
  auto devices = listDevices();
  if (!devices.ok()) {
    logError(devices.error().message);
    return 1;
  }
  if (namesOnly) {
    for (const DeviceInfo& device : *devices) std::cout << device.name << "\n";
  } else {
    std::cout << formatDeviceList(*devices, queryCapabilities(*devices));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "annrt-devices: %s\n", e.what());
    return 1;
  }
}
