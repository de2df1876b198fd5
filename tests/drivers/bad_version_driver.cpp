// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A plug-in built against a future major ABI version: the runtime must refuse it.
#include <annrt/driver.h>

extern "C" __attribute__((visibility("default"))) const AnnrtDriver* annrt_driver_init(uint32_t) {
  static const AnnrtDriver driver{(2u << 16), sizeof(AnnrtDriver), "bad-version", 0, nullptr,
                                  nullptr};
  return &driver;
}
