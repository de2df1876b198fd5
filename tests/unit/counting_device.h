// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A device for unit tests of the runtime's side of devices: it prepares
// nothing, reports the caching and settings a test gives it, and counts
// how often its supported operations are asked.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/device.h"

namespace annrt::test {

// Supports every operation but the second, and counts how often it is asked.
class CountingDevice final : public Device {
 public:
  CountingDevice(std::string name, bool caches, bool builtIn)
      : name_(std::move(name)), caches_(caches), builtIn_(builtIn) {}
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 2; }
  int64_t featureLevel() const override { return 8; }
  const Capabilities& capabilities() const override { return capabilities_; }
  std::vector<bool> supportedOperations(const Model& model) const override {
    ++asked;
    std::vector<bool> flags(model.main.operations.size(), true);
    if (flags.size() > 1) flags[1] = false;
    return flags;
  }
  Result<std::shared_ptr<PreparedModel>> prepareModel(std::shared_ptr<const Model>,
                                                      const PrepareOptions&) override {
    return makeError(ErrorCode::OP_FAILED, "not used here");
  }
  bool supportsCaching() const override { return caches_; }
  bool isBuiltIn() const override { return builtIn_; }
  std::string cacheSettings() const override { return settings; }

  mutable int asked = 0;
  std::string settings;

 private:
  std::string name_, version_ = "1";
  bool caches_, builtIn_;
  Capabilities capabilities_;
};

}  // namespace annrt::test
